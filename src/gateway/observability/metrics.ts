import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { limitsInForce, type LimitInForce, type ServiceLimits } from '../translation/translation-limits.ts';
import type { TranslationServedEvent } from '../translation/translation-batcher.ts';
import type { BreakerObserver, BreakerState } from '../upstream/circuit-breaker.ts';
import type { RequestObserver } from './observed-request.ts';
import { SeriesCounter, SeriesHistogram } from './series-metrics.ts';

export interface GatewayMetricsOptions {
  /** Most texts in one `POST /translate` (`TRANSLATION_BATCH_SIZE`), to size each call of a batch. */
  translationBatchSize: number;
  /** Distinct operation names given their own label; the rest are counted as `other`. @default 100 */
  maxOperationNames?: number;
}

export interface GatewayMetrics {
  /** This gateway's own registry (never prom-client's global one, so gateways in one process do not clash). */
  registry: Registry;
  /** Counts requests and upstream calls, and follows each service's circuit breaker. */
  observer: RequestObserver & BreakerObserver;
  /** The translation batcher's `onServed` hook: cache hits and misses, texts per call, splits, limits learned. */
  translationServed(event: TranslationServedMetrics): void;
  /** The rate limiter's `onRejected` hook. */
  rateLimited(budget: 'requests' | 'translation'): void;
}

/** What the translation batcher reports after each group of texts. */
export type TranslationServedMetrics = TranslationServedEvent;

const BREAKER_STATE_VALUE: Record<BreakerState, number> = { closed: 0, 'half-open': 1, open: 2 };

const SECONDS_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * The gateway's Prometheus metrics. Label values are bounded: operation names are the client's
 * choice, so only the first `maxOperationNames` get a label of their own.
 */
