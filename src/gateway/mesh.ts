import { readFile } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { processConfig } from '@graphql-mesh/config';
import { loadYaml } from '@graphql-mesh/utils';
import { getMesh, type MeshInstance } from '@graphql-mesh/runtime';
import type { MeshPlugin, YamlConfig } from '@graphql-mesh/types';
import { InMemoryStoreStorageAdapter, MeshStore } from '@graphql-mesh/store';
import { buildSchema, type GraphQLSchema } from 'graphql';
import { fastPathBlocker } from './execution/forward/fast-path-blocker.ts';
import { gatewayFieldsOf } from './execution/forward/forwardable-operation.ts';
import { completedLinksOf, type LinkCompletionOptions } from './execution/forward/linked-answer.ts';
import type { PreparedContext, PreparedOperations } from './execution/forward/prepared-operations.ts';
import { createSingleSourceFastPath } from './execution/forward/single-source-fast-path.ts';
import { LINKS, missingForLink } from './links/index.ts';
import { createMeshLogger, type GatewayLog } from './observability/mesh-logger.ts';
import { MESH_CLI_GUARD } from './mesh-cli-guard.ts';
import { PROJECT_ROOT, projectModuleUrl } from './project-root.ts';
import type { GatewaySettings } from './settings.ts';
import { createMemoryTranslationCache, type TranslationCache } from './translation/translation-cache.ts';
import { deferredFieldsTransform } from './execution/delegate/deferred-fields-transform.ts';
import { fragmentTypenameTransform } from './execution/delegate/fragment-typename-transform.ts';
import { useDelegatedExecution } from './execution/delegate/delegated-execution.ts';
import { createTranslationRuntime, useTranslationRuntime, type TranslationRuntimeOptions } from './translation/translation-runtime.ts';
import { composeSteps, type UpstreamStep } from './upstream/upstream-call.ts';
import { useUpstreamCalls } from './upstream/upstream-calls.ts';
import { createUpstreamFetch } from './upstream/upstream-fetch.ts';

export { PROJECT_ROOT } from './project-root.ts';

export interface BuildMeshOptions {
  /** The gateway's settings (see settings.ts); the upstream URLs are required. */
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
  /** Where start-up notes and Mesh's warnings and errors go (one line each, with a level). @default console.warn */
  log?: GatewayLog;
  /** What happens around every upstream HTTP call (cache, errors, retries, observation), outermost first. @default [] */
  upstreamSteps?: UpstreamStep[];
  /** The translation batcher's `onServed` hook (cache hits, texts per call), for metrics. */
  onTranslationServed?: TranslationRuntimeOptions['onServed'];
}

export interface BuiltMesh {
  mesh: MeshInstance;
  /** Releases the mesh and its upstream connections. */
  destroy(): Promise<void>;
  /** Links left out because the problems schema cannot carry them, with the reason. */
  linksLeftOut: { name: string; reason: string }[];
  /** Operations the fast path has forwarded, to forward again in front of yoga; absent when the fast path is off. */
  preparedOperations?: PreparedOperations;
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
  upstreamSteps = [],
  onTranslationServed,
}: BuildMeshOptions): Promise<BuiltMesh> {
  const config = await readMeshConfig(baseDir, log);
  const problemsHandler = config.sources.find((source) => source.name === 'Problems')?.handler.graphql as
    | (YamlConfig.GraphQLHandlerHTTPConfiguration & { source?: string })
    | undefined;
  const translationHandler = config.sources.find((source) => source.name === 'Translation')?.handler.openapi;
  if (!problemsHandler?.source) throw new Error('.meshrc.yaml must declare the Problems source with a schema snapshot (`source:`)');
  if (!translationHandler) throw new Error('.meshrc.yaml must declare the Translation source (openapi)');
  if (problemsSchemaPath) problemsHandler.source = problemsSchemaPath;
  // The guard that stops the Mesh CLI on this config is for the CLI only.
  config.plugins = config.plugins?.filter((plugin) => !(MESH_CLI_GUARD in plugin));
  // The upstreams are known now, and the mesh is built at every start: they go into the config itself
  // instead of `{env.X}` placeholders that Mesh would read from the environment at every call.
  problemsHandler.endpoint = `${settings.problemsUrl}/graphql`;
  problemsHandler.operationHeaders = bearer(settings.problemsApiKey);
  translationHandler.endpoint = settings.translationUrl;
  translationHandler.operationHeaders = bearer(settings.translationApiKey);

  const problemsSchema = buildSchema(await readFile(resolve(baseDir, problemsHandler.source), 'utf8'));
  const linksLeftOut: BuiltMesh['linksLeftOut'] = [];
  for (const link of LINKS) {
    const reason = missingForLink(problemsSchema, link);
    if (!reason) continue;
    linksLeftOut.push({ name: link.name, reason });
    config.additionalTypeDefs = toList(config.additionalTypeDefs).filter((entry) => entry !== link.typeDefs);
    config.additionalResolvers = toList(config.additionalResolvers).filter((entry) => entry !== link.resolvers);
    log(`link ${link.name} left out: ${reason}`, 'warn');
  }

  return buildFromConfig(config, { baseDir, settings, translationCache, upstreamSteps, onTranslationServed, log }, linksLeftOut);
}

