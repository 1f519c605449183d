import { Registry } from 'prom-client';
import type { TranslationServedEvent } from '../translation/translation-batcher.ts';
import type { BreakerObserver } from '../upstream/circuit-breaker.ts';
import type { RequestObserver } from '../request/observed-request.ts';
import { createRequestMetrics } from './request-metrics.ts';
import { createTranslationMetrics } from './translation-metrics.ts';
import { createUpstreamMetrics } from './upstream-metrics.ts';

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

/**
 * The gateway's Prometheus metrics, in one registry of its own: client requests
 * (request-metrics.ts), upstream calls and circuits (upstream-metrics.ts), translation work
 * (translation-metrics.ts). The metrics observed on every request and upstream call are series
 * metrics (series-metrics.ts); the rest, observed per page at most, are prom-client's own.
 */
export function createGatewayMetrics({ translationBatchSize, maxOperationNames = 100 }: GatewayMetricsOptions): GatewayMetrics {
  const registry = new Registry();
  const requests = createRequestMetrics(registry, maxOperationNames);
  return {
    registry,
    observer: { requestFinished: requests.requestFinished, ...createUpstreamMetrics(registry) },
    translationServed: createTranslationMetrics(registry, translationBatchSize),
    rateLimited: requests.rateLimited,
  };
}
