import { isAbsolute, resolve } from 'node:path';
import { getMesh, type GetMeshOptions, type MeshInstance, type MeshResolvedSource } from '@graphql-mesh/runtime';
import type { Logger, MeshFetch, MeshPlugin, MeshTransform, YamlConfig } from '@graphql-mesh/types';
import { InMemoryStoreStorageAdapter, MeshStore } from '@graphql-mesh/store';
import { buildASTSchema, parse, printSchema, type DocumentNode, type GraphQLSchema } from 'graphql';
import { LINKS } from './links/index.ts';
import { meshConfigFor, PROBLEMS_SCHEMA_MODULE, sourcePrefixes, toList, typeDefsOf } from './mesh-config.ts';
import { meshOptionsFromConfig } from './mesh-options.ts';
import type { GatewayLog } from './gateway-log.ts';
import { createMeshLogger } from './observability/mesh-logger.ts';
import { PROJECT_ROOT, projectModuleUrl } from './project-root.ts';
import { gatewayNamesOf, withoutGatewayNames } from './schema/gateway-names.ts';
import { meshOptionsInTurns, type BuildTurn, type SourceMemo } from './mesh-turns.ts';
import { nextTurn } from './schema/next-turn.ts';
import { linksLeftOutOf } from './schema/problems-snapshot.ts';
import type { GatewaySettings } from './settings.ts';

export { PROJECT_ROOT } from './project-root.ts';
export { bearer, listedResolverMaps, problemsSnapshotPath } from './mesh-config.ts';

export interface BuildMeshOptions {
  /** The upstreams' URLs and keys (settings.ts); the URLs are required. */
  settings: Pick<GatewaySettings, 'problemsUrl' | 'problemsApiKey' | 'translationUrl' | 'translationApiKey'>;
  /** Directory holding `.meshrc.yaml`. @default the project root */
  baseDir?: string;
  /**
   * The problems service's schema to build the Problems source from (as introspected, or the
   * snapshot's): SDL text or a schema. The file `.meshrc.yaml` names is not read here: it is the
   * fallback the composition root reads when the service cannot be introspected. SDL text is the
   * gateway's own printing of a schema it has built and validated (schema/introspection.ts): it is
   * not validated again.
   */
  problemsSchema: string | GraphQLSchema;
  /** Where start-up notes and Mesh's warnings and errors go (one line each, with a level). @default console.warn */
  log?: GatewayLog;
  /** Mesh plugins of the gateway's own (upstream calls, the translation runtime), given the sources Mesh resolved. */
  plugins?: (sources: MeshResolvedSource[]) => MeshPlugin<object>[];
  /** Transforms applied where Mesh delegates to each source (the gateway's delegation workarounds). */
  sourceTransforms?: () => MeshTransform[];
  /** The fetch every source's handler calls with. */
  fetch?: MeshFetch;
  /**
   * Where the schemas of the sources other than Problems are kept from one build to the next (they
   * never change while the gateway runs): give each build of one gateway the same. @default none kept
   */
  sourceMemo?: SourceMemo;
  /** Lets requests in between two steps of the build. @default the next turn of the event loop */
  turn?: BuildTurn;
}

export interface BuiltMesh {
  mesh: MeshInstance;
  /** `.meshrc.yaml` as read, with the links left out removed. */
  config: YamlConfig.Config;
  /** The type definitions and resolvers `.meshrc.yaml` adds to the sources, as Mesh imported them. */
  additions: { typeDefs: DocumentNode[]; resolvers: unknown[] };
  /** The problems source's own schema, as Mesh built it. */
  problemsSchema: GraphQLSchema | undefined;
  /** Links left out because the problems schema cannot carry them, with the reason. */
  linksLeftOut: { name: string; reason: string }[];
  /** What of the problems schema was left out for bearing a name of the gateway's own (`type ProblemTranslation`, `field Problem.translation`…). */
  namesLeftOut: string[];
}

/**
 * Turns `.meshrc.yaml` and the upstreams' settings into a mesh, and nothing else: the upstreams go
 * into the config itself (mesh-config.ts), each link is checked against the problems schema it would
 * extend (left out, with the reason, when it cannot be placed), and Mesh builds at every start (no
 * generated artifacts to keep in step). What the gateway adds around it (upstream steps, translation
 * runtime, execution) the composition root (create-gateway.ts) passes in.
 */
