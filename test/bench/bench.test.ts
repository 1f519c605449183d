import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCommand } from '../helpers/run-command.ts';
import { runBench } from './bench.ts';

/** Keeps `npm run bench` working: a quick run that asserts correct answers and counts, never speed. */
describe('npm run bench', () => {
  it('runs every scenario against real processes with only correct answers, and reports every figure', async () => {
    const lines: string[] = [];
    const report = await runBench({ seconds: 0.3, connections: 4, rounds: 1, idleSeconds: 0, sustainSeconds: 1, runtime: 'sources', reportPath: false, log: (line) => lines.push(line) });
    expect(report.results.map((result) => result.name)).toEqual([
      'upstream direct: problem(id)',
      'gateway pass-through: problem(id)',
      'gateway warm page: 20 with translation',
      'gateway repeated identical query',
      'bare node:http, same bytes',
      'minimal proxy pass-through: problem(id)',
      'minimal proxy warm page: 20 with translation',
    ]);
    for (const result of report.results) {
      expect(result.requests).toBeGreaterThan(0);
      expect(result.errors).toBe(0);
      expect(result.cpuMicrosPerRequest).toBeGreaterThanOrEqual(0);
    }
    // Counts, not timings: a pass-through makes one problems call and no translation call; a warm
    // page makes no translation call; a cold page makes exactly one.
    expect(report.results[1].upstreamCallsPerRequest).toEqual({ problems: 1, translation: 0 });
    expect(report.results[2].upstreamCallsPerRequest?.translation).toBe(0);
    expect(report.coldPageTranslationCalls).toBe(1);
    expect(lines).toContain('| scenario | req/s | p50 / p99 ms | CPU µs/req | upstream calls/req |');
    expect(lines.some((line) => line.startsWith('- pass-through CPU per request: '))).toBe(true);
    expect(report.memory.sustained.samplesMiB.length).toBeGreaterThan(0);
    expect(report.memory.idleRssMiB).toBeGreaterThan(0);
    expect(lines.some((line) => line.startsWith('- gateway RSS: '))).toBe(true);
  });

  it('runs as `npm run bench` runs it, to the end of the replicas scenario, and exits 0', async () => {
    const reportPath = join(mkdtempSync(join(tmpdir(), 'bench-')), 'bench.json');
    const run = runCommand(process.execPath, ['--import', 'tsx', 'test/bench/bench.ts'], {
      BENCH_SECONDS: '0.2',
      BENCH_ROUNDS: '1',
      BENCH_CONNECTIONS: '4',
      BENCH_IDLE_SECONDS: '0',
      BENCH_SUSTAIN_SECONDS: '1',
      BENCH_RUNTIME: 'sources',
      BENCH_REPORT_PATH: reportPath,
    });
    expect(await run.exited, run.output()).toBe(0);
    expect(run.output()).toContain('| scenario | req/s | p50 / p99 ms | CPU µs/req | upstream calls/req |');
    expect(run.output()).toMatch(/round 1: one process \d+ req\/s .*; 0 wrong answers/);
    expect(run.output()).toMatch(/median: one process \d+ req\/s/);
    expect(JSON.parse(readFileSync(reportPath, 'utf8')).results).toHaveLength(7);
  }, 300_000);
});