export function createGatewayMetrics({ translationBatchSize, maxOperationNames = 100 }: GatewayMetricsOptions): GatewayMetrics {
  const registry = new Registry();
  const registers = [registry];
  // The metrics observed on every request and upstream call are series metrics (series-metrics.ts);
  // the rest, observed per page at most, are prom-client's own.
  const requests = new SeriesCounter({
    name: 'gateway_requests_total',
    help: 'GraphQL requests answered, by operation name and outcome (ok, error, rejected).',
    labelNames: ['operation', 'outcome'] as const,
    registry,
  });
  const requestDuration = new SeriesHistogram({
    name: 'gateway_request_duration_seconds',
    help: 'Time from a GraphQL request arriving to its response, by operation name and outcome.',
    labelNames: ['operation', 'outcome'] as const,
    buckets: SECONDS_BUCKETS,
    registry,
  });
  const upstreamCalls = new SeriesCounter({
    name: 'gateway_upstream_requests_total',
    help: 'HTTP calls to the upstream services, retries included, by service and status (HTTP status, timeout, network or aborted).',
    labelNames: ['service', 'status'] as const,
    registry,
  });
  const upstreamDuration = new SeriesHistogram({
    name: 'gateway_upstream_request_duration_seconds',
    help: 'Time from an upstream call going out to its response head (or its failure), by service.',
    labelNames: ['service'] as const,
    buckets: SECONDS_BUCKETS,
    registry,
  });
  const batchSize = new Histogram({
    name: 'gateway_translation_batch_size',
    help: 'Texts sent in one POST /translate.',
    buckets: [1, 2, 5, 10, 20, 50, 100, 200, 500],
    registers,
  });
  const cacheHits = new Counter({
    name: 'gateway_translation_cache_hits_total',
    help: 'Texts whose translation came from the translation cache.',
    registers,
  });
  const cacheMisses = new Counter({
    name: 'gateway_translation_cache_misses_total',
    help: 'Texts not in the translation cache: sent upstream, or joined to a call already on its way for another request.',
    registers,
  });
  const reusedTranslations = new Counter({
    name: 'gateway_translations_reused_total',
    help: "Problem translations (Problem.translation) reused whole, as assembled lately from the same title and statement: none of their texts looked up in the translation cache.",
    registers,
  });
  const splits = new Counter({
    name: 'gateway_translation_splits_total',
    help: 'Translation work split to fit the service: `call` a call refused as too large and sent again in parts, `text` a text cut at paragraph or sentence boundaries.',
    labelNames: ['kind'] as const,
    registers,
  });
  const limitsLearned = new Counter({
    name: 'gateway_translation_limits_learned_total',
    help: 'Limits of the translation service learned or lowered from its refusals: `texts` per call, `chars` per call, `longest` text.',
    labelNames: ['limit'] as const,
    registers,
  });
  const unusableAnswers = new Counter({
    name: 'gateway_translation_unusable_answers_total',
    help: 'Calls to the translation service answered 200 with no usable translation (an empty one for a text that is not, or not a list of texts): failed calls, nothing of them cached or served.',
    registers,
  });
  // The limits as the translation batcher last reported them (one live object per gateway), read when scraped.
  let limits: ServiceLimits | undefined;
  const inForce = () => (limits ? limitsInForce(limits) : []);
  const limitGauge = (name: string, help: string, valueOf: (limit: LimitInForce) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ['limit'] as const,
      registers,
      collect() {
        this.reset();
        for (const limit of inForce()) this.set({ limit: limit.limit }, valueOf(limit));
      },
    });
  limitGauge(
    'gateway_translation_limit',
    'Limits of the translation service in force: `texts` and `chars` per call and `longest` text as learned from its refusals (each expires and is tried again), `published_chars` as it publishes. No series: no limit known.',
    (limit) => limit.value,
  );
  limitGauge('gateway_translation_limit_age_seconds', 'How long ago each limit of gateway_translation_limit was learned (or read, for `published_chars`).', (limit) => limit.ageSeconds);
  for (const kind of ['call', 'text']) splits.inc({ kind }, 0);
  for (const limit of ['texts', 'chars', 'longest']) limitsLearned.inc({ limit }, 0);
  const rateLimitRejections = new Counter({
    name: 'gateway_rate_limit_rejections_total',
    help: 'Requests refused by a per-client rate limit, by budget (requests, translation).',
    labelNames: ['budget'] as const,
    registers,
  });
  for (const budget of ['requests', 'translation']) rateLimitRejections.inc({ budget }, 0);

  const breakerState = new Gauge({
    name: 'gateway_upstream_breaker_state',
    help: "State of each service's circuit breaker: 0 closed (calls go out), 1 half-open (a few probe calls decide), 2 open (calls fail at once).",
    labelNames: ['service'] as const,
    registers,
  });
  const breakerOpens = new Counter({
    name: 'gateway_upstream_breaker_opens_total',
    help: "Times each service's circuit breaker opened (a failed probe opening it again included).",
    labelNames: ['service'] as const,
    registers,
  });
  const breakerRefused = new Counter({
    name: 'gateway_upstream_breaker_refused_calls_total',
    help: 'Upstream calls failed at once, unsent, because the service\'s circuit was open (UPSTREAM_UNAVAILABLE with retryAfter).',
    labelNames: ['service'] as const,
    registers,
  });
  for (const service of ['problems', 'translation']) {
    breakerState.set({ service }, 0);
    breakerOpens.inc({ service }, 0);
    breakerRefused.inc({ service }, 0);
  }

  const operationNames = new Set<string>();
  const operationLabel = (name: string, outcome: string) => {
    if (name === 'anonymous' || name === 'batch' || operationNames.has(name)) return name;
    // A refused request does not earn a label of its own: junk names cannot use up the budget.
    if (outcome === 'rejected' || operationNames.size >= maxOperationNames) return 'other';
    operationNames.add(name);
    return name;
  };

  return {
    registry,
    observer: {
      requestFinished({ operation, outcome, durationMs }) {
        const labels = [operationLabel(operation, outcome), outcome];
        requests.inc(labels);
        requestDuration.observe(labels, durationMs / 1000);
      },
      upstreamCall({ service }) {
        return ({ status, durationMs }) => {
          upstreamCalls.inc([service, status]);
          upstreamDuration.observe([service], durationMs / 1000);
        };
      },
      breakerChanged({ service, state }) {
        breakerState.set({ service }, BREAKER_STATE_VALUE[state]);
        if (state === 'open') breakerOpens.inc({ service });
      },
      breakerRefused(service) {
        breakerRefused.inc({ service });
      },
    },
    translationServed({ cached, joined, sent, calls, callSizes, splitCalls = 0, splitTexts = 0, learned = [], reused = 0, unusable = 0, limits: known }) {
      if (known) limits = known;
      if (unusable > 0) unusableAnswers.inc(unusable);
      if (reused > 0) reusedTranslations.inc(reused);
      cacheHits.inc(cached);
      cacheMisses.inc(sent + joined);
      if (callSizes) for (const size of callSizes) batchSize.observe(size);
      // Without sizes: `sent` texts cut into `calls` calls of `translationBatchSize`, the last one shorter.
      else for (let call = 0; call < calls; call += 1) batchSize.observe(Math.min(translationBatchSize, sent - call * translationBatchSize));
      if (splitCalls > 0) splits.inc({ kind: 'call' }, splitCalls);
      if (splitTexts > 0) splits.inc({ kind: 'text' }, splitTexts);
      for (const limit of learned) limitsLearned.inc({ limit });
    },
    rateLimited(budget) {
      rateLimitRejections.inc({ budget });
    },
  };
}
