import { Counter, Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { SeriesCounter, SeriesHistogram } from '../../src/gateway/observability/series-metrics.ts';

const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const LABELS = ['method', 'status', 'address'] as const;

/** A deterministic generator (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The same metrics twice: prom-client's own in one registry, the series metrics in another. */
function pair(openMetrics = false) {
  const theirs = new Registry();
  const ours = new Registry();
  // Registry's type fixes its content type to the default; OpenMetrics works at run time all the same.
  if (openMetrics) for (const registry of [theirs, ours]) (registry as unknown as { setContentType(type: string): void }).setContentType(Registry.OPENMETRICS_CONTENT_TYPE);
  const help = 'A help text with a backslash \\ and a newline\nin it.';
  return {
    theirs,
    ours,
    histograms: [
      new Histogram({ name: 'test_duration_seconds', help, labelNames: LABELS, buckets: BUCKETS, registers: [theirs] }),
      new SeriesHistogram({ name: 'test_duration_seconds', help, labelNames: LABELS, buckets: BUCKETS, registry: ours }),
    ] as const,
    counters: [
      new Counter({ name: 'test_calls_total', help, labelNames: ['service', 'status'] as const, registers: [theirs] }),
      new SeriesCounter({ name: 'test_calls_total', help, labelNames: ['service', 'status'] as const, registry: ours }),
    ] as const,
  };
}

/** Children of the series metrics, asked for by their label values at every observation, as callers do. */
function keptChildren(metrics: ReturnType<typeof pair>) {
  return {
    histogram: (values: string[]) => metrics.histograms[1].child(values),
    counter: (values: string[]) => metrics.counters[1].child(values),
  };
}

function observeBoth(metrics: ReturnType<typeof pair>, seed: number, count: number, children?: ReturnType<typeof keptChildren>): void {
  const next = random(seed);
  const pick = <T>(values: readonly T[]) => values[Math.floor(next() * values.length)];
  const [theirHistogram, ourHistogram] = metrics.histograms;
  const [theirCounter, ourCounter] = metrics.counters;
  for (let index = 0; index < count; index += 1) {
    const values = [pick(['GET', 'POST']), pick(['200', '404', '', '503']), pick(['a.example', '', 'quote"back\\slash\nnew line'])];
    // Exactly on a bound, between bounds, zero, past the last bound.
    const value = pick([0, 0.005, 0.0051, 0.3, 1, 29.9, 30, 31, 1e6, next() * 2]);
    theirHistogram.observe({ method: values[0], status: values[1], address: values[2] }, value);
    if (children) children.histogram(values).observe(value);
    else ourHistogram.observe(values, value);
    const by = pick([1, 1, 2, 0.5]);
    const service = pick(['problems', 'translation']);
    const status = pick(['200', 'timeout', 'network']);
    theirCounter.inc({ service, status }, by);
    if (children) children.counter([service, status]).inc(by);
    else ourCounter.inc([service, status], by);
  }
}

describe('series metrics', () => {
  it('export exactly what prom-client exports for the same observations, line for line, in both text formats', async () => {
    for (const openMetrics of [false, true]) {
      for (const seed of [1, 2, 3]) {
        const metrics = pair(openMetrics);
        observeBoth(metrics, seed, 500);
        const text = await metrics.ours.metrics();
        expect(text).toBe(await metrics.theirs.metrics());
        expect(text).toContain('test_duration_seconds_bucket{le="+Inf",method=');
      }
    }
  });

  it('give the same JSON as prom-client (get), and start again empty after a reset', async () => {
    const metrics = pair();
    observeBoth(metrics, 7, 200);
    // prom-client writes exemplar fields (null or undefined) that say nothing without exemplars.
    const withoutExemplars = (json: unknown) => JSON.parse(JSON.stringify(json, (key, value) => (key === 'exemplar' ? undefined : value)));
    expect(withoutExemplars(await metrics.ours.getMetricsAsJSON())).toEqual(withoutExemplars(await metrics.theirs.getMetricsAsJSON()));
    metrics.ours.resetMetrics();
    metrics.theirs.resetMetrics();
    expect(await metrics.ours.metrics()).toBe(await metrics.theirs.metrics());
    observeBoth(metrics, 8, 50);
    expect(await metrics.ours.metrics()).toBe(await metrics.theirs.metrics());
  });

  it('observed through children asked for by their labels, export what prom-client exports, before and after a reset', async () => {
    const metrics = pair();
    const children = keptChildren(metrics);
    // One child per series, whoever asks and when: a caller keeps no map of its own.
    const kept = metrics.counters[1].child(['problems', '200']);
    expect(metrics.counters[1].child(['problems', '200'])).toBe(kept);
    expect(metrics.counters[1].child(['problems', '500'])).not.toBe(kept);
    expect(metrics.histograms[1].child(['GET', '200', 'x'])).toBe(metrics.histograms[1].child(['GET', '200', 'x']));
    // A child made and never used exports nothing, as a prom-client label set never observed.
    metrics.counters[1].child(['unused', 'never']);
    metrics.histograms[1].child(['HEAD', '', '']);
    observeBoth(metrics, 11, 300, children);
    expect(await metrics.ours.metrics()).toBe(await metrics.theirs.metrics());
    metrics.ours.resetMetrics();
    metrics.theirs.resetMetrics();
    // The children made before the reset count again, from zero, and are the ones handed out after it.
    expect(metrics.counters[1].child(['problems', '200'])).toBe(kept);
    observeBoth(metrics, 12, 100, children);
    expect(await metrics.ours.metrics()).toBe(await metrics.theirs.metrics());
  });

  it('drop a value that is not a finite number, where prom-client would throw', async () => {
    const registry = new Registry();
    const histogram = new SeriesHistogram({ name: 'h', help: 'h', labelNames: ['a'], buckets: [1], registry });
    histogram.observe(['x'], Number.NaN);
    histogram.observe(['x'], Number.POSITIVE_INFINITY);
    histogram.observe(['x'], 0.5);
    expect(await registry.metrics()).toContain('h_count{a="x"} 1');
  });

  it('refuse a second metric of the same name in one registry, as prom-client does', () => {
    const registry = new Registry();
    new SeriesCounter({ name: 'same', help: 'h', labelNames: ['a'], registry });
    expect(() => new Counter({ name: 'same', help: 'h', registers: [registry] })).toThrow(/already been registered/);
  });
});
