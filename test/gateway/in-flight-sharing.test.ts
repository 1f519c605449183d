import type { IncomingMessage, ServerResponse } from 'node:http';
import { yogaAloneOf } from '../../src/gateway/composition/engine-serving.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen, type RunningServer } from '../../src/shared/listen.ts';
import { createProblemsService } from '../../src/upstreams/problems/service.ts';
import { lanesTaken } from '../helpers/ask-three-ways.ts';
import { PROBLEMS_KEY, startStack, type Stack } from '../helpers/start-stack.ts';

/**
 * Identical requests in flight share one upstream call, whichever way the gateway answers them:
 * the node:http adapter's direct lane, yoga (through `gateway.fetch`), and Mesh's delegation with
 * the fast path off (the front door's delegated plans). The stores are off (problems cache TTL 0, translation cache
 * TTL 0), so only sharing in flight can spare a call, and the upstreams answer slowly, so the 50
 * requests are all in flight together.
 */
describe('identical requests in flight share one upstream call', () => {
  const CONCURRENT = 50;
  const PROBLEM = /* GraphQL */ `{ problem(id: "p1001") { id title } }`;
  const TRANSLATED = /* GraphQL */ `{ problem(id: "p1001") { id translation(to: "fr") { title } } }`;
  let stack: Stack;
  let slowProblems: RunningServer;
  /** GraphQL calls the slow problems service received. */
  let problemsCalls = 0;
  const translateCalls = () => stack.translation.stats.byRoute['POST /translate'] ?? 0;

  beforeAll(async () => {
    stack = await startStack();
    const problems = createProblemsService({ apiKey: PROBLEMS_KEY });
    slowProblems = await listen((request: IncomingMessage, response: ServerResponse) => {
      problemsCalls += 1;
      setTimeout(() => problems.listener(request, response), 150);
    });
  });
  afterAll(async () => {
    await stack?.close();
    await slowProblems?.close();
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
      gateway = stack.addGateway({ requestLog: lanes.requestLog, settings: { ...settings, problemsUrl: slowProblems.url, fastPathEnabled } }).then((added) => ({ ...added, laneOf: lanes.laneOf }));
      gateways.set(fastPathEnabled, gateway);
    }
    return gateway;
  }
  const body = (query: string) => JSON.stringify({ query });
  const overHttp = (url: string, query: string) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: body(query) });
  /** Sends `CONCURRENT` identical requests at once; all must answer without errors. */
  async function all(send: () => Promise<Response>): Promise<Response[]> {
    const responses = await Promise.all(Array.from({ length: CONCURRENT }, send));
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
    const responses = await all(async () => yogaAloneOf(gateway.gateway).fetch(new Request('http://gateway.test/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: body(PROBLEM) })));
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
    stack.translation.setFaults({ latencyMs: 150, routes: ['POST /translate'] });
    stack.translation.resetStats();
    problemsCalls = 0;
    try {
      await all(() =>
        way === 'fetch'
          ? gateway.gateway.fetch(new Request('http://gateway.test/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: body(TRANSLATED) }))
          : overHttp(gateway.gatewayUrl, TRANSLATED),
      );
    } finally {
      stack.translation.clearFaults();
    }
    expect(translateCalls()).toBe(1);
    expect(problemsCalls).toBeLessThanOrEqual(2);
  });
});
