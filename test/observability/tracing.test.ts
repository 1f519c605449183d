import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createGateway } from '../../src/gateway/create-gateway.ts';
import { listen, type RunningServer } from '../../src/shared/listen.ts';
import { sharedStack } from '../helpers/shared-stack.ts';
import type { Stack } from '../helpers/start-stack.ts';
import { CROSS_SOURCE, recordUpstreamRequests } from './helpers.ts';

/** A span as the OTLP/HTTP JSON encoding carries it (ids in hex). */
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: { key: string; value: Record<string, unknown> }[];
  status?: { code?: number };
}

const SPAN_KIND_SERVER = 2;
const SPAN_KIND_CLIENT = 3;

/** The value of a span attribute, whatever its OTLP type. */
const attribute = (span: OtlpSpan, key: string) => {
  const value = span.attributes.find((each) => each.key === key)?.value;
  return value && Object.values(value)[0];
};

/** A stand-in OpenTelemetry collector: records the spans POSTed to /v1/traces as OTLP JSON. */
async function startCollector(): Promise<RunningServer & { spans: OtlpSpan[]; serviceNames: string[] }> {
  const spans: OtlpSpan[] = [];
  const serviceNames: string[] = [];
  const server = await listen((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.method !== 'POST' || request.url !== '/v1/traces' || !String(request.headers['content-type']).startsWith('application/json')) {
        response.writeHead(404).end();
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      for (const resourceSpans of body.resourceSpans ?? []) {
        const service = resourceSpans.resource?.attributes?.find((each: { key: string }) => each.key === 'service.name');
        if (service) serviceNames.push(service.value.stringValue);
        for (const scopeSpans of resourceSpans.scopeSpans ?? []) spans.push(...scopeSpans.spans);
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  return Object.assign(server, { spans, serviceNames });
}

describe('OpenTelemetry tracing (OTEL_EXPORTER_OTLP_ENDPOINT)', () => {
  let stack: Stack;
  let collector: Awaited<ReturnType<typeof startCollector>>;
  let traced: Awaited<ReturnType<Stack['addGateway']>>;

  beforeAll(async () => {
    stack = await sharedStack('open');
    collector = await startCollector();
    traced = await stack.addGateway({ settings: { otlpEndpoint: collector.url, translationCacheTtlSeconds: 0, problemsCacheTtlSeconds: 0 } });
  });
  afterAll(async () => {
    await stack?.close();
    await collector?.close();
  });
  beforeEach(() => {
    collector.spans.length = 0;
  });

  /** Runs the query, flushes the gateway's spans to the collector, and returns them with what the upstreams received. */
  async function tracedQuery(query: string, headers: Record<string, string> = {}) {
    const upstream = recordUpstreamRequests(stack);
    let requestId: string | null;
    try {
      const response = await fetch(traced.gatewayUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ query }),
      });
      expect((await response.json()).errors).toBeUndefined();
      requestId = response.headers.get('x-request-id');
    } finally {
      upstream.stop();
    }
    await traced.gateway.flushTraces();
    const requestSpan = collector.spans.find((span) => span.name.startsWith('graphql.request'));
    return { requestSpan: requestSpan!, requestId, upstream: upstream.seen };
  }

  it('exports a span for the request and a child span for each upstream call, whose context goes upstream', async () => {
    const { requestSpan, requestId, upstream } = await tracedQuery(CROSS_SOURCE);
    expect(requestSpan).toMatchObject({ name: 'graphql.request ProblemsInSpanish', kind: SPAN_KIND_SERVER });
    expect(requestSpan.parentSpanId ?? '').toBe('');
    expect(attribute(requestSpan, 'graphql.operation.name')).toBe('ProblemsInSpanish');
    expect(attribute(requestSpan, 'graphql.operation.type')).toBe('query');
    expect(attribute(requestSpan, 'gateway.outcome')).toBe('ok');
    expect(attribute(requestSpan, 'gateway.request_id')).toBe(requestId);
    expect(Number(attribute(requestSpan, 'http.response.status_code'))).toBe(200);

    const children = collector.spans.filter((span) => span.parentSpanId === requestSpan.spanId);
    expect(children.every((span) => span.traceId === requestSpan.traceId && span.kind === SPAN_KIND_CLIENT)).toBe(true);
    for (const service of ['problems', 'translation'] as const) {
      const spans = children.filter((span) => span.name === `upstream ${service}`);
      // One child span per call the upstream received, each call carrying its own span as traceparent.
      expect(spans).toHaveLength(upstream[service].length);
      expect(spans.length).toBeGreaterThanOrEqual(1);
      expect(upstream[service].map(({ headers }) => headers.traceparent).sort()).toEqual(
        spans.map((span) => `00-${span.traceId}-${span.spanId}-01`).sort(),
      );
      for (const span of spans) {
        expect(attribute(span, 'gateway.service')).toBe(service);
        expect(Number(attribute(span, 'http.response.status_code'))).toBe(200);
      }
      // Translation: the language list (GET, a new gateway's first call) to map `to`, then POST /translate.
      expect(spans.map((span) => attribute(span, 'http.request.method')).sort()).toEqual(
        upstream[service].map(({ path }) => (path === '/languages' ? 'GET' : 'POST')).sort(),
      );
    }
    expect(children).toHaveLength(upstream.problems.length + upstream.translation.length);
    expect(collector.serviceNames).toContain('problems-translation-gateway');
  });

  it('puts the trace id on the request log line, so a line leads to its trace', async () => {
    const lines: { trace_id?: string; operation: string }[] = [];
    const logged = await stack.addGateway({ settings: { otlpEndpoint: collector.url }, requestLog: (entry) => lines.push(entry) });
    const traceId = '5bf92f3577b34da6a3ce929d0e0e4737';
    await logged.query('query Logged { __typename }', undefined, { traceparent: `00-${traceId}-00f067aa0ba902b7-01` });
    expect(lines).toEqual([expect.objectContaining({ operation: 'Logged', trace_id: traceId })]);
    const untraced: { trace_id?: string }[] = [];
    const plain = await stack.addGateway({ requestLog: (entry) => untraced.push(entry) });
    await plain.query('query Plain { __typename }');
    expect(untraced[0]).not.toHaveProperty('trace_id');
  });

  it("continues the client's trace when it sends a traceparent", async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const { requestSpan } = await tracedQuery('query Continued { __typename }', { traceparent: `00-${traceId}-00f067aa0ba902b7-01` });
    expect(requestSpan).toMatchObject({ name: 'graphql.request Continued', traceId, parentSpanId: '00f067aa0ba902b7' });
  });

  it('marks a failed upstream call and its request as errors', async () => {
    const failing = await stack.addGateway({ settings: { otlpEndpoint: collector.url, upstreamRetries: 0, translationCacheTtlSeconds: 0 } });
    stack.translation.setFaults({ status: 502, routes: ['POST /translate'] });
    try {
      await failing.query(CROSS_SOURCE);
    } finally {
      stack.translation.clearFaults();
    }
    await failing.gateway.flushTraces();
    const requestSpan = collector.spans.find((span) => span.name === 'graphql.request ProblemsInSpanish')!;
    expect(attribute(requestSpan, 'gateway.outcome')).toBe('error');
    expect(requestSpan.status?.code).toBe(2);
    const translation = collector.spans.find(
      (span) => span.name === 'upstream translation' && span.parentSpanId === requestSpan.spanId && attribute(span, 'http.request.method') === 'POST',
    )!;
    expect(Number(attribute(translation, 'http.response.status_code'))).toBe(502);
    expect(translation.status?.code).toBe(2);
  });

  it('exports the last spans when the gateway closes', async () => {
    // Not through the stack, which closes its own gateways.
    const closing = await createGateway({ log: () => undefined, requestLog: false, settings: { ...stack.upstreamSettings, otlpEndpoint: collector.url } });
    const response = await closing.fetch(
      new Request('http://gateway.test/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: 'query Last { __typename }' }),
      }),
    );
    expect(response.status).toBe(200);
    await closing.close();
    expect(collector.spans.map((span) => span.name)).toContain('graphql.request Last');
  });

  it('traces nothing when no endpoint is set', async () => {
    const plain = await stack.addGateway();
    await plain.query('query Untraced { __typename }');
    await plain.gateway.flushTraces();
    await traced.gateway.flushTraces();
    expect(collector.spans.map((span) => span.name)).not.toContain('graphql.request Untraced');
  });
});
