import { getHeapStatistics } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { releaseStartUpMemory } from '../../src/cli/release-start-up-memory.ts';
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
});