async function buildFromConfig(
  config: YamlConfig.Config,
  { baseDir, settings, translationCache, upstreamSteps, onTranslationServed, log }: Omit<BuildMeshOptions, 'log' | 'problemsSchemaPath'> & {
    baseDir: string;
    log: GatewayLog;
  },
  linksLeftOut: BuiltMesh['linksLeftOut'],
): Promise<BuiltMesh> {
  // Every Mesh logger descends from this one; left to itself, Mesh would print coloured lines of its
  // own beside the gateway's, and read DEBUG to print upstream requests with their keys.
  const logger = createMeshLogger(log);
  // processConfig builds its loggers from the config's `logger:` module, looked up through importFn:
  // name one that only this importFn knows.
  config.logger = MESH_LOGGER_MODULE;
  const processed = await processConfig(config, {
    dir: baseDir,
    logger,
    // The mesh is built from the sources at every start. Mesh's default store turns read-only under
    // NODE_ENV=production and then expects `mesh build` artifacts, which this project does not use.
    store: new MeshStore(resolve(baseDir, '.mesh'), new InMemoryStoreStorageAdapter(), { readonly: false, validate: false }),
    // Imported from here so relative paths resolve against the project and .ts files load under tsx/vitest.
    importFn: (id: string) =>
      id === `@graphql-mesh/${MESH_LOGGER_MODULE}`
        ? Promise.resolve({ default: logger })
        : import(id.startsWith('.') || isAbsolute(id) ? projectModuleUrl(id, baseDir) : id),
  });
  // Applied where Mesh delegates to each source (in code, not in .meshrc.yaml: the fast path reads
  // the Problems source's transforms there to know whether it may forward operations whole).
  for (const source of processed.sources) source.transforms = [...(source.transforms ?? []), fragmentTypenameTransform(), deferredFieldsTransform()];
  const translationRuntime = createTranslationRuntime({
    cache:
      translationCache ??
      createMemoryTranslationCache({ maxBytes: settings.translationCacheMaxBytes, ttlMs: settings.translationCacheTtlSeconds * 1000 }),
    batchSize: settings.translationBatchSize,
    maxCharsPerCall: settings.translationMaxCharsPerCall,
    concurrency: settings.translationConcurrency,
    maxCallsPerRequest: settings.translationMaxCallsPerRequest ?? 100,
    maxTextLength: settings.translationMaxTextLength,
    bodyApiKey: settings.translationKeyInBody ? settings.translationApiKey : undefined,
    translationUrl: settings.translationUrl,
    translationApiKey: settings.translationApiKey,
    cacheTtlMs: settings.translationCacheTtlSeconds * 1000,
    // Off with the translation cache (TRANSLATION_CACHE_MAX_BYTES=0), and never larger than it.
    assembledMaxBytes: Math.min(32 * 1024 * 1024, settings.translationCacheMaxBytes),
    onServed: onTranslationServed,
  });
  const upstreamFetch = createUpstreamFetch();
  // Known once Mesh has built the source; the fast path forwards nothing before.
  let problemsSchema: GraphQLSchema | undefined;
  const disposal = new AbortController();
  // The mesh's own context for a request answered in front of yoga (the in-context SDK, the
  // translation runtime): the same plugins build it as build yoga's.
  let built: MeshInstance | undefined;
  const contextOf = (initial: PreparedContext) => built!.getEnveloped(initial).contextFactory();
  const fastPathOff = settings.fastPathEnabled ? fastPathBlocker(config, 'Problems') : 'FAST_PATH_ENABLED=false';
  if (settings.fastPathEnabled && fastPathOff) log(`single-source fast path off: ${fastPathOff}`, 'warn');
  const fastPath = fastPathOff
    ? undefined
    : createSingleSourceFastPath({
        service: 'problems',
        sourceSchema: () => problemsSchema,
        gatewayFields: gatewayFieldsOf(processed.additionalTypeDefs ?? [], toList(processed.additionalResolvers)),
        endpoint: `${settings.problemsUrl}/graphql`,
        headers: bearer(settings.problemsApiKey),
        // The same step instances as the handler's calls: one problems cache, one set of counters.
        send: composeSteps(upstreamSteps ?? []),
        network: upstreamFetch.fetch,
        signal: disposal.signal,
        links: await linksForFastPath(config, baseDir),
        contextOf,
      });
  processed.additionalEnvelopPlugins = [
    ...(processed.additionalEnvelopPlugins ?? []),
    // Last, so its onFetch wraps the fetch of any plugin declared in .meshrc.yaml.
    useUpstreamCalls(processed.sources, upstreamSteps ?? []),
    useTranslationRuntime(translationRuntime),
    // Before the fast path, whose delegated way (and only that) it changes.
    useDelegatedExecution(),
    ...(fastPath ? [fastPath.plugin] : []),
  ];
  processed.fetchFn = upstreamFetch.fetch;
  const mesh = await getMesh({ ...processed, logger });
  built = mesh;
  problemsSchema = mesh.rawSources.find((source) => source.name === 'Problems')?.schema;
  const destroy = async () => {
    disposal.abort();
    mesh.destroy();
    // The statement worker thread, if it started.
    await translationRuntime.statements.close();
    await upstreamFetch.close();
  };
  return { mesh, linksLeftOut, destroy, preparedOperations: fastPath?.prepared };
}

