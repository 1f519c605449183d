import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Each file runs in its own process: the gateway reads upstream URLs and keys from process.env
    // at request time, so files that set different upstreams must not share one.
    pool: 'forks',
    // Building the mesh takes a few seconds on a busy 2-core machine.
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
