import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { loadYaml } from '@graphql-mesh/utils';
import type { YamlConfig } from '@graphql-mesh/types';
import { parse, type DocumentNode } from 'graphql';
import type { GatewayLog } from './gateway-log.ts';
import { LINKS } from './links/index.ts';
import { MESH_CLI_GUARD } from './mesh-cli-guard.ts';
import { createMeshLogger } from './observability/mesh-logger.ts';
import { PROJECT_ROOT, projectModuleUrl } from './project-root.ts';
import type { GatewaySettings } from './settings.ts';

/** The module name under which it hands the Problems handler its schema (a name ending in `ts`, which the handler imports). */
export const PROBLEMS_SCHEMA_MODULE = 'gateway:problems-schema.ts';

/**
 * `.meshrc.yaml` as the gateway builds its mesh from it: both sources declared, pointed at the
 * upstreams the settings name, the Problems source reading its schema from the module only the
 * gateway's importFn knows, and without the guard meant for the Mesh CLI.
 */
export async function meshConfigFor(
  settings: Pick<GatewaySettings, 'problemsUrl' | 'problemsApiKey' | 'translationUrl' | 'translationApiKey'>,
  baseDir: string,
  log: GatewayLog,
): Promise<YamlConfig.Config> {
  const config = await readMeshConfig(baseDir, log);
  const problemsHandler = config.sources.find((source) => source.name === 'Problems')?.handler.graphql as
    | (YamlConfig.GraphQLHandlerHTTPConfiguration & { source?: string })
    | undefined;
  const translationHandler = config.sources.find((source) => source.name === 'Translation')?.handler.openapi;
  if (!problemsHandler?.source) throw new Error('.meshrc.yaml must declare the Problems source with a schema snapshot (`source:`)');
  if (!translationHandler) throw new Error('.meshrc.yaml must declare the Translation source (openapi)');
  // Mesh's handler reads `source:` through importFn when it names a module: this name is one only
  // the importFn knows, and it hands over the schema given, so nothing is read from disk.
  problemsHandler.source = PROBLEMS_SCHEMA_MODULE;
  // The guard that stops the Mesh CLI on this config is for the CLI only.
  config.plugins = config.plugins?.filter((plugin) => !(MESH_CLI_GUARD in plugin));
  // The upstreams are known now, and the mesh is built at every start: they go into the config itself
  // instead of `{env.X}` placeholders that Mesh would read from the environment at every call.
  problemsHandler.endpoint = `${settings.problemsUrl}/graphql`;
  problemsHandler.operationHeaders = bearer(settings.problemsApiKey);
  translationHandler.endpoint = settings.translationUrl;
  translationHandler.operationHeaders = bearer(settings.translationApiKey);
  return config;
}

/** The resolver maps `.meshrc.yaml` still lists (a link left out is not), imported as Mesh imports them. */
export async function listedResolverMaps(config: YamlConfig.Config, baseDir: string = PROJECT_ROOT): Promise<unknown[]> {
  const listed = new Set(toList(config.additionalResolvers));
  return Promise.all(
    LINKS.filter((link) => listed.has(link.resolvers)).map(async (link) => ((await import(projectModuleUrl(link.resolvers, baseDir))) as { resolvers?: unknown }).resolvers),
  );
}

/** `Authorization: Bearer <key>`, or no header at all when there is no key. */
export function bearer(key: string | undefined): Record<string, string> {
  return key ? { Authorization: `Bearer ${key}` } : {};
}

/** The snapshot `.meshrc.yaml` names for the Problems source (`source:`), as an absolute path. */
export async function problemsSnapshotPath(baseDir: string = PROJECT_ROOT, log: GatewayLog = console.warn): Promise<string> {
  const config = await readMeshConfig(baseDir, log);
  const handler = config.sources.find((source) => source.name === 'Problems')?.handler.graphql as { source?: string } | undefined;
  if (!handler?.source) throw new Error('.meshrc.yaml must declare the Problems source with a schema snapshot (`source:`)');
  return resolve(baseDir, handler.source);
}

/** The type definitions `.meshrc.yaml` adds (files, or SDL written in place), parsed. */
export async function typeDefsOf(config: YamlConfig.Config, baseDir: string): Promise<DocumentNode[]> {
  return Promise.all(
    toList(config.additionalTypeDefs as string | string[] | undefined).map(async (entry) => parse(/[{}]/.test(entry) ? entry : await readFile(resolve(baseDir, entry), 'utf8'), { noLocation: true })),
  );
}

/** The prefixes the sources' `prefix` transforms put on their names. */
export function sourcePrefixes(config: YamlConfig.Config): string[] {
  return config.sources.flatMap((source) => (source.transforms ?? []).flatMap((transform) => {
    const value = (transform as { prefix?: { value?: string } }).prefix?.value;
    return value ? [value] : [];
  }));
}

export function toList<T>(value: T | T[] | undefined): T[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

/**
 * `.meshrc.yaml` as Mesh's own YAML loader reads it (its `!include` tags work). Not through the Mesh
 * CLI's config finder: that module loads the whole CLI (far more resident memory for code a served
 * gateway never runs) and substitutes `${VAR}` from the process environment, which library code here
 * never reads (the settings carry every value; see the `{env.X}` placeholders' comment).
 */
async function readMeshConfig(baseDir: string, log: GatewayLog): Promise<YamlConfig.Config> {
  const path = resolve(baseDir, '.meshrc.yaml');
  return loadYaml(path, await readFile(path, 'utf8'), createMeshLogger(log)) as YamlConfig.Config;
}
