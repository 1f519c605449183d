import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGateway } from '../../src/gateway/create-gateway.ts';
import type { RequestLogEntry } from '../../src/gateway/observability/request-log.ts';
import { listen } from '../../src/shared/listen.ts';
import { postGraphQL, startStack, type Stack } from '../helpers/start-stack.ts';
import { CROSS_SOURCE, baseOf } from './helpers.ts';

/** Series of one metric in Prometheus text whose labels include every `labels` pair. */
function series(text: string, name: string, labels: Record<string, string>): number[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith(`${name}{`) && Object.entries(labels).every(([key, value]) => line.includes(`${key}="${value}"`)))
    .map((line) => Number(line.slice(line.lastIndexOf(' ') + 1)));
}

/**
 * Metric names and labels follow OpenTelemetry's HTTP semantic conventions in their Prometheus form,
 * so existing dashboards work; Node's process metrics sit beside them.
 */
describe('metrics by convention', () => {
  let stack: Stack;
  let text: string;
  beforeAll(async () => {
    stack = await startStack({ settings: { problemsCacheTtlSeconds: 0 } });
    expect((await stack.query(CROSS_SOURCE)).errors).toBeUndefined();
    text = await (await fetch(`${baseOf(stack.gatewayUrl)}/metrics`)).text();
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('http_server_request_duration_seconds: one GraphQL request, by method, status, route and scheme', () => {
    expect(text).toContain('# TYPE http_server_request_duration_seconds histogram');
    expect(
      series(text, 'http_server_request_duration_seconds_count', { http_request_method: 'POST', http_response_status_code: '200', http_route: '/graphql', url_scheme: 'http' }),
    ).toEqual([1]);
  });

  it('names the GraphQL path as the route in every lane, also when an app mounts the gateway under it (the URL the listener sees is then `/`)', async () => {
    const lanes: RequestLogEntry['lane'][] = [];
    const gateway = await createGateway({
      log: () => undefined,
      requestLog: (entry) => lanes.push(entry.lane),
      settings: { ...stack.upstreamSettings, rateLimitRequests: 1_000_000, translationRateLimitRequests: 1_000_000, responseCacheTtlSeconds: 0 },
    });
    // What Express's `app.use(gateway.graphqlEndpoint, gateway.listener)` does to the request.
    const mounted = await listen((request, response) => {
      Object.assign(request, { originalUrl: request.url, url: request.url!.slice(gateway.graphqlEndpoint.length) || '/' });
      gateway.listener(request, response);
    });
    try {
      const QUERY = 'query One($id: ID!) { problem(id: $id) { id } }';
      for (const id of ['p1001', 'p1002']) expect((await postGraphQL(`${mounted.url}/graphql`, QUERY, { id })).errors).toBeUndefined();
      // Both forwarded in front of yoga, the first request of the text as the second.
      expect(lanes).toEqual(['direct', 'direct']);
      const metrics = await gateway.metrics.metrics();
      expect(series(metrics, 'http_server_request_duration_seconds_count', { http_route: '/graphql', http_response_status_code: '200' })).toEqual([2]);
      expect(metrics).not.toMatch(/http_route="(?!\/graphql")/);
    } finally {
      await mounted.close();
      await gateway.close();
    }
  });

  it('http_client_request_duration_seconds: each upstream call, by method, status, server address and port', () => {
    const { hostname, port } = new URL(stack.upstreamSettings.problemsUrl!);
    const problems = series(text, 'http_client_request_duration_seconds_count', {
      http_request_method: 'POST',
      http_response_status_code: '200',
      server_address: hostname,
      server_port: port,
      gateway_service: 'problems',
    });
    expect(problems.reduce((sum, count) => sum + count, 0)).toBeGreaterThanOrEqual(1);
    expect(series(text, 'http_client_request_duration_seconds_count', { gateway_service: 'translation' }).length).toBeGreaterThanOrEqual(1);
  });

  it("Node's process metrics: CPU, memory, event-loop lag, GC", () => {
    for (const name of ['process_cpu_user_seconds_total', 'process_resident_memory_bytes', 'nodejs_eventloop_lag_seconds', 'nodejs_heap_size_used_bytes']) {
      expect(text).toContain(`# TYPE ${name} `);
    }
  });

  it("the gateway's own counters stay", () => {
    expect(text).toContain('# TYPE gateway_requests_total counter');
    expect(text).toContain('# TYPE gateway_translation_cache_hits_total counter');
    expect(text).toContain('# TYPE gateway_rate_limit_rejections_total counter');
  });
});
