import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { isObjectType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { buildMesh, type BuildMeshOptions } from '../../src/gateway/mesh.ts';
import type { SourceMemo } from '../../src/gateway/mesh-turns.ts';

const SNAPSHOT = readFileSync(fileURLToPath(new URL('../../sources/problems/schema.graphql', import.meta.url)), 'utf8');
// Nothing is called: building a mesh reads files only.
const settings = { problemsUrl: 'http://127.0.0.1:9', translationUrl: 'http://127.0.0.1:9', problemsApiKey: undefined, translationApiKey: undefined };

/** Builds a mesh over the snapshot, recording where the build lets requests in (and in which order). */
async function recordedBuild(options: Partial<BuildMeshOptions> = {}) {
  const turns: string[] = [];
  const built = await buildMesh({
    settings,
    problemsSchema: SNAPSHOT,
    log: () => undefined,
    turn: async (after) => {
      turns.push(after);
      await new Promise((resolve) => setImmediate(resolve));
    },
    ...options,
  });
  return { built, turns };
}

/**
 * A build is cut into turns of the event loop (mesh-turns.ts): requests are served between the steps
 * that each walk or rewrite the whole schema. The steps are counted with the turn seam, never timed.
 */
describe("Mesh's build, in turns", () => {
  it('yields after each step over the whole schema: the problems schema, each source, the merge and each root transform', async () => {
    const { built, turns } = await recordedBuild();
    try {
      // Sources resolve side by side, so only their place before the merge is fixed.
      const sources = turns.filter((turn) => turn.startsWith('source ')).sort();
      expect(sources).toEqual(['source Problems', 'source Translation']);
      expect(turns.filter((turn) => !turn.startsWith('source '))).toEqual([
        'problems schema parsed',
        'problems schema',
        "the gateway's names",
        'options',
        'read',
        'merge (stitching)',
        'transform BareFilter',
        'transform PruneTransform',
      ]);
      expect(turns.indexOf('merge (stitching)')).toBeGreaterThan(Math.max(...sources.map((source) => turns.indexOf(source))));
    } finally {
      built.mesh.destroy();
    }
  });

  it("still applies the root transforms taken out of getMesh's turn: the translation service's root fields filtered out, its types pruned", async () => {
    const { built } = await recordedBuild();
    try {
      const { schema } = built.mesh;
      expect(Object.keys(schema.getQueryType()!.getFields()).filter((name) => name.startsWith('TranslationApi_'))).toEqual([]);
      // Reached only from those fields: gone with them.
      const translationTypes = Object.values(schema.getTypeMap()).filter((type) => isObjectType(type) && type.name.startsWith('TranslationApi_'));
      expect(translationTypes.map((type) => type.name)).toEqual([]);
      // The problems service's own are all there, and the gateway's link on them.
      expect(Object.keys(schema.getQueryType()!.getFields())).toEqual(expect.arrayContaining(['problem', 'problems', 'translation']));
      expect(Object.keys((schema.getType('Problem') as { getFields(): object }).getFields())).toContain('translation');
    } finally {
      built.mesh.destroy();
    }
  });

  it('builds the translation source once for builds that share a memo, and again for each build without one', async () => {
    const translationSchemaOf = (built: Awaited<ReturnType<typeof buildMesh>>) => built.mesh.rawSources.find((source) => source.name === 'Translation')!.schema;
    const sourceMemo: SourceMemo = new Map();
    const first = await recordedBuild({ sourceMemo });
    const second = await recordedBuild({ sourceMemo });
    const alone = await recordedBuild();
    try {
      expect(translationSchemaOf(second.built)).toBe(translationSchemaOf(first.built));
      expect(translationSchemaOf(alone.built)).not.toBe(translationSchemaOf(first.built));
      // The Problems source, which changes, is never kept.
      expect(second.built.problemsSchema).not.toBe(first.built.problemsSchema);
      expect([...sourceMemo.keys()]).toEqual(['Translation']);
    } finally {
      for (const { built } of [first, second, alone]) built.mesh.destroy();
    }
  });
});
