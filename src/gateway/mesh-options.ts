import InMemoryLRUCache from '@graphql-mesh/cache-inmemory-lru';
import type { GetMeshOptions, MeshResolvedSource } from '@graphql-mesh/runtime';
import type { MeshStore } from '@graphql-mesh/store';
import type { ImportFn, Logger, MeshMerger, MeshTransform, YamlConfig } from '@graphql-mesh/types';
import { getAdditionalResolversFromTypeDefs, PubSub, resolveAdditionalResolvers } from '@graphql-mesh/utils';
import type { DocumentNode } from 'graphql';

export interface MeshOptionsContext {
  /** Directory `.meshrc.yaml`'s relative paths are resolved against. */
  dir: string;
  logger: Logger;
  store: MeshStore;
  /** How handlers, transforms, the merger and resolver modules are imported (and how handlers read `source:`). */
  importFn: ImportFn;
  /** `additionalTypeDefs` of the config, parsed. */
  additionalTypeDefs: DocumentNode[];
}

/** What `.meshrc.yaml` may hold for the gateway: the keys read below, and `plugins` left empty by buildMesh. */
const READ_KEYS = new Set(['sources', 'transforms', 'additionalTypeDefs', 'additionalResolvers', 'merger', 'plugins', 'serve']);

/**
 * `.meshrc.yaml` turned into the options of Mesh's `getMesh`, as the Mesh CLI's `processConfig` does
 * for the keys this project's config uses: each handler, transform and merger named is Mesh's package
 * of that name (`graphql` is `@graphql-mesh/graphql`, `prefix` is `@graphql-mesh/transform-prefix`,
 * `stitching` is `@graphql-mesh/merger-stitching`), and the cache is the in-memory LRU that Mesh's
 * default cache becomes on Node. Not through `processConfig` itself: `@graphql-mesh/config` brings
 * code loaders and Babel for features the gateway does not use, and every app would install them.
 * A key read nowhere here is refused rather than left out in silence.
 */
export async function meshOptionsFromConfig(config: YamlConfig.Config, { dir, logger, store, importFn, additionalTypeDefs }: MeshOptionsContext): Promise<GetMeshOptions> {
  const unread = Object.keys(config).filter((key) => !READ_KEYS.has(key) && config[key as keyof YamlConfig.Config] !== undefined);
  if ((config.plugins ?? []).length > 0) unread.push('plugins');
  if (unread.length > 0) throw new Error(`.meshrc.yaml: the gateway builds its mesh without ${unread.map((key) => `\`${key}\``).join(', ')}; take it out`);

  const pubsub = new PubSub();
  const cache = new InMemoryLRUCache({ pubsub });
  const sourcesStore = store.child('sources');
  const transform = async (entry: YamlConfig.Transform, apiName: string): Promise<MeshTransform> => {
    const [name, transformConfig] = Object.entries(entry)[0]!;
    const Transform = await meshPackage(importFn, 'transform', name, `@graphql-mesh/transform-${kebab(name)}`);
    return new Transform({ apiName, config: transformConfig, baseDir: dir, cache, pubsub, importFn, logger });
  };

  const sources = await Promise.all(
    config.sources.map(async (source): Promise<MeshResolvedSource> => {
      const [name, handlerConfig] = Object.entries(source.handler)[0]!;
      const Handler = await meshPackage(importFn, 'handler', name, `@graphql-mesh/${kebab(name)}`);
      return {
        name: source.name,
        handler: new Handler({ name: source.name, config: handlerConfig, baseDir: dir, cache, pubsub, store: sourcesStore.child(source.name), logger: logger.child({ source: source.name }), importFn }),
        transforms: await Promise.all((source.transforms ?? []).map((entry) => transform(entry, source.name))),
      };
    }),
  );
  const transforms = await Promise.all((config.transforms ?? []).map((entry) => transform(entry, '')));

  const additionalResolvers = await resolveAdditionalResolvers(dir, config.additionalResolvers ?? [], importFn, pubsub);
  // `@resolveTo` on a field of the type definitions: resolvers Mesh writes from the directive.
  const fromDirectives = getAdditionalResolversFromTypeDefs(additionalTypeDefs);
  if (fromDirectives.length > 0) additionalResolvers.push(...(await resolveAdditionalResolvers(dir, fromDirectives, importFn, pubsub)));

  const mergerName = config.merger ?? 'stitching';
  const Merger = await meshPackage(importFn, 'merger', mergerName, `@graphql-mesh/merger-${kebab(mergerName)}`);
  const merger: MeshMerger = new Merger({ cache, pubsub, logger: logger.child({ merger: mergerName }), store: store.child(mergerName) });

  return { sources, transforms, additionalTypeDefs, additionalResolvers, cache, pubsub, merger, logger, additionalEnvelopPlugins: [] };
}

/** A Mesh package's default export (a class), or an error naming the package to install. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function meshPackage(importFn: ImportFn, kind: string, name: string, module: string): Promise<new (options: any) => any> {
  let exported: { default?: unknown };
  try {
    exported = (await importFn(module)) as { default?: unknown };
  } catch (error) {
    if ((error as { code?: string }).code !== 'ERR_MODULE_NOT_FOUND') throw error;
    throw new Error(`.meshrc.yaml names the ${kind} \`${name}\`, which is the package ${module}: it is not installed`);
  }
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return ((exported.default as { default?: unknown } | undefined)?.default ?? exported.default ?? exported) as new (options: any) => any;
}

/** `filterSchema` → `filter-schema`, as Mesh names its packages. */
function kebab(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1-$2').replace(/[_\s]+/g, '-').toLowerCase();
}
