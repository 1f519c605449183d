import type { Plugin } from 'graphql-yoga';
import { Gauge, type Registry } from 'prom-client';
import type { GatewaySettings } from '../settings.ts';
import { createHttpMetrics } from './http-metrics.ts';
import { createGatewayMetrics, type GatewayMetrics } from './metrics.ts';
import type { RequestObserver } from '../request/observed-request.ts';
import { flushRequestLog, requestLogObserver, writeRequestLogLine, type RequestLog } from './request-log.ts';
import type { GatewayTracing } from './tracing.ts';
import { loadTracing } from './load-tracing.ts';
import { useMetricsEndpoint } from './use-metrics-endpoint.ts';
import type { GatewayLog } from '../gateway-log.ts';
import { translationKeyRefusal, useReadiness, watchBreakers, watchKeyRefusals, type ReadinessOptions, type UpstreamTargets } from './use-readiness.ts';
import type { BreakerObserver } from '../upstream/circuit-breaker.ts';
import { useRequestObservation } from './use-request-observation.ts';

export type { RequestLog, RequestLogEntry } from './request-log.ts';

export interface ObservabilityOptions {
  settings: Pick<
    GatewaySettings,
    | 'metricsEnabled'
    | 'otlpEndpoint'
    | 'translationBatchSize'
    | 'problemsUrl'
    | 'problemsApiKey'
    | 'translationUrl'
    | 'translationApiKey'
    | 'translationKeyInBody'
    | 'standIns'
  >;
  /** The path GraphQL is served at: the route the HTTP metrics name. @default '/graphql' */
  graphqlEndpoint?: string;
  /** Where each request's log line goes; `false` for none. @default one JSON line on stdout */
  requestLog?: RequestLog | false;
  /** What /readiness reports beside the upstreams (e.g. `{ redis: () => stores.check() }`); see `useReadiness`. */
  readinessDependencies?: Record<string, () => Promise<string>>;
  /** The tracer, when tracing is on (made by startTracing, which loads the OpenTelemetry SDK only then). */
  tracing?: GatewayTracing;
  /** The problems schema served, for /readiness (see `useReadiness`). */
  problemsSchema?: ReadinessOptions['problemsSchema'];
  /**
   * What the readiness checks and the key check at start call the upstreams with: the upstream
   * calls' own fetch, so each service is reached over its one pool of connections.
   * @default globalThis.fetch
   */
  fetch?: typeof fetch;
}

/**
 * The tracer for `settings.otlpEndpoint`, or none: the OpenTelemetry packages are loaded only when
 * tracing is on, and are the app's to install then (load-tracing.ts says which when they are not).
 */
export async function startTracing(settings: Pick<GatewaySettings, 'otlpEndpoint'>): Promise<GatewayTracing | undefined> {
  return settings.otlpEndpoint ? loadTracing({ endpoint: settings.otlpEndpoint }) : undefined;
}

export interface Observability {
  /** Yoga plugins, right after the routes: request ids, outcomes, /readiness and /metrics. */
  yogaPlugins: Plugin[];
  /**
   * Told about every request and upstream call (the metrics, the tracer and the request log), and
   * about each service's circuit breaker (the metrics, readiness).
   */
  observers: (RequestObserver & BreakerObserver)[];
  /** For the translation batcher's `onServed`. */
  onTranslationServed: GatewayMetrics['translationServed'];
  /** For the rate limiter's `onRejected`. */
  onRateLimited: GatewayMetrics['rateLimited'];
  /** This gateway's Prometheus registry (filled whether or not /metrics is served). */
  metrics: Registry;
  /** Exports the finished spans now (nothing to do when tracing is off). */
  flushTraces(): Promise<void>;
  /** Exports what is left and stops the tracer. */
  close(): Promise<void>;
  /**
   * Asks the translation service whether it refuses the key, once, at start (a call that costs no
   * translation): a wrong TRANSLATION_API_KEY is then said in one line and `gateway_upstream_up` is 0
   * before any reader gets a refused translation. Bounded by the readiness timeout.
   */
  checkKeyAtStart(log: GatewayLog): Promise<void>;
}

/** As long as a readiness check may take. */
const START_CHECK_TIMEOUT_MS = 2000;

/** Request log, metrics, tracing and readiness of one gateway, wired to the same per-request record. */
export function createObservability({
  settings,
  graphqlEndpoint = '/graphql',
  requestLog = writeRequestLogLine,
  readinessDependencies,
  tracing,
  problemsSchema,
  fetch: fetchFn = globalThis.fetch,
}: ObservabilityOptions): Observability {
  const metrics = createGatewayMetrics({ translationBatchSize: settings.translationBatchSize });
  const observers: (RequestObserver & BreakerObserver)[] = [metrics.observer, createHttpMetrics(metrics.registry, graphqlEndpoint)];
  if (tracing) observers.push(tracing.observer);
  if (requestLog) observers.push(requestLogObserver(requestLog));
  // Readiness reports what real calls see of each key, not only what its own checks see.
  const keyRefusals = watchKeyRefusals();
  observers.push(keyRefusals.observer);
  // And each service's circuit, as the breaker among the upstream steps tells it.
  const breakers = watchBreakers();
  observers.push(breakers.observer);
  // Set by each readiness check, so it is as fresh as the balancer's probes.
  const upstreamUp = new Gauge({
    name: 'gateway_upstream_up',
    help: "1 when the last readiness check found the upstream (or other dependency, such as redis) answering with the gateway's key, else 0 (the gateway is then degraded).",
    labelNames: ['service'] as const,
    registers: [metrics.registry],
  });
  const upstreams: UpstreamTargets = {
    problems: { url: settings.problemsUrl, apiKey: settings.problemsApiKey },
    translation: { url: settings.translationUrl, apiKey: settings.translationApiKey, keyInBody: settings.translationKeyInBody },
  };
  return {
    yogaPlugins: [
      useRequestObservation({ observers }),
      useReadiness({
        upstreams,
        standIns: settings.standIns === true,
        dependencies: readinessDependencies,
        keyRefusals,
        breakers,
        problemsSchema,
        fetch: fetchFn,
        onChecked: (services) => {
          for (const [service, state] of Object.entries(services)) upstreamUp.set({ service }, state === 'ok' ? 1 : 0);
        },
      }),
      ...(settings.metricsEnabled ? [useMetricsEndpoint({ registry: metrics.registry })] : []),
    ],
    observers,
    onTranslationServed: metrics.translationServed,
    onRateLimited: metrics.rateLimited,
    metrics: metrics.registry,
    flushTraces: async () => tracing?.forceFlush(),
    close: async () => {
      // The lines of the last requests, waiting to be written together (request-log.ts): out before close resolves.
      if (requestLog === writeRequestLogLine) flushRequestLog();
      await tracing?.shutdown();
    },
    async checkKeyAtStart(log) {
      const refusal = await translationKeyRefusal(upstreams.translation, START_CHECK_TIMEOUT_MS, fetchFn);
      if (refusal === undefined) return;
      upstreamUp.set({ service: 'translation' }, 0);
      log(`translation: the service ${refusal.replace('the key', 'TRANSLATION_API_KEY')}; every translation fails until it is fixed, and /readiness says degraded`, 'error');
    },
  };
}
