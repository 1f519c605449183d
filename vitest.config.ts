import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

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
    include: ['test/**/*.test.ts'],
    // Each file runs in its own process: the gateway reads upstream URLs and keys from process.env
    // at request time, so files that set different upstreams must not share one.
    pool: 'forks',
    // The leak checks in test/security compare the heap after a full collection.
    execArgv: ['--expose-gc'],
    // Building the mesh takes a few seconds on a busy 2-core machine.
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
