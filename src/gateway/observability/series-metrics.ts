import type { Registry } from 'prom-client';

/** The buckets of every duration histogram, in seconds: from a cache hit to an upstream call's time budget. */
export const SECONDS_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** One series: its labels (one object, reused by every export) and what was recorded under them. */
export interface Series {
  labels: Record<string, string>;
  /** Histogram: observations per bucket, not cumulative; the last counts those above every bound. */
  buckets: number[];
  /** Histogram: sum of the observations. Counter: its value. */
  sum: number;
  count: number;
}

/** What prom-client's Registry reads of a metric for the text format (the shape of its own metrics' values). */
interface ExportedValue {
  value: number;
  labels: Record<string, string | number>;
  sharedLabels?: Record<string, string>;
  metricName?: string;
}

/** A metric as the Registry reads it. */
interface ExportedMetric {
  name: string;
  help: string;
  type: string;
  aggregator: string;
  values: ExportedValue[];
}

interface MetricOptions<Name extends string> {
  name: string;
  help: string;
  labelNames: readonly Name[];
  registry: Registry;
}

/**
 * A Prometheus metric with labels, for the observations made on every request (the request's
 * duration, each upstream call). prom-client's own metrics build a key string from the labels object
 * and check every label on each observation; here a series is found by its label values, given in
 * `labelNames`' order, through one Map per label, which costs a small fraction of that. It registers in a
 * prom-client Registry as prom-client's metrics do, and exports exactly what a prom-client metric of
 * the same name, labels and observations would: the same lines in the same order (checked against
 * prom-client in test/observability/series-metrics.test.ts).
 */
abstract class SeriesMetric<Name extends string> {
  readonly name: string;
  readonly help: string;
  readonly labelNames: readonly Name[];
  abstract readonly type: 'counter' | 'histogram';
  readonly aggregator = 'sum';
  private root = new Map<string, unknown>();
  /** The children handed out (child()), by their label values as the series are: one per series, kept across reset(). */
  private readonly children = new Map<string, unknown>();
  /** Every series, in the order first seen (prom-client exports in that order too). */
  protected all: Series[] = [];
  /** Bumped by reset(): a child made before it finds its series again. */
  protected generation = 0;

  constructor({ name, help, labelNames, registry }: MetricOptions<Name>) {
    this.name = name;
    this.help = help;
    this.labelNames = labelNames;
    registry.registerMetric(this as unknown as Parameters<Registry['registerMetric']>[0]);
  }

  /** The series of these label values (one per label name, in order), made the first time. */
  protected seriesOf(values: readonly string[]): Series {
    const level = leafLevel(this.root, values);
    const last = values[values.length - 1];
    let series = level.get(last) as Series | undefined;
    if (!series) {
      const labels: Record<string, string> = {};
      this.labelNames.forEach((name, index) => (labels[name] = values[index]));
      series = { labels, buckets: this.emptyBuckets(), sum: 0, count: 0 };
      level.set(last, series);
      this.all.push(series);
    }
    return series;
  }

  protected emptyBuckets(): number[] {
    return [];
  }

  /** Forgets every series (prom-client's `Registry.resetMetrics` calls this). */
  reset(): void {
    this.root = new Map();
    this.all = [];
    this.generation += 1;
  }

  /**
   * The child of these label values, made the first time (by `make`, given its series' getter) and
   * the same one after: callers ask for it by its labels and keep nothing of their own.
   */
  protected keptChild<Child>(values: readonly string[], make: (series: () => Series) => Child): Child {
    const level = leafLevel(this.children, values);
    const last = values[values.length - 1];
    let child = level.get(last) as Child | undefined;
    if (child === undefined) level.set(last, (child = make(this.seriesGetter(values))));
    return child;
  }

  /**
   * The series of these label values as a getter a child keeps: found at its first observation (a
   * series is exported only once observed, as prom-client's), and again only after a reset(), so
   * an observation through it does no lookup by labels.
   */
  private seriesGetter(values: readonly string[]): () => Series {
    const kept = [...values];
    let generation = Number.NaN;
    let series: Series | undefined;
    return () => {
      if (generation !== this.generation || !series) {
        generation = this.generation;
        series = this.seriesOf(kept);
      }
      return series;
    };
  }

