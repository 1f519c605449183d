import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryKeyValueStore } from '../../src/gateway/cache/key-value-store.ts';
import { usePersistedQueries } from '../../src/gateway/client/use-persisted-queries.ts';
import { startStack, type Stack } from '../helpers/start-stack.ts';

/** Automatic persisted queries at the protocol level: what a client sends, what the gateway answers. */
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('automatic persisted queries', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ settings: { responseCacheTtlSeconds: 60, problemsCacheTtlSeconds: 0 } });
  });
  afterAll(async () => {
    await stack?.close();
  });

  const extensionsFor = (hash: string) => ({ persistedQuery: { version: 1, sha256Hash: hash } });
  const post = (body: unknown) =>
    fetch(stack.gatewayUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const get = (hash: string) => fetch(`${stack.gatewayUrl}?extensions=${encodeURIComponent(JSON.stringify(extensionsFor(hash)))}`);

  it('answers an unknown hash with 404 PERSISTED_QUERY_NOT_FOUND, which no cache may keep', async () => {
    const response = await get(sha256('{ tags }'));
    expect(response.status).toBe(404);
    expect(response.headers.get('cache-control')).toContain('no-cache');
    const body = (await response.json()) as any;
    expect(body.errors).toEqual([{ message: 'PersistedQueryNotFound', extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' } }]);
  });

  it('stores a document under its hash, then runs the hash alone over GET and POST', async () => {
    const query = '{ problem(id: "p1004") { id } }';
    const registered = await post({ query, extensions: extensionsFor(sha256(query)) });
    expect(await registered.json()).toEqual({ data: { problem: { id: 'p1004' } } });
    expect(await (await get(sha256(query))).json()).toEqual({ data: { problem: { id: 'p1004' } } });
    expect(await (await post({ extensions: extensionsFor(sha256(query)) })).json()).toEqual({ data: { problem: { id: 'p1004' } } });
  });

  it('refuses a document whose hash is not its SHA-256, and stores nothing under that hash', async () => {
    const claimed = sha256('{ problem(id: "p1001") { id } }');
    const response = await post({ query: '{ problem(id: "p1005") { title } }', extensions: extensionsFor(claimed) });
    expect(response.status).toBe(400);
    expect(((await response.json()) as any).errors[0].extensions.code).toBe('PERSISTED_QUERY_HASH_MISMATCH');
    expect((await get(claimed)).status).toBe(404);
  });

  it('resolves the hash before the response cache: a repeated hash is answered from it, no upstream call', async () => {
    const query = '{ problem(id: "p1006") { id title } }';
    await post({ query, extensions: extensionsFor(sha256(query)) });
    stack.problems.resetStats();
    const first = await get(sha256(query));
    const second = await get(sha256(query));
    expect(await second.json()).toEqual(await first.json());
    expect(second.headers.get('etag')).toBeTruthy();
    expect(stack.problems.stats.requests).toBe(0);
  });

  it('with PERSISTED_QUERIES_TTL_SECONDS=0 says PersistedQueryNotSupported, and runs documents sent with a hash', async () => {
    const off = await stack.addGateway({ settings: { persistedQueriesTtlSeconds: 0 } });
    const query = '{ problem(id: "p1001") { id } }';
    const hashOnly = await fetch(off.gatewayUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ extensions: extensionsFor(sha256(query)) }) });
    expect(((await hashOnly.json()) as any).errors[0]).toMatchObject({ message: 'PersistedQueryNotSupported', extensions: { code: 'PERSISTED_QUERY_NOT_SUPPORTED' } });
    const withText = await fetch(off.gatewayUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query, extensions: extensionsFor(sha256(query)) }) });
    expect(await withText.json()).toEqual({ data: { problem: { id: 'p1001' } } });
  });

  it('keeps documents in the KeyValueStore it is given, under their hash', async () => {
    const store = createMemoryKeyValueStore();
    const plugin = usePersistedQueries({ store });
    const query = '{ tags }';
    const params: any = { query, extensions: extensionsFor(sha256(query)) };
    await plugin.onParams!({ params, request: new Request('http://gateway/graphql', { method: 'POST' }), setParams: () => undefined } as any);
    expect(await store.get(`apq:${sha256(query)}`)).toBe(query);
  });
});
