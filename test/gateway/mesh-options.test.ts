import { InMemoryStoreStorageAdapter, MeshStore } from '@graphql-mesh/store';
import type { YamlConfig } from '@graphql-mesh/types';
import { describe, expect, it } from 'vitest';
import { meshOptionsFromConfig, type MeshOptionsContext } from '../../src/gateway/mesh-options.ts';
import { createMeshLogger } from '../../src/gateway/observability/mesh-logger.ts';
import { PROJECT_ROOT } from '../../src/gateway/project-root.ts';

const context: MeshOptionsContext = {
  dir: PROJECT_ROOT,
  logger: createMeshLogger(() => undefined),
  store: new MeshStore('.mesh', new InMemoryStoreStorageAdapter(), { readonly: false, validate: false }),
  importFn: (id: string) => import(id),
  additionalTypeDefs: [],
};

/** `.meshrc.yaml` read without `@graphql-mesh/config`: what it cannot honour is said at start, never dropped. */
describe('the mesh options made from .meshrc.yaml', () => {
  it('refuses a key it does not read, naming it', async () => {
    const config = { sources: [], cache: { localforage: {} }, customFetch: './fetch.ts' } as unknown as YamlConfig.Config;
    await expect(meshOptionsFromConfig(config, context)).rejects.toThrow('.meshrc.yaml: the gateway builds its mesh without `cache`, `customFetch`; take it out');
  });

  it('refuses plugins left in the config', async () => {
    const config = { sources: [], plugins: [{ maskedErrors: {} }] } as unknown as YamlConfig.Config;
    await expect(meshOptionsFromConfig(config, context)).rejects.toThrow('without `plugins`');
  });

  it('names the package a handler or transform would be when it is not installed', async () => {
    const handler = { sources: [{ name: 'Books', handler: { soap: {} } }] } as unknown as YamlConfig.Config;
    await expect(meshOptionsFromConfig(handler, context)).rejects.toThrow('.meshrc.yaml names the handler `soap`, which is the package @graphql-mesh/soap: it is not installed');
    const transform = { sources: [], transforms: [{ namingConvention: {} }] } as unknown as YamlConfig.Config;
    await expect(meshOptionsFromConfig(transform, context)).rejects.toThrow('the transform `namingConvention`, which is the package @graphql-mesh/transform-naming-convention');
  });

  it("makes each source's handler and transforms, the root transforms and the stitching merger from the packages named", async () => {
    const config = {
      sources: [{ name: 'Problems', handler: { graphql: { endpoint: 'http://127.0.0.1:9/graphql' } }, transforms: [{ prefix: { value: 'P_' } }] }],
      transforms: [{ filterSchema: { filters: ['Query.!x'] } }, { prune: {} }],
    } as unknown as YamlConfig.Config;
    const options = await meshOptionsFromConfig(config, context);
    expect(options.sources.map(({ name, handler, transforms }) => [name, handler.constructor.name, transforms?.length])).toEqual([['Problems', 'GraphQLHandler', 1]]);
    expect(typeof options.sources[0]!.transforms![0]!.transformSchema).toBe('function');
    expect(options.transforms?.map((each) => typeof each.transformSchema)).toEqual(['function', 'function']);
    expect(options.transforms?.[1]?.constructor.name).toBe('PruneTransform');
    expect(options.merger.name).toBe('stitching');
  });
});