  /** What the Registry writes in the text format. */
  async getForPromString(): Promise<ExportedMetric> {
    return this.withValues(this.exported());
  }

  /** As prom-client's `get()`: each value's labels whole (its series' labels with its own). */
  async get(): Promise<ExportedMetric> {
    return this.withValues(this.exported().map(({ sharedLabels, labels, ...value }) => ({ ...value, labels: { ...labels, ...sharedLabels } })));
  }

  private withValues(values: ExportedValue[]): ExportedMetric {
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  protected abstract exported(): ExportedValue[];
}

/** A counter with labels: `inc(['problems', '200'])`. */
export class SeriesCounter<Name extends string> extends SeriesMetric<Name> {
  readonly type = 'counter';

  inc(labelValues: readonly string[], by = 1): void {
    this.seriesOf(labelValues).sum += by;
  }

  /** The counter of these label values, one per series: `child([service, status]).inc()`, with no series lookup once made. */
  child(labelValues: readonly string[]): { inc(by?: number): void } {
    return this.keptChild(labelValues, (series) => ({
      inc(by = 1) {
        series().sum += by;
      },
    }));
  }

  protected exported(): ExportedValue[] {
    return this.all.map(({ labels, sum }) => ({ value: sum, labels }));
  }
}

/** A histogram with labels: `observe(['POST', '200'], seconds)`. */
export class SeriesHistogram<Name extends string> extends SeriesMetric<Name> {
  readonly type = 'histogram';
  readonly upperBounds: readonly number[];

  constructor(options: MetricOptions<Name> & { buckets: readonly number[] }) {
    super(options);
    this.upperBounds = [...options.buckets].sort((a, b) => a - b);
  }

  protected override emptyBuckets(): number[] {
    return new Array<number>(this.upperBounds.length + 1).fill(0);
  }

  /** Records one observation; a value that is not a finite number is dropped (prom-client would throw). */
  observe(labelValues: readonly string[], value: number): void {
    if (Number.isFinite(value)) this.record(this.seriesOf(labelValues), value);
  }

  /** The histogram of these label values, one per series: `child([service]).observe(seconds)`, with no series lookup once made. */
  child(labelValues: readonly string[]): { observe(value: number): void } {
    return this.keptChild(labelValues, (series) => ({
      observe: (value: number) => {
        if (Number.isFinite(value)) this.record(series(), value);
      },
    }));
  }

  private record(series: Series, value: number): void {
    const bounds = this.upperBounds;
    let bucket = 0;
    while (bucket < bounds.length && value > bounds[bucket]) bucket += 1;
    series.buckets[bucket] += 1;
    series.sum += value;
    series.count += 1;
  }

  protected exported(): ExportedValue[] {
    const values: ExportedValue[] = [];
    for (const { labels, buckets, sum, count } of this.all) {
      let cumulative = 0;
      this.upperBounds.forEach((le, index) => {
        cumulative += buckets[index];
        values.push({ labels: { le }, sharedLabels: labels, value: cumulative, metricName: `${this.name}_bucket` });
      });
      values.push(
        { labels: { le: '+Inf' }, sharedLabels: labels, value: count, metricName: `${this.name}_bucket` },
        { labels: {}, sharedLabels: labels, value: sum, metricName: `${this.name}_sum` },
        { labels: {}, sharedLabels: labels, value: count, metricName: `${this.name}_count` },
      );
    }
    return values;
  }
}

/** The map holding the last of `values` in a tree of maps by label value, the levels above made on the way. */
function leafLevel(root: Map<string, unknown>, values: readonly string[]): Map<string, unknown> {
  let level = root;
  const last = values.length - 1;
  for (let index = 0; index < last; index += 1) {
    let next = level.get(values[index]) as Map<string, unknown> | undefined;
    if (!next) level.set(values[index], (next = new Map()));
    level = next;
  }
  return level;
}
