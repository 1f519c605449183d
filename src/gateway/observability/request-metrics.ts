import { Counter, type Registry } from 'prom-client';
import type { RequestObserver } from '../request/observed-request.ts';
import { SECONDS_BUCKETS, SeriesCounter, SeriesHistogram } from './series-metrics.ts';

export interface RequestMetrics {
  requestFinished: NonNullable<RequestObserver['requestFinished']>;
  /** The rate limiter's `onRejected` hook. */
  rateLimited(budget: 'requests' | 'translation'): void;
}

/**
 * Client requests: answered, by operation name and outcome, and refused by a rate limit. Label values
 * are bounded: operation names are the client's choice, so only the first `maxOperationNames` get a
 * label of their own.
 */
export function createRequestMetrics(registry: Registry, maxOperationNames: number): RequestMetrics {
  // Observed on every request: series metrics (series-metrics.ts).
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
  const rateLimitRejections = new Counter({
    name: 'gateway_rate_limit_rejections_total',
    help: 'Requests refused by a per-client rate limit, by budget (requests, translation).',
    labelNames: ['budget'] as const,
    registers: [registry],
  });
  for (const budget of ['requests', 'translation']) rateLimitRejections.inc({ budget }, 0);

  const operationNames = new Set<string>();
  const operationLabel = (name: string, outcome: string) => {
    if (name === 'anonymous' || name === 'batch' || operationNames.has(name)) return name;
    // A refused request does not earn a label of its own: junk names cannot use up the budget.
    if (outcome === 'rejected' || operationNames.size >= maxOperationNames) return 'other';
    operationNames.add(name);
    return name;
  };

  return {
    requestFinished({ operation, outcome, durationMs }) {
      const labels = [operationLabel(operation, outcome), outcome];
      requests.child(labels).inc();
      requestDuration.child(labels).observe(durationMs / 1000);
    },
    rateLimited(budget) {
      rateLimitRejections.inc({ budget });
    },
  };
}
