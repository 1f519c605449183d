/**
 * The main thread's CPU time of each step of Mesh's build (mesh.ts: the turns between which requests
 * are served), for a problems schema as large as the given bounds (types, fields and enum values:
 * test/helpers/bound-size-schema.ts). CPU time of the thread rather than the clock, so the machine's
 * load inflates it little: the longest step is the longest a request can wait on a build, quiet.
 * The same build runs `rounds` times (the first one also builds the translation source, which
 * later builds reuse), and each step's shortest time over the later rounds is printed.
 *
 *   node test/bench/mesh-build-turns.ts 2000,20000,20000 [rounds]
 */
import { buildSchema, lexicographicSortSchema, printSchema } from 'graphql';
import { buildMesh } from '../../src/gateway/mesh.ts';
import type { SourceMemo } from '../../src/gateway/mesh-turns.ts';
import { nextTurn } from '../../src/gateway/schema/next-turn.ts';
import { boundSizeTypeDefs } from '../helpers/bound-size-schema.ts';
import { threadCpuMs } from '../helpers/thread-cpu.ts';

const [maxTypes, maxFields, maxEnumValues] = (process.argv[2] ?? '2000,20000,20000').split(',').map(Number);
const rounds = Number(process.argv[3] ?? 3);
// As the gateway hands it over: printed sorted (schema/introspection.ts).
const sdl = printSchema(lexicographicSortSchema(buildSchema(boundSizeTypeDefs({ maxTypes: maxTypes!, maxFields: maxFields!, maxEnumValues: maxEnumValues! }))));
const settings = { problemsUrl: 'http://127.0.0.1:9', translationUrl: 'http://127.0.0.1:9', problemsApiKey: undefined, translationApiKey: undefined };
const sourceMemo: SourceMemo = new Map();
const shortest = new Map<string, number>();
for (let round = 0; round < rounds; round += 1) {
  let last = threadCpuMs();
  const steps: [string, number][] = [];
  const turn = async (after: string) => {
    steps.push([after, threadCpuMs() - last]);
    await nextTurn();
    last = threadCpuMs();
  };
  const { mesh } = await buildMesh({ settings, problemsSchema: sdl, log: () => undefined, sourceMemo, turn });
  steps.push(['getMesh, after the last step', threadCpuMs() - last]);
  mesh.destroy();
  if (round === 0) continue;
  for (const [step, ms] of steps) shortest.set(step, Math.min(shortest.get(step) ?? Infinity, ms));
}
console.log(`problems schema at ${maxTypes} types, ${maxFields} fields, ${maxEnumValues} enum values (${(sdl.length / 1e6).toFixed(2)} MB printed); shortest of ${rounds - 1} builds:`);
for (const [step, ms] of [...shortest].sort((a, b) => b[1] - a[1])) console.log(`  ${ms.toFixed(1).padStart(7)} ms  ${step}`);
