import { getHeapStatistics } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { RELEASE_AFTER_MS, releaseStartUpMemory } from '../../src/cli/release-start-up-memory.ts';
import { runCommand } from '../helpers/run-command.ts';

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

  it('needs no --expose-gc, and leaves no gc() behind, in a process started as the CLI is', async () => {
    const script = [
      "const { releaseStartUpMemory } = await import('./src/cli/release-start-up-memory.ts');",
      "const { runInNewContext } = await import('node:vm');",
      'const before = typeof globalThis.gc;',
      'releaseStartUpMemory();',
      "console.log(JSON.stringify({ before, after: typeof globalThis.gc, inNewContext: runInNewContext('typeof gc') }));",
    ].join('\n');
    const run = runCommand(process.execPath, ['--import', 'tsx', '--input-type=module', '--eval', script], {});
    expect(await run.exited).toBe(0);
    expect(JSON.parse(run.output().trim().split('\n').at(-1)!)).toEqual({ before: 'undefined', after: 'undefined', inNewContext: 'undefined' });
  });

  it('is what the CLI does once it listens: one requested full collection, RELEASE_AFTER_MS later', async () => {
    // V8's GC trace names a collection asked for by gc() "testing"; none of V8's own is. The timer's
    // clock is injected (held-release-timer.mjs): it says its delay, and runs on SIGUSR2.
    const heldTimer = new URL('./held-release-timer.mjs', import.meta.url).pathname;
    const run = runCommand(process.execPath, ['--trace-gc', '--import', heldTimer, '--import', 'tsx', 'src/cli/start.ts'], { PORT: '0' });
    try {
      await run.waitFor(/listening: http:\/\/localhost:\d+\/graphql/);
      const [, delay] = await run.waitFor(/timer: releaseStartUpMemory in (\d+) ms/);
      expect(Number(delay)).toBe(RELEASE_AFTER_MS);
      expect(run.output()).not.toMatch(/testing; GC in old space requested/);
      run.child.kill('SIGUSR2');
      await run.waitFor(/testing; GC in old space requested/);
    } finally {
      run.child.kill('SIGKILL');
    }
  });
});
