import { collectDefaultMetrics, type Registry } from 'prom-client';
import type { ServiceName } from '../errors.ts';
import type { ObservedRequest, RequestObserver, UpstreamCallEnd } from '../request/observed-request.ts';
import { SeriesHistogram } from './series-metrics.ts';

/** OpenTelemetry's recommended buckets for HTTP durations, in seconds. */
const OTEL_HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];

/** What a request's HTTP labels are before its status is known. */
type HttpLabels = NonNullable<ObservedRequest['http']>;

type UpstreamEnd = (end: UpstreamCallEnd) => void;

/** Distinct request methods whose labels are kept (GraphQL is served on GET and POST). */
const MAX_METHODS_KEPT = 16;

/** The key of the calls whose URL does not parse. */
const NO_URL = {};

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
  // A request's labels but its status are known when it starts: one shared object per method and
  // scheme, read back when it finishes.
  const requestLabels = new Map<string, { http: HttpLabels; https: HttpLabels }>();
  const labelsOf = (method: string, scheme: 'http' | 'https'): HttpLabels => {
    let byScheme = requestLabels.get(method);
    if (!byScheme) {
      byScheme = { http: { method, scheme: 'http' }, https: { method, scheme: 'https' } };
      // Methods are the client's to choose: past a handful, each request gets labels of its own.
      if (requestLabels.size < MAX_METHODS_KEPT) requestLabels.set(method, byScheme);
    }
    return byScheme[scheme];
  };
  // And each upstream call's end, made once per URL, method and service: a call makes no function.
  const clientEnds = new WeakMap<URL | typeof NO_URL, Map<string, Record<ServiceName, UpstreamEnd | undefined>>>();
  const clientEndOf = (service: ServiceName, method: string, url: URL | undefined): UpstreamEnd => {
    let byMethod = clientEnds.get(url ?? NO_URL);
    if (!byMethod) clientEnds.set(url ?? NO_URL, (byMethod = new Map()));
    let byService = byMethod.get(method);
    if (!byService) byMethod.set(method, (byService = { problems: undefined, translation: undefined }));
    return (byService[service] ??= clientEnd(service, method, url));
  };
  const clientEnd = (service: ServiceName, method: string, url: URL | undefined): UpstreamEnd => {
    const address = url?.hostname ?? '';
    const port = url ? url.port || (url.protocol === 'https:' ? '443' : '80') : '';
    return ({ status, durationMs }) => {
      const answered = status.charCodeAt(0) >= 48 && status.charCodeAt(0) <= 57;
      // In labelNames' order: method, status code, error type, server address and port, service.
      client.child([method, answered ? status : '', answered ? (Number(status) >= 400 ? status : '') : status, address, port, service]).observe(durationMs / 1000);
    };
  };
  return {
    requestStarted(observed, request) {
      // Only GraphQL requests are observed, and one path serves them: its route is the GraphQL
      // path as configured (OpenTelemetry's `http.route` is the matched route, never the URL sent),
      // and the URL needs no parsing per request.
      observed.http = labelsOf(request.method, request.url.startsWith('https:') ? 'https' : 'http');
    },
    requestFinished({ status, durationMs }, observed) {
      const labels = observed.http ?? labelsOf('GET', 'http');
      // In labelNames' order: method, status code, route, scheme.
      server.child([labels.method, String(status), route, labels.scheme]).observe(durationMs / 1000);
    },
    upstreamCall({ service, method, url }) {
      return clientEndOf(service, method, url);
    },
  };
}
