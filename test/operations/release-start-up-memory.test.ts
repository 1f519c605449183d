import { getHeapStatistics } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { RELEASE_AFTER_MS, releaseStartUpMemory } from '../../src/cli/release-start-up-memory.ts';
import { runEntry } from '../helpers/run-command.ts';

describe('releasing start-up memory (the CLI, once started)', () => {
  it('collects the garbage left behind', () => {
    // Start-up's leftovers, in miniature: 40 MiB of objects nothing refers to any more.
    let leftovers: unknown[] | undefined = Array.from({ length: 400_000 }, (_, index) => ({ index, text: `text ${index}`.repeat(8) }));
    const before = getHeapStatistics().used_heap_size;
    leftovers = undefined;
    releaseStartUpMemory();
    const after = getHeapStatistics().used_heap_size;
    expect(leftovers).toBeUndefined();
    expect(before - after).toBeGreaterThan(30 * 1024 * 1024);
  });

  it('is what the CLI does once it listens: one requested full collection, RELEASE_AFTER_MS later, needing no --expose-gc and leaving no gc() behind', async () => {
    // V8's GC trace names a collection asked for by gc() "testing"; none of V8's own is. The timer's
    // clock is injected (held-release-timer.mjs): it says its delay, and runs on SIGUSR2.
    const heldTimer = new URL('./held-release-timer.mjs', import.meta.url).pathname;
    const run = runEntry('src/cli/start.ts', { PORT: '0' }, ['--trace-gc', '--import', heldTimer]);
    try {
      await run.waitFor(/listening: http:\/\/localhost:\d+\/graphql/);
      const [, delay] = await run.waitFor(/timer: releaseStartUpMemory in (\d+) ms/);
      expect(Number(delay)).toBe(RELEASE_AFTER_MS);
      expect(run.output()).not.toMatch(/testing; GC in old space requested/);
      run.child.kill('SIGUSR2');
      await run.waitFor(/testing; GC in old space requested/);
      const [, globals] = await run.waitFor(/released: (.*)/);
      expect(JSON.parse(globals!)).toEqual({ before: 'undefined', after: 'undefined', inNewContext: 'undefined' });
    } finally {
      run.child.kill('SIGKILL');
    }
  });
});
