import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Context, type Span } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import {
  ATTR_ERROR_TYPE,
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_SERVER_ADDRESS,
  ATTR_SERVER_PORT,
  ATTR_SERVICE_NAME,
  ATTR_URL_PATH,
} from '@opentelemetry/semantic-conventions';
import type { ObservedRequest, RequestObserver } from '../request/observed-request.ts';

export interface TracingOptions {
  /** Base URL of the OTLP/HTTP collector (`OTEL_EXPORTER_OTLP_ENDPOINT`); spans go to `<endpoint>/v1/traces` as JSON. */
  endpoint: string;
  /** `service.name` of the spans; `OTEL_SERVICE_NAME` and `OTEL_RESOURCE_ATTRIBUTES` override. @default 'problems-translation-gateway' */
  serviceName?: string;
}

export interface GatewayTracing {
  observer: RequestObserver;
  /** Exports every finished span now. */
  forceFlush(): Promise<void>;
  /** Exports what is left and stops. */
  shutdown(): Promise<void>;
}

/**
 * One span per GraphQL request (`graphql.request <operation>`, a child of the client's `traceparent`
 * when it sends one) and a child span per upstream HTTP call (`upstream <service>`), whose context
 * goes upstream in `traceparent`. The provider belongs to this gateway and is never registered
 * globally, so several gateways in one process (or an embedding app's own tracing) do not clash.
 */
export function createTracing({ endpoint, serviceName = 'problems-translation-gateway' }: TracingOptions): GatewayTracing {
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: serviceName }).merge(detectResources({ detectors: [envDetector] })),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: `${endpoint.replace(/\/+$/, '')}/v1/traces` }))],
  });
  const tracer = provider.getTracer('problems-translation-gateway');
  const spans = new WeakMap<ObservedRequest, Span>();

  const observer: RequestObserver = {
    requestStarted(observed, request) {
      const span = tracer.startSpan(
        'graphql.request',
        { kind: SpanKind.SERVER, attributes: { [ATTR_HTTP_REQUEST_METHOD]: request.method, 'gateway.request_id': observed.id } },
        parentFrom(request.headers.get('traceparent')),
      );
      spans.set(observed, span);
      // For the request log line, so a log line leads to its trace.
      observed.traceId = span.spanContext().traceId;
    },
    requestFinished(finished, observed) {
      const span = spans.get(observed);
      if (!span) return;
      span.updateName(`graphql.request ${finished.operation}`);
      span.setAttributes({
        'graphql.operation.name': finished.operation,
        ...(finished.operationType ? { 'graphql.operation.type': finished.operationType } : {}),
        'gateway.outcome': finished.outcome,
        [ATTR_HTTP_RESPONSE_STATUS_CODE]: finished.status,
      });
      if (finished.outcome === 'error') span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    },
    upstreamCall({ service, method, url, request, addHeaders }) {
      const parent = request && spans.get(request);
      const span = tracer.startSpan(
        `upstream ${service}`,
        {
          kind: SpanKind.CLIENT,
          attributes: {
            'gateway.service': service,
            [ATTR_HTTP_REQUEST_METHOD]: method,
            // Host and path only: a URL may carry credentials or a key in its query.
            ...(url ? { [ATTR_SERVER_ADDRESS]: url.hostname, [ATTR_URL_PATH]: url.pathname } : {}),
            ...(url?.port ? { [ATTR_SERVER_PORT]: Number(url.port) } : {}),
          },
        },
        parent ? trace.setSpan(ROOT_CONTEXT, parent) : ROOT_CONTEXT,
      );
      const { traceId, spanId, traceFlags } = span.spanContext();
      addHeaders.traceparent = `00-${traceId}-${spanId}-${traceFlags.toString(16).padStart(2, '0')}`;
      return ({ status }) => {
        if (/^\d+$/.test(status)) span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, Number(status));
        else span.setAttribute(ATTR_ERROR_TYPE, status);
        if (!/^2\d\d$/.test(status)) span.setStatus({ code: SpanStatusCode.ERROR });
        span.end();
      };
    },
  };

  return { observer, forceFlush: () => provider.forceFlush(), shutdown: () => provider.shutdown() };
}

/** The client's W3C `traceparent`, when valid, as the parent of the request's span. */
function parentFrom(header: string | null): Context {
  const match = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/.exec(header?.trim() ?? '');
  if (!match || match[1] === 'ff' || /^0+$/.test(match[2]) || /^0+$/.test(match[3])) return ROOT_CONTEXT;
  return trace.setSpanContext(ROOT_CONTEXT, { traceId: match[2], spanId: match[3], traceFlags: parseInt(match[4], 16) & 1, isRemote: true });
}
