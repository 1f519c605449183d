import { Counter, Gauge, type Registry } from 'prom-client';
import type { BreakerObserver, BreakerState } from '../upstream/circuit-breaker.ts';
import type { ServiceName } from '../errors.ts';
import type { RequestObserver, UpstreamCallEnd } from '../request/observed-request.ts';
import { SECONDS_BUCKETS, SeriesCounter, SeriesHistogram } from './series-metrics.ts';

const BREAKER_STATE_VALUE: Record<BreakerState, number> = { closed: 0, 'half-open': 1, open: 2 };

/** Calls to the upstream services, by service and status, and each service's circuit breaker. */
export function createUpstreamMetrics(registry: Registry): Pick<RequestObserver, 'upstreamCall'> & BreakerObserver {
  const registers = [registry];
  // Observed on every upstream call: series metrics (series-metrics.ts).
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

  // One end per service, made here: a call makes no function of its own.
  const endOf = (service: ServiceName): ((end: UpstreamCallEnd) => void) => {
    const duration = upstreamDuration.child([service]);
    return ({ status, durationMs }) => {
      upstreamCalls.child([service, status]).inc();
      duration.observe(durationMs / 1000);
    };
  };
  const ends: Record<ServiceName, (end: UpstreamCallEnd) => void> = { problems: endOf('problems'), translation: endOf('translation') };

  return {
    upstreamCall({ service }) {
      return ends[service];
    },
    breakerChanged({ service, state }) {
      breakerState.set({ service }, BREAKER_STATE_VALUE[state]);
      if (state === 'open') breakerOpens.inc({ service });
    },
    breakerRefused(service) {
      breakerRefused.inc({ service });
    },
  };
}
