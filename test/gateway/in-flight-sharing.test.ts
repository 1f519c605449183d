import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { yogaAloneOf } from '../../src/gateway/composition/engine-serving.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen, type RunningServer } from '../../src/shared/listen.ts';
import { createProblemsService } from '../../src/upstreams/problems/service.ts';
import { lanesTaken } from '../helpers/ask-three-ways.ts';
import { until } from '../helpers/translate-calls.ts';
import { PROBLEMS_KEY, startStack, type Stack } from '../helpers/start-stack.ts';

/**
 * Identical requests in flight share one upstream call, whichever way the gateway answers them:
 * the node:http adapter's direct lane, yoga (through `gateway.fetch`), and Mesh's delegation with
 * the fast path off (the front door's delegated plans). The stores are off (problems cache TTL 0, translation cache
 * TTL 0), so only sharing in flight can spare a call, and the upstreams hold their answers until the
 * 50 requests have all reached the gateway and its thread has nothing left to do but wait for them
 * (everything runs in this thread): the requests are all in flight together however busy the machine.
 */
describe('identical requests in flight share one upstream call', () => {
  const CONCURRENT = 50;
  const PROBLEM = /* GraphQL */ `{ problem(id: "p1001") { id title } }`;
  const TRANSLATED = /* GraphQL */ `{ problem(id: "p1001") { id translation(to: "fr") { title } } }`;
  let stack: Stack;
  let slowProblems: RunningServer;
  let slowTranslation: RunningServer;
  const servers: RunningServer[] = [];
  /** GraphQL calls the slow problems service received. */
  let problemsCalls = 0;
  const translateCalls = () => stack.translation.stats.byRoute['POST /translate'] ?? 0;
  /** Requests that reached a gateway under test (its listener called, or its fetch). */
  let arrivals = 0;
  /** Upstream answers wait for it while a burst is under way; open otherwise. */
  let held: Promise<void> = Promise.resolve();
  const holding = (listener: (request: IncomingMessage, response: ServerResponse) => void) => (request: IncomingMessage, response: ServerResponse) =>
    void held.then(() => listener(request, response));

  beforeAll(async () => {
    stack = await startStack();
    const problems = holding(createProblemsService({ apiKey: PROBLEMS_KEY }).listener);
    slowProblems = await listen((request: IncomingMessage, response: ServerResponse) => {
      problemsCalls += 1;
      problems(request, response);
    });
    slowTranslation = await listen(holding(stack.translation.listener));
  });
  afterAll(async () => {
    for (const server of servers) await server.close();
    await stack?.close();
    await slowProblems?.close();
    await slowTranslation?.close();
  });

  const settings = { problemsCacheTtlSeconds: 0, translationCacheTtlSeconds: 0 };
  /**
   * A gateway over the slow problems service and the translation stand-in, its lanes read from its
   * request log: one per setting of the fast path, shared by the tests (with no store, a test leaves
   * nothing in it that another would find).
   */
  const gateways = new Map<boolean, Promise<Awaited<ReturnType<Stack['addGateway']>> & { laneOf: ReturnType<typeof lanesTaken>['laneOf'] }>>();
  function gatewayWith({ fastPathEnabled = true }: { fastPathEnabled?: boolean } = {}) {
    let gateway = gateways.get(fastPathEnabled);
    if (!gateway) {
      const lanes = lanesTaken();
      gateway = stack
        .addGateway({ requestLog: lanes.requestLog, settings: { ...settings, problemsUrl: slowProblems.url, translationUrl: slowTranslation.url, fastPathEnabled } })
        .then(async (added) => {
          // Its own listener, counting the requests that reach it.
          const counted = await listen((request: IncomingMessage, response: ServerResponse) => {
            arrivals += 1;
            added.gateway.listener(request, response);
          });
          servers.push(counted);
          return { ...added, gatewayUrl: `${counted.url}/graphql`, laneOf: lanes.laneOf };
        });
      gateways.set(fastPathEnabled, gateway);
    }
    return gateway;
  }
  const body = (query: string) => JSON.stringify({ query });
  const overHttp = (url: string, query: string) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: body(query) });
  /** A request through `fetch` of a gateway (or of its yoga), counted as it reaches it. */
  const counted = (target: { fetch(request: Request): Promise<Response> | Response }, query: string) => {
    arrivals += 1;
    return Promise.resolve(target.fetch(new Request('http://gateway.test/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: body(query) })));
  };
  /** Resolves once this thread's event loop spent a whole window waiting (no request left to work on). */
  async function loopIdle(): Promise<void> {
    for (;;) {
      const before = performance.eventLoopUtilization();
      await new Promise((resolve) => setTimeout(resolve, 50));
      if (performance.eventLoopUtilization(before).utilization < 0.05) return;
    }
  }
  /** Sends `CONCURRENT` identical requests at once, the upstreams holding their answers until all are in; all must answer without errors. */
  async function all(send: () => Promise<Response>): Promise<Response[]> {
    let release = () => undefined as void;
    held = new Promise((resolve) => (release = resolve));
    const start = arrivals;
    let pending: Promise<Response[]>;
    try {
      pending = Promise.all(Array.from({ length: CONCURRENT }, send));
      await until(() => arrivals - start >= CONCURRENT, 'every request at the gateway');
      await loopIdle();
    } finally {
      release();
      held = Promise.resolve();
    }
    const responses = await pending;
    for (const response of responses) {
      const payload = (await response.clone().json()) as { errors?: unknown; data?: { problem?: { id?: string } } };
      expect(payload.errors).toBeUndefined();
      expect(payload.data?.problem?.id).toBe('p1001');
    }
    return responses;
  }

  it('through the node:http listener, on the direct lane (the query planned at its first request)', async () => {
    const gateway = await gatewayWith();
    expect(gateway.laneOf(await overHttp(gateway.gatewayUrl, PROBLEM))).toBe('direct');
    problemsCalls = 0;
    const responses = await all(() => overHttp(gateway.gatewayUrl, PROBLEM));
    expect(responses.map((response) => gateway.laneOf(response))).toEqual(Array(CONCURRENT).fill('direct'));
    expect(problemsCalls).toBeGreaterThanOrEqual(1);
    expect(problemsCalls).toBeLessThanOrEqual(2);
  });

  it('through yoga alone, behind no front door', async () => {
    const gateway = await gatewayWith();
    problemsCalls = 0;
    const responses = await all(() => counted(yogaAloneOf(gateway.gateway), PROBLEM));
    expect(responses.map((response) => gateway.laneOf(response))).toEqual(Array(CONCURRENT).fill('yoga'));
    expect(problemsCalls).toBeGreaterThanOrEqual(1);
    expect(problemsCalls).toBeLessThanOrEqual(2);
  });

  it('through Mesh delegation (fast path off), run by the front door', async () => {
    const gateway = await gatewayWith({ fastPathEnabled: false });
    await overHttp(gateway.gatewayUrl, PROBLEM);
    problemsCalls = 0;
    const responses = await all(() => overHttp(gateway.gatewayUrl, PROBLEM));
    expect(responses.map((response) => gateway.laneOf(response))).toEqual(Array(CONCURRENT).fill('delegated'));
    expect(problemsCalls).toBeGreaterThanOrEqual(1);
    expect(problemsCalls).toBeLessThanOrEqual(2);
  });

  it.each([
    ['over HTTP', {}, 'http'],
    ['by gateway.fetch', {}, 'fetch'],
    ['with the fast path off', { fastPathEnabled: false }, 'http'],
  ] as const)('translation calls too: 50 identical requests for a translation, cold, make one POST /translate (%s)', async (_, more, way) => {
    const gateway = await gatewayWith(more);
    // The language list, fetched once per gateway, out of the count.
    await overHttp(gateway.gatewayUrl, /* GraphQL */ `{ translation { languages { code } } }`);
    stack.translation.resetStats();
    problemsCalls = 0;
    await all(() => (way === 'fetch' ? counted(gateway.gateway, TRANSLATED) : overHttp(gateway.gatewayUrl, TRANSLATED)));
    expect(translateCalls()).toBe(1);
    expect(problemsCalls).toBeLessThanOrEqual(2);
  });
});
