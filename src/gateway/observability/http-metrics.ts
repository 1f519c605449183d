import { collectDefaultMetrics, type Registry } from 'prom-client';
import type { RequestObserver } from '../request/observed-request.ts';
import { SeriesHistogram } from './series-metrics.ts';

/** OpenTelemetry's recommended buckets for HTTP durations, in seconds. */
const OTEL_HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];

/**
 * HTTP metrics named and labelled after OpenTelemetry's semantic conventions, in their Prometheus form
 * (`http.server.request.duration` → `http_server_request_duration_seconds`, attributes with `_`), so
 * dashboards built for those conventions work unchanged; plus Node's process metrics (prom-client's
 * default collectors: CPU, memory, event-loop lag, GC, handles). The gateway's own counters
 * (`gateway_*`) stay beside them.
 */
export function createHttpMetrics(registry: Registry, route: string): RequestObserver {
  collectDefaultMetrics({ register: registry });
  const server = new SeriesHistogram({
    name: 'http_server_request_duration_seconds',
    help: 'Duration of HTTP server requests (OpenTelemetry http.server.request.duration), GraphQL requests only.',
    labelNames: ['http_request_method', 'http_response_status_code', 'http_route', 'url_scheme'] as const,
    buckets: OTEL_HTTP_BUCKETS,
    registry,
  });
  const client = new SeriesHistogram({
    name: 'http_client_request_duration_seconds',
    help: 'Duration of HTTP client requests to the upstreams (OpenTelemetry http.client.request.duration), to the response head.',
    labelNames: ['http_request_method', 'http_response_status_code', 'error_type', 'server_address', 'server_port', 'gateway_service'] as const,
    buckets: OTEL_HTTP_BUCKETS,
    registry,
  });
  return {
    requestStarted(observed, request) {
      // Only GraphQL requests are observed, and one path serves them: its route is the GraphQL
      // path as configured (OpenTelemetry's `http.route` is the matched route, never the URL sent),
      // and the URL needs no parsing per request.
      observed.http = { method: request.method, scheme: request.url.startsWith('https:') ? 'https' : 'http' };
    },
    requestFinished({ status, durationMs }, observed) {
      const { method, scheme } = observed.http ?? { method: 'GET', scheme: 'http' };
      // In labelNames' order: method, status code, route, scheme.
      server.observe([method, String(status), route, scheme], durationMs / 1000);
    },
    upstreamCall({ service, method, url }) {
      return ({ status, durationMs }) => {
        const answered = /^\d+$/.test(status);
        // In labelNames' order: method, status code, error type, server address and port, service.
        client.observe(
          [
            method,
            answered ? status : '',
            answered ? (Number(status) >= 400 ? status : '') : status,
            url?.hostname ?? '',
            url ? url.port || (url.protocol === 'https:' ? '443' : '80') : '',
            service,
          ],
          durationMs / 1000,
        );
      };
    },
  };
}
