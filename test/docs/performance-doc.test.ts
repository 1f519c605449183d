import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { formatReport, withLatestResults, RESULTS_END, RESULTS_START, SCENARIO_NAMES } from '../bench/bench.ts';
import { ROOT } from './snippets.ts';

/** `npm run bench` replaces docs/performance.md's one results block, and nothing else of it. */
describe('docs/performance.md', () => {
  const doc = readFileSync(`${ROOT}docs/performance.md`, 'utf8');

  it('holds one results block, in the form npm run bench writes it', () => {
    expect(doc.split(RESULTS_START)).toHaveLength(2);
    expect(doc.split(RESULTS_END)).toHaveLength(2);
    const block = doc.slice(doc.indexOf(RESULTS_START), doc.indexOf(RESULTS_END));
    expect(block).toContain('| scenario | req/s | p50 / p99 ms | CPU µs/req | KiB allocated/req | load average | upstream calls/req |');
    // One row per scenario in each pass the run made (quiet, and loaded when asked for).
    const rows = block.match(/^\| (?!scenario|---)/gm)?.length ?? 0;
    expect([SCENARIO_NAMES.length, 2 * SCENARIO_NAMES.length]).toContain(rows);
    expect(block).toMatch(/^- quiet, load average [\d.]+: pass-through CPU\/req [\d.]+× the minimal proxy's/m);
  });

  it("is rewritten by the bench's report between the markers only", () => {
    const result = { name: 'gateway pass-through: problem(id)', requestsPerSecond: 1234, p50Ms: 1, p99Ms: 2, cpuMicrosPerRequest: 99, allocatedBytesPerRequest: 2048, loadAverage: 0.5, errors: 0 };
    const ratios = { passThroughCpuVsProxy: 1, warmPageCpuVsProxyPage: 1, cacheHitReqPerSecVsBare: 1, passThroughCpuVsUpstream: 1 };
    const report = {
      date: '2030-01-01', machine: 'test machine', node: 'v24', connections: 1, seconds: 1, rounds: 1, warmRequests: 1, gatewayRuntime: 'compiled',
      quiet: { busyProcesses: 0, loadAverage: 0.5, results: [result], ratios },
      steadyMix: { gateway: { ...result, cpuMicrosPerRequest: 300 }, proxy: { ...result, cpuMicrosPerRequest: 150 }, cpuVsProxy: 2, slicedCpuVsProxy: 2.5 },
      coldPageTranslationCalls: 1, addedLatencyP50Ms: 0.5,
      memory: { startedRssMiB: 1, idleRssMiB: 1, sustained: { seconds: 1, samplesMiB: [1], firstQuarterMiB: 1, lastQuarterMiB: 1, peakMiB: 1 }, afterLoadIdleRssMiB: 1 },
    } as unknown as Parameters<typeof formatReport>[0];
    const rewritten = withLatestResults(doc, report);
    expect(rewritten).toContain('| gateway pass-through: problem(id) | 1,234 | 1.0 / 2.0 | 99 | 2.0 | 0.5 | – |');
    expect(rewritten).toContain('gateway 300 µs/req, proxy 150: 2.00× (the same requests in the quiet pass\'s slices: 2.50×)');
    // The block it held before is gone whole.
    expect(rewritten).not.toContain(doc.slice(doc.indexOf(RESULTS_START), doc.indexOf(RESULTS_END)));
    expect(rewritten.slice(0, rewritten.indexOf(RESULTS_START))).toBe(doc.slice(0, doc.indexOf(RESULTS_START)));
    expect(rewritten.slice(rewritten.indexOf(RESULTS_END))).toBe(doc.slice(doc.indexOf(RESULTS_END)));
  });
});
