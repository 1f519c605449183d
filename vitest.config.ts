import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const TIMING_SENSITIVE = [
  // No wall-clock assertion, but a 64 KB statement must finish within the gateway's own 10 s limit
  // on its thread, which a loaded machine with another file beside it can exceed.
  'test/gateway/statement-limits-full-stack.test.ts',
  // No wall-clock assertion, but the rate limit's store gets 200 ms from the gateway (REDIS_TIMEOUT_MS
  // at most 150): a Redis answering later is a fallback to the replica's counters, another count.
  'test/redis/faults.test.ts',
  // Compares a reader's latency beside prewarming with a gateway without it (a ratio of medians), and
  // relies on readers' real gaps being shorter than prewarming's quiet moment: the only prewarming
  // file left on the system's clock for its pauses.
  'test/gateway/prewarm-readers-first.test.ts',
  // Compares this thread's CPU while a 64 KB statement is worked on by the statement thread with the
  // same work done here: another file beside it on a busy machine adds to the first (the cores it
  // waits for), so it runs alone.
  'test/gateway/statement-cache.test.ts',
  // No wall-clock assertion, but each client's admissions are counted in Redis only while Redis answers
  // within REDIS_TIMEOUT_MS (at most 150 ms by design); past it the rate limit counts in process, a
  // different count, which a Redis starved by other files beside it reaches.
  'test/redis/memory-pressure.test.ts',
];

// The process tier: tests that start processes (npm start, the compiled entry, the packed package,
// README servers, the bench, Chromium, the CLIs). A process start takes seconds on a quiet 2-core
// machine and a minute on a loaded one, where each waits for a core: these get longer timeouts than
// the in-process tier, whose tests wait on nothing but the worker they run in.
const PROCESS_TIER = [
  'test/operations/shutdown.test.ts',
  'test/operations/hang-up.test.ts',
  'test/operations/start-up-checks.test.ts',
  'test/operations/mesh-cli.test.ts',
  'test/gateway/npm-start.test.ts',
  'test/gateway/live-schema-compiled.test.ts',
  'test/gateway/refresh-sources.test.ts',
  'test/gateway/schema-print.test.ts',
  'test/examples/compiled-package.test.ts',
  'test/examples/strict-types.test.ts',
  'test/bench/bench.test.ts',
  // Chromium: GraphiQL offline, and the recipes (the README's server snippets) opened at their mounts.
  'test/browser/**/*.test.ts',
];

export default defineConfig({
  resolve: {
    // graphql 16 ships CommonJS (`main`) and ESM (`module`) copies with no `exports` map: Node (and so
    // Mesh) loads the CommonJS one, Vite would pick the ESM one, and two copies of graphql cannot
    // share a schema. Pin every import to the copy Node uses.
    alias: [
      { find: /^graphql$/, replacement: createRequire(import.meta.url).resolve('graphql') },
      // The examples import the project by its package name, as an embedding app would.
      { find: /^problems-translation-gateway$/, replacement: fileURLToPath(new URL('./src/index.ts', import.meta.url)) },
      { find: /^problems-translation-gateway\/sdk$/, replacement: fileURLToPath(new URL('./src/sdk/index.ts', import.meta.url)) },
    ],
  },
  test: {
    // Worker threads: every gateway carries its own settings, so test files need no process of their own.
    pool: 'threads',
    // One module graph per worker, not per file: each file would otherwise import Mesh, yoga and
    // graphql-js again and build its first mesh cold, which costs more than most files' tests (a
    // gateway built in a warm worker costs a tenth of the first). Test files therefore leave nothing
    // behind: servers closed, timers and spies restored, environment put back.
    isolate: false,
    // Two files at a time, even on 2 cores (vitest would run one): many files mostly wait, on the
    // processes they start (npm start, npm pack, the README snippets, the bench, a browser) or on
    // timers, and the other file uses the core meanwhile.
    maxWorkers: 2,
    // Building the mesh takes a few seconds on a busy 2-core machine (the process tier has its own).
    testTimeout: 60_000,
    hookTimeout: 120_000,
    projects: [
      { extends: true, test: { name: 'all', include: ['test/**/*.test.ts'], exclude: [...TIMING_SENSITIVE, ...PROCESS_TIER] } },
      { extends: true, test: { name: 'process', include: [...PROCESS_TIER], testTimeout: 180_000, hookTimeout: 300_000 } },
      {
        // Files that bound a latency or compare timings (the event loop kept free while a statement
        // is worked on, linear growth, answers within a budget while Redis fails): run after the
        // others, one at a time, so that no other test file competes for the cores they measure on.
        extends: true,
        // Each in a fresh worker: what they measure on their thread must not include the collection of
        // the heap other files' gateways left in a shared one (isolate: false everywhere else).
        test: { name: 'timing', include: [...TIMING_SENSITIVE], maxWorkers: 1, isolate: true, sequence: { groupOrder: 1 } },
      },
      {
        // Mesh reads NODE_ENV itself (the gateway reads only its settings) and handles errors
        // differently in production: the suites comparing the gateway's paths on errors (upstream
        // faults, variables that do not coerce, limits, errors masked) run there once more. The
        // random operations are not repeated there: their errors are refusals (validation, parse,
        // limits) that yoga words before Mesh runs, the same in either NODE_ENV.
        extends: true,
        test: {
          name: 'NODE_ENV=production',
          include: ['test/gateway/single-source-fast-path.test.ts', 'test/gateway/direct-lane.test.ts', 'test/gateway/upstream-faults.test.ts'],
          env: { NODE_ENV: 'production' },
        },
      },
    ],
  },
});
