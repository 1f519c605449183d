import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCommand, type RunningCommand } from '../helpers/run-command.ts';
import { SCENARIO_NAMES, type BenchReport } from './bench.ts';

/**
 * Keeps `npm run bench` working: a quick run that asserts correct answers and counts, never speed.
 * One run of the entry as `npm run bench` runs it serves both tests (each bench starts a dozen
 * processes): its JSON report and its output carry every figure the first test reads. Its time is
 * those processes' start-ups; the scenarios themselves run a fraction of a second each.
 */
/** A dozen process starts: minutes on a loaded 2-core machine, where each waits for a core. */
const PROCESS_RUN_MS = 900_000;

describe('npm run bench', () => {
  let bench: Promise<{ run: RunningCommand; exitCode: number | null; report: () => BenchReport }> | undefined;
  const runBenchOnce = () =>
    (bench ??= (async () => {
      const reportPath = join(mkdtempSync(join(tmpdir(), 'bench-')), 'bench.json');
      const run = runCommand(process.execPath, ['--import', 'tsx', 'test/bench/bench.ts'], {
        BENCH_SECONDS: '0.3',
        BENCH_ROUNDS: '1',
        BENCH_CONNECTIONS: '4',
        BENCH_WARM_REQUESTS: '40',
        // The loaded pass, with one busy process: its table and its ratios over the quiet ones.
        BENCH_BUSY_PROCESSES: '1',
        BENCH_REFUSED: 'false',
        BENCH_IDLE_SECONDS: '0',
        BENCH_SUSTAIN_SECONDS: '1',
        BENCH_RUNTIME: 'sources',
        BENCH_REPORT_PATH: reportPath,
      });
      const exitCode = await run.exited;
      const report = () => {
        try {
          return JSON.parse(readFileSync(reportPath, 'utf8')) as BenchReport;
        } catch (error) {
          throw new Error(`no bench report (exit code ${exitCode}); output:\n${run.output()}`, { cause: error });
        }
      };
      return { run, exitCode, report };
    })());

  it('runs every scenario against real processes with only correct answers, quiet and loaded, and reports every figure', async () => {
    const { run, report: readReport } = await runBenchOnce();
    const report = readReport();
    const lines = run.output().split('\n');
    for (const pass of [report.quiet, report.loaded!]) {
      expect(pass.results.map((result) => result.name)).toEqual(SCENARIO_NAMES);
      for (const result of pass.results) {
        expect(result.requests).toBeGreaterThan(0);
        expect(result.errors).toBe(0);
        expect(result.cpuMicrosPerRequest).toBeGreaterThan(0);
        // Every process answers the allocation probe: a number, never NaN (no answer).
        expect(result.allocatedBytesPerRequest).toBeGreaterThan(0);
        expect(result.loadAverage).toBeGreaterThanOrEqual(0);
      }
      // Counts, not timings: a pass-through makes one problems call and no translation call; a warm
      // page makes no translation call; a cache hit makes none.
      expect(pass.results[1].upstreamCallsPerRequest).toEqual({ problems: 1, translation: 0 });
      expect(pass.results[3].upstreamCallsPerRequest?.translation).toBe(0);
      expect(pass.results[5].upstreamCallsPerRequest).toEqual({ problems: 0, translation: 0 });
    }
    expect(report.loaded!.busyProcesses).toBe(1);
    expect(Object.keys(report.loaded!.overQuiet).sort()).toEqual(Object.keys(report.quiet.ratios).sort());
    for (const value of Object.values(report.loaded!.overQuiet)) expect(value).toBeGreaterThan(0);
    expect(report.coldPageTranslationCalls).toBe(1);
    expect(lines).toContain('| scenario | req/s | p50 / p99 ms | CPU µs/req | KiB allocated/req | load average | upstream calls/req |');
    expect(lines.some((line) => line.startsWith('- quiet, load average '))).toBe(true);
    expect(lines.some((line) => line.startsWith('- loaded (1 busy process(es)), load average '))).toBe(true);
    expect(lines.some((line) => line.startsWith('- loaded over quiet '))).toBe(true);
    // Resident memory read from the live process (an unreadable one would be 0).
    expect(report.memory.sustained.samplesMiB.length).toBeGreaterThan(0);
    for (const sample of report.memory.sustained.samplesMiB) expect(sample).toBeGreaterThan(0);
    expect(report.memory.idleRssMiB).toBeGreaterThan(0);
    expect(lines.some((line) => line.startsWith('- gateway RSS: '))).toBe(true);
  }, PROCESS_RUN_MS);

  it('runs as `npm run bench` runs it, to the end of the replicas scenario, and exits 0', async () => {
    const { run, exitCode, report } = await runBenchOnce();
    expect(exitCode, run.output()).toBe(0);
    expect(run.output()).toContain('| scenario | req/s | p50 / p99 ms | CPU µs/req | KiB allocated/req | load average | upstream calls/req |');
    expect(run.output()).toMatch(/round 1: one process \d+ req\/s .*; 0 wrong answers/);
    expect(run.output()).toMatch(/median: one process \d+ req\/s/);
    expect(report().quiet.results).toHaveLength(SCENARIO_NAMES.length);
  }, PROCESS_RUN_MS);
});