export async function buildMesh({
  settings,
  baseDir = PROJECT_ROOT,
  problemsSchema,
  log = console.warn,
  plugins,
  sourceTransforms,
  fetch,
  sourceMemo,
  turn = () => nextTurn(),
}: BuildMeshOptions): Promise<BuiltMesh> {
  const config = await meshConfigFor(settings, baseDir, log);
  const { document, namesLeftOut, linksLeftOut } = await problemsSourceOf(config, problemsSchema, { baseDir, log, turn });
  // Every Mesh logger descends from this one; left to itself, Mesh would print coloured lines of its
  // own beside the gateway's, and read DEBUG to print upstream requests with their keys.
  const logger = createMeshLogger(log);
  const processed = await gatewayMeshOptions(config, document, { baseDir, logger, turn, plugins, sourceTransforms, fetch });
  await turn('options');
  // The longest steps: the sources' schemas built, stitched and transformed, each step whole once
  // started (they grow with the problems schema, which is why its size is bounded: schema/schema-size.ts).
  const reused = sourceMemo && { names: new Set(processed.sources.map((source) => source.name).filter((name) => name !== 'Problems')), memo: sourceMemo };
  const mesh = await getMesh({ ...meshOptionsInTurns(processed, turn, reused), logger });
  return {
    mesh,
    config,
    additions: { typeDefs: processed.additionalTypeDefs ?? [], resolvers: toList(processed.additionalResolvers) },
    problemsSchema: mesh.rawSources.find((source) => source.name === 'Problems')?.schema,
    linksLeftOut,
    namesLeftOut,
  };
}

/**
 * The problems schema as the Problems handler takes it: without what bears one of the gateway's own
 * names (said in one line), and with the links it cannot carry taken out of the config (one line
 * each). Each step over the whole schema runs in a turn of its own: requests come in between.
 */
async function problemsSourceOf(
  config: YamlConfig.Config,
  problemsSchema: string | GraphQLSchema,
  { baseDir, log, turn }: { baseDir: string; log: GatewayLog; turn: BuildTurn },
): Promise<{ document: DocumentNode; namesLeftOut: string[]; linksLeftOut: { name: string; reason: string }[] }> {
  // The service's names never merge into the gateway's: what bears one of them is left out (one line).
  const names = gatewayNamesOf(await typeDefsOf(config, baseDir), sourcePrefixes(config));
  const parsed = typeof problemsSchema === 'string' ? parse(problemsSchema, { noLocation: true }) : undefined;
  await turn('problems schema parsed');
  const given = parsed ? buildASTSchema(parsed, { assumeValidSDL: true }) : (problemsSchema as GraphQLSchema);
  await turn('problems schema');
  const { schema, leftOut: namesLeftOut } = withoutGatewayNames(given, names);
  await turn("the gateway's names");
  // What the Problems handler builds its schema from: the document parsed above when nothing was
  // left out (Mesh's graphql handler takes one as well as text, and is spared parsing it again).
  const document = schema === given && parsed ? parsed : parse(printSchema(schema), { noLocation: true });
  if (namesLeftOut.length > 0) log(`names of the problems service left out, since the gateway uses them itself: ${namesLeftOut.join(', ')}`, 'warn');
  const linksLeftOut = linksLeftOutOf(schema);
  for (const { name, reason } of linksLeftOut) {
    const link = LINKS.find((each) => each.name === name)!;
    config.additionalTypeDefs = toList(config.additionalTypeDefs).filter((entry) => entry !== link.typeDefs);
    config.additionalResolvers = toList(config.additionalResolvers).filter((entry) => entry !== link.resolvers);
    log(`link ${name} left out: ${reason}`, 'warn');
  }
  return { document, namesLeftOut, linksLeftOut };
}

/** Mesh's options from the config, with the gateway's own parts: the Problems source's document, the delegation transforms, the plugins and the fetch. */
async function gatewayMeshOptions(
  config: YamlConfig.Config,
  document: DocumentNode,
  { baseDir, logger, turn, plugins, sourceTransforms, fetch }: { baseDir: string; logger: Logger; turn: BuildTurn } & Pick<BuildMeshOptions, 'plugins' | 'sourceTransforms' | 'fetch'>,
): Promise<GetMeshOptions> {
  const processed = await meshOptionsFromConfig(config, {
    dir: baseDir,
    logger,
    additionalTypeDefs: await typeDefsOf(config, baseDir),
    // The mesh is built from the sources at every start. Mesh's default store turns read-only under
    // NODE_ENV=production and then expects `mesh build` artifacts, which this project does not use.
    store: new MeshStore(resolve(baseDir, '.mesh'), new InMemoryStoreStorageAdapter(), { readonly: false, validate: false }),
    // Imported from here so relative paths resolve against the project and .ts files load under tsx/vitest.
    importFn: (id: string) =>
      id === PROBLEMS_SCHEMA_MODULE
        ? turn('read').then(() => ({ default: document }))
        : import(id.startsWith('.') || isAbsolute(id) ? projectModuleUrl(id, baseDir) : id),
  });
  // Applied where Mesh delegates to each source (in code, not in .meshrc.yaml: the fast path reads
  // the Problems source's transforms there to know whether it may forward operations whole).
  for (const source of processed.sources) source.transforms = [...(source.transforms ?? []), ...(sourceTransforms?.() ?? [])];
  // Last, so that their onFetch wraps the fetch of any plugin declared in .meshrc.yaml.
  processed.additionalEnvelopPlugins = [...(processed.additionalEnvelopPlugins ?? []), ...(plugins?.(processed.sources) ?? [])];
  if (fetch) processed.fetchFn = fetch;
  return processed;
}
