import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sharedStack } from '../helpers/shared-stack.ts';
import type { Stack } from '../helpers/start-stack.ts';
import { translatedTitleOf } from '../helpers/stand-in-translation.ts';

const PAGE = /* GraphQL */ `query Page($first: Int) { problems(first: $first) { nodes { id title translation(to: "es") { title } } } }`;

/**
 * A repeated query is answered without executing again, per credential, while keys, rate limits and
 * the request log still apply; errors and mutations are never reused.
 */
describe('response cache', () => {
  let stack: Stack;
  let cached: Awaited<ReturnType<Stack['addGateway']>>;
  const logged: { operation: string; upstreamCalls: { problems: number; translation: number }; lane?: string; requestId: string }[] = [];
  beforeAll(async () => {
    stack = await sharedStack('open');
    cached = await stack.addGateway({
      settings: { responseCacheTtlSeconds: 30, gatewayApiKeys: ['key-a', 'key-b', 'key-c'], rateLimitRequests: 8 },
      requestLog: (entry) => logged.push(entry),
    });
  });
  afterAll(async () => {
    await stack?.close();
  });

  const post = (body: unknown, key = 'key-a', headers: Record<string, string> = {}) =>
    fetch(cached.gatewayUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}`, ...headers },
      body: JSON.stringify(body),
    });

  it('answers the same query, variables and key from the cache: same bytes, no upstream call, logged', async () => {
    const first = await post({ query: PAGE, variables: { first: 3 } });
    const firstText = await first.text();
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('private, max-age=30');
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"[\w-]+"$/);
    const calls = () => stack.problems.stats.requests + stack.translation.stats.requests;
    const before = calls();
    const again = await post({ query: PAGE, variables: { first: 3 } });
    expect(await again.text()).toBe(firstText);
    expect(again.headers.get('etag')).toBe(etag);
    expect(calls()).toBe(before);
    expect(logged.at(-1)).toMatchObject({ operation: 'Page', upstreamCalls: { problems: 0, translation: 0 } });
    // Other variables or another key: executed again.
    await (await post({ query: PAGE, variables: { first: 4 } })).text();
    expect(calls()).toBeGreaterThan(before);
    const otherKey = calls();
    expect(await (await post({ query: PAGE, variables: { first: 3 } }, 'key-b')).text()).toBe(firstText);
    expect(calls()).toBeGreaterThan(otherKey);
  });

  it.each([
    ['the listener', (init: RequestInit) => fetch(cached.gatewayUrl, init)],
    ['gateway.fetch', (init: RequestInit) => cached.gateway.fetch(new Request(cached.gatewayUrl, init))],
  ])('answers the same bytes again from its bytes alone, never parsing them (%s)', async (way, send) => {
    // A text of its own for each way, so the first request is a miss; a key of its own, out of the others' rate limit.
    const body = JSON.stringify({ query: `${PAGE} # ${way}`, variables: { first: 2 } });
    const ask = (id: string) => send({ method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer key-c', 'x-request-id': id }, body });
    const parse = vi.spyOn(JSON, 'parse');
    try {
      const parsesOfBody = () => parse.mock.calls.filter(([text]) => text === body).length;
      const first = await (await ask(`parsed-${way.length}`)).text();
      // The spy sees the door parse a body it has not answered before.
      expect(parsesOfBody()).toBe(1);
      const again = await ask(`unparsed-${way.length}`);
      expect(await again.text()).toBe(first);
      expect(parsesOfBody()).toBe(1);
      expect(logged.find((entry) => entry.requestId === `unparsed-${way.length}`)).toMatchObject({ lane: 'cache', operation: 'Page' });
    } finally {
      parse.mockRestore();
    }
  });

  it('answers 304 with no body to a client that presents the ETag', async () => {
    const first = await post({ query: PAGE, variables: { first: 2 } });
    await first.text();
    const revalidated = await post({ query: PAGE, variables: { first: 2 } }, 'key-a', { 'if-none-match': first.headers.get('etag')! });
    expect(revalidated.status).toBe(304);
    expect(await revalidated.text()).toBe('');
  });

  it('takes the ETag in a list, weak, or `*` (any current answer) for 304; another tag gets the answer', async () => {
    const open = await stack.addGateway({ settings: { responseCacheTtlSeconds: 30 } });
    const send = (ifNoneMatch?: string) =>
      fetch(open.gatewayUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(ifNoneMatch ? { 'if-none-match': ifNoneMatch } : {}) },
        body: JSON.stringify({ query: PAGE, variables: { first: 2 } }),
      });
    const first = await send();
    await first.text();
    const etag = first.headers.get('etag')!;
    for (const given of [`"other", ${etag}`, `W/${etag}`, '*']) {
      const revalidated = await send(given);
      expect([given, revalidated.status, await revalidated.text()]).toEqual([given, 304, '']);
    }
    const other = await send('"other"');
    expect(other.status).toBe(200);
    expect((await other.json()).data.problems.nodes).toHaveLength(2);
  });

  it('still refuses a wrong key and still counts hits against the rate limit', async () => {
    expect((await post({ query: PAGE, variables: { first: 3 } }, 'wrong')).status).toBe(401);
    const statuses: number[] = [];
    for (let i = 0; i < 10; i += 1) statuses.push((await post({ query: PAGE, variables: { first: 3 } }, 'key-b')).status);
    expect(statuses).toContain(429);
  });

  it('never reuses an answer with errors (the schema has no mutations; only queries are stored)', async () => {
    const other = await stack.addGateway({ settings: { responseCacheTtlSeconds: 30 } });
    stack.translation.setFaults({ status: 500, routes: ['POST /translate'] });
    try {
      const failed = await other.query(PAGE, { first: 1 });
      expect(failed.errors?.length).toBeGreaterThan(0);
    } finally {
      stack.translation.clearFaults();
    }
    const healed = await other.query(PAGE, { first: 1 });
    expect(healed.errors).toBeUndefined();
    expect(healed.data.problems.nodes[0].translation.title).toBe(translatedTitleOf(healed.data.problems.nodes[0].id, 'es'));
  });
});
