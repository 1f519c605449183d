import { getHeapStatistics } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { releaseStartUpMemory } from '../../src/cli/release-start-up-memory.ts';

// What the CLI does with it once it listens (one requested collection, RELEASE_AFTER_MS later, no
// gc() left behind) is checked on npm start's own process: test/gateway/npm-start.test.ts.
describe('releasing start-up memory', () => {
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
});