/**
 * The links the fast path may complete itself: the resolver maps of the links `.meshrc.yaml` still
 * lists (a link left out is not), as Mesh imported them.
 */
async function linksForFastPath(config: YamlConfig.Config, baseDir: string): Promise<LinkCompletionOptions | undefined> {
  const listed = new Set(toList(config.additionalResolvers));
  const maps = await Promise.all(
    LINKS.filter((link) => listed.has(link.resolvers)).map(async (link) => ((await import(projectModuleUrl(link.resolvers, baseDir))) as { resolvers?: unknown }).resolvers),
  );
  return completedLinksOf(maps);
}

/** `Authorization: Bearer <key>`, or no header at all when there is no key. */
function bearer(key: string | undefined): Record<string, string> {
  return key ? { Authorization: `Bearer ${key}` } : {};
}

/** The module name under which buildMesh hands Mesh the gateway's logger. */
const MESH_LOGGER_MODULE = 'gateway-log';

function toList<T>(value: T | T[] | undefined): T[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

/**
 * `.meshrc.yaml` as Mesh's own YAML loader reads it (its `!include` tags work). Not through the Mesh
 * CLI's config finder: that module loads the whole CLI (about 150 MiB of resident memory for code a
 * served gateway never runs) and substitutes `${VAR}` from the process environment, which library
 * code here never reads (the settings carry every value; see the `{env.X}` placeholders' comment).
 */
async function readMeshConfig(baseDir: string, log: GatewayLog): Promise<YamlConfig.Config> {
  const path = resolve(baseDir, '.meshrc.yaml');
  return loadYaml(path, await readFile(path, 'utf8'), createMeshLogger(log)) as YamlConfig.Config;
}
