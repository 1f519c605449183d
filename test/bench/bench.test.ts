import { describe, expect, it } from 'vitest';
import { runBench } from './bench.ts';

/** Keeps `npm run bench` working; it asserts correct answers and counts, never timings. */
describe('npm run bench', () => {
  it('runs every scenario against real processes with only correct answers', async () => {
    const lines: string[] = [];
    const results = await runBench({ seconds: 0.3, connections: 4, reportPath: false, log: (line) => lines.push(line) });
    expect(results.map((result) => result.name)).toEqual([
      'problems service, direct',
      'gateway, problems only',
      'gateway, problems + translation (cache warm)',
    ]);
    for (const result of results) {
      expect(result.requests).toBeGreaterThan(0);
      expect(result.errors).toBe(0);
    }
    expect(results[0].ratioToDirect).toBe(1);
    expect(lines[1]).toMatch(/req\/s\s+vs direct/);
  });
});
