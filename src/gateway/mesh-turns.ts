import type { GetMeshOptions, MeshResolvedSource } from '@graphql-mesh/runtime';
import type { MeshMerger, MeshSource } from '@graphql-mesh/types';

/**
 * Lets requests in before the next step of a build (schema/next-turn.ts in a gateway); told which
 * step has just run, so that a test can see where a build yields.
 */
export type BuildTurn = (after: string) => Promise<void>;

/** A source's schema kept from one build to the next, by source name (see reusedSources). */
export type SourceMemo = Map<string, Promise<MeshSource>>;

/**
 * getMesh's options with its long synchronous run cut where Mesh itself awaits: after each source's
 * schema, after the merge, and after each root transform that rewrites the whole schema (a bare
 * `filterSchema`, `prune`), which are applied here, in the merger, each in a turn of its own,
 * instead of by getMesh in the turn of the merge. Transforms that wrap the schema stay getMesh's.
 * Sources named in `reused` are built once, at the first build, and their schema (resolvers
 * included) serves every later one: a resolver reads the fetch and logger of the request's own
 * mesh from its context, so nothing of the first build's leaks into another's requests.
 */
export function meshOptionsInTurns(options: GetMeshOptions, turn: BuildTurn, reused?: { names: ReadonlySet<string>; memo: SourceMemo }): GetMeshOptions {
  const transforms = options.transforms ?? [];
  const bare = transforms.filter((transform) => transform.noWrap && transform.transformSchema);
  const merger: MeshMerger = options.merger;
  return {
    ...options,
    sources: options.sources.map((source) => sourceInTurns(source, turn, reused?.names.has(source.name) ? reused.memo : undefined)),
    transforms: transforms.filter((transform) => !bare.includes(transform)),
    merger: {
      name: merger.name,
      async getUnifiedSchema(context) {
        const unified = await merger.getUnifiedSchema(context);
        await turn(`merge (${merger.name})`);
        for (const transform of bare) {
          unified.schema = transform.transformSchema!(unified.schema, unified);
          await turn(`transform ${transform.constructor.name}`);
        }
        return unified;
      },
    },
  };
}

/** The source with its handler's schema awaited in a turn of its own (and kept in `memo` when given). */
function sourceInTurns(source: MeshResolvedSource, turn: BuildTurn, memo: SourceMemo | undefined): MeshResolvedSource {
  const { handler } = source;
  const build = handler.getMeshSource.bind(handler);
  // The handler is this build's own (meshOptionsFromConfig makes one per build): changed in place,
  // since getMesh keeps it beside the source's schema.
  handler.getMeshSource = async (payload) => {
    let meshSource: MeshSource;
    if (memo) {
      let kept = memo.get(source.name);
      if (!kept) {
        kept = build(payload);
        memo.set(source.name, kept);
        // A build that failed is tried again by the next one, not kept.
        kept.catch(() => memo.delete(source.name));
      }
      meshSource = await kept;
    } else meshSource = await build(payload);
    await turn(`source ${source.name}`);
    return meshSource;
  };
  return source;
}

