import { readFile } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { findConfig } from '@graphql-mesh/cli';
import { processConfig } from '@graphql-mesh/config';
import { getMesh, type MeshInstance } from '@graphql-mesh/runtime';
import type { MeshPlugin, YamlConfig } from '@graphql-mesh/types';
import { InMemoryStoreStorageAdapter, MeshStore } from '@graphql-mesh/store';
import { DefaultLogger, LogLevel } from '@graphql-mesh/utils';
import { buildSchema } from 'graphql';
import { LINKS, missingForLink } from './links/index.ts';
import { gatewayPlugins } from './plugins/index.ts';
import { PROJECT_ROOT, projectModuleUrl } from './project-root.ts';
import type { GatewaySettings } from './settings.ts';
import { createMemoryTranslationCache, type TranslationCache } from './translation/translation-cache.ts';
import { createTranslationRuntime, useTranslationRuntime, type TranslationRuntimeOptions } from './translation/translation-runtime.ts';
import { createUpstreamFetch } from './upstream-fetch.ts';

export { PROJECT_ROOT } from './project-root.ts';

export interface BuildMeshOptions {
  /** The gateway's settings (see settings.ts); upstream URLs and keys are read per request instead. */
  settings: GatewaySettings;
  /** Where translations are kept. @default in-process LRU bounded by TRANSLATION_CACHE_MAX_BYTES */
  translationCache?: TranslationCache;
  /** Directory holding `.meshrc.yaml`. @default the project root */
  baseDir?: string;
  /**
   * SDL file to build the problems source from instead of the one `.meshrc.yaml` names; lets tests
   * (and users trying a new upstream) start the gateway against another schema.
   */
  problemsSchemaPath?: string;
  /** Where start-up notes go (one line each). @default console.warn */
  log?: (line: string) => void;
  /**
   * Mesh plugins placed innermost, right around the raw upstream fetch, so their `onFetch` sees every
   * HTTP attempt (each retry) and no cache hit: the gateway's observability. @default []
   */
  upstreamPlugins?: MeshPlugin<object>[];
  /** The translation batcher's `onServed` hook (cache hits, texts per call), for metrics. */
  onTranslationServed?: TranslationRuntimeOptions['onServed'];
}

export interface BuiltMesh {
  mesh: MeshInstance;
  /** Releases the mesh and its upstream connections. */
  destroy(): Promise<void>;
  /** Links left out because the problems schema cannot carry them, with the reason. */
  linksLeftOut: { name: string; reason: string }[];
}

/**
 * Builds the mesh from `.meshrc.yaml` at start-up (no generated artifacts to keep in step), after
 * checking each link against the problems schema it will extend.
 */
export async function buildMesh({
  settings,
  translationCache,
  baseDir = PROJECT_ROOT,
  problemsSchemaPath,
  log = console.warn,
  upstreamPlugins = [],
  onTranslationServed,
}: BuildMeshOptions): Promise<BuiltMesh> {
  const { config } = (await findConfig({ dir: baseDir })) as { config: YamlConfig.Config };
  const problemsHandler = config.sources.find((source) => source.name === 'Problems')?.handler.graphql as
    | { source?: string }
    | undefined;
  if (!problemsHandler?.source) throw new Error('.meshrc.yaml must declare the Problems source with a schema snapshot (`source:`)');
  if (problemsSchemaPath) problemsHandler.source = problemsSchemaPath;

  const problemsSchema = buildSchema(await readFile(resolve(baseDir, problemsHandler.source), 'utf8'));
  const linksLeftOut: BuiltMesh['linksLeftOut'] = [];
  for (const link of LINKS) {
    const reason = missingForLink(problemsSchema, link);
    if (!reason) continue;
    linksLeftOut.push({ name: link.name, reason });
    config.additionalTypeDefs = toList(config.additionalTypeDefs).filter((entry) => entry !== link.typeDefs);
    config.additionalResolvers = toList(config.additionalResolvers).filter((entry) => entry !== link.resolvers);
    log(`link ${link.name} left out: ${reason}`);
  }

  // Mesh's debug level (DEBUG=1) prints every upstream request with its headers and body, keys
  // included. Its loggers read DEBUG when they are made, during this build: hide it until the build
  // is done, and keep the gateway's Mesh logger at info.
  const debug = process.env.DEBUG;
  if (debug) {
    delete process.env.DEBUG;
    log('DEBUG is ignored by the gateway: Mesh debug output would print upstream keys');
  }
  try {
    return await buildFromConfig(config, { baseDir, settings, translationCache, upstreamPlugins, onTranslationServed }, linksLeftOut);
  } finally {
    if (debug) process.env.DEBUG = debug;
  }
}

async function buildFromConfig(
  config: YamlConfig.Config,
  { baseDir, settings, translationCache, upstreamPlugins, onTranslationServed }: Omit<BuildMeshOptions, 'log' | 'problemsSchemaPath'> & { baseDir: string },
  linksLeftOut: BuiltMesh['linksLeftOut'],
): Promise<BuiltMesh> {
  const processed = await processConfig(config, {
    dir: baseDir,
    logger: new DefaultLogger('', LogLevel.info),
    // The mesh is built from the sources at every start. Mesh's default store turns read-only under
    // NODE_ENV=production and then expects `mesh build` artifacts, which this project does not use.
    store: new MeshStore(resolve(baseDir, '.mesh'), new InMemoryStoreStorageAdapter(), { readonly: false, validate: false }),
    // Imported from here so relative paths resolve against the project and .ts files load under tsx/vitest.
    importFn: (id: string) => import(id.startsWith('.') || isAbsolute(id) ? projectModuleUrl(id, baseDir) : id),
  });
  const translationRuntime = createTranslationRuntime({
    cache:
      translationCache ??
      createMemoryTranslationCache({ maxBytes: settings.translationCacheMaxBytes, ttlMs: settings.translationCacheTtlSeconds * 1000 }),
    batchSize: settings.translationBatchSize,
    concurrency: settings.translationConcurrency,
    maxTextLength: settings.translationMaxTextLength,
    onServed: onTranslationServed,
  });
  processed.additionalEnvelopPlugins = [
    ...(processed.additionalEnvelopPlugins ?? []),
    // Each onFetch wraps those before it: first here means innermost, next to the raw fetch.
    ...(upstreamPlugins ?? []),
    ...gatewayPlugins(settings),
    useTranslationRuntime(translationRuntime),
  ];
  const upstreamFetch = createUpstreamFetch();
  processed.fetchFn = upstreamFetch.fetch;
  const mesh = await getMesh(processed);
  const destroy = async () => {
    mesh.destroy();
    await upstreamFetch.close();
  };
  return { mesh, linksLeftOut, destroy };
}

function toList<T>(value: T | T[] | undefined): T[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}
