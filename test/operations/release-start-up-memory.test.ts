import { getHeapStatistics } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { releaseStartUpMemory } from '../../src/cli/release-start-up-memory.ts';

describe('releasing start-up memory (the CLI, once started)', () => {
  it('collects the garbage left behind, with no --expose-gc flag', () => {
    expect((globalThis as { gc?: unknown }).gc).toBeUndefined();
    // Start-up's leftovers, in miniature: 40 MiB of objects nothing refers to any more.
    let leftovers: unknown[] | undefined = Array.from({ length: 400_000 }, (_, index) => ({ index, text: `text ${index}`.repeat(8) }));
    const before = getHeapStatistics().used_heap_size;
    leftovers = undefined;
    releaseStartUpMemory();
    const after = getHeapStatistics().used_heap_size;
    expect(leftovers).toBeUndefined();
    expect(before - after).toBeGreaterThan(30 * 1024 * 1024);
  });

  it('leaves no gc() to contexts made afterwards', () => {
    releaseStartUpMemory();
    expect(runInNewContext('typeof gc')).toBe('undefined');
    expect((globalThis as { gc?: unknown }).gc).toBeUndefined();
  });
});
