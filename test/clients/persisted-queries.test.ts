import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryKeyValueStore } from '../../src/gateway/stores/key-value-store.ts';
import { usePersistedQueries } from '../../src/gateway/guards/persisted-documents.ts';
import { startRedis } from '../helpers/redis-server.ts';
import { startStack, type Stack } from '../helpers/start-stack.ts';

/** Automatic persisted queries at the protocol level: what a client sends, what the gateway answers. */
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const extensionsFor = (hash: string) => ({ persistedQuery: { version: 1, sha256Hash: hash } });

describe('automatic persisted queries', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ settings: { responseCacheTtlSeconds: 60, problemsCacheTtlSeconds: 0 } });
  });
  afterAll(async () => {
    await stack?.close();
  });

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
    // The cached answer's validator: a SHA-256 of its body, the same for both.
    expect(second.headers.get('etag')).toMatch(/^"[\w-]{43}"$/);
    expect(second.headers.get('etag')).toBe(first.headers.get('etag'));
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

  it('keeps documents in the KeyValueStore it is given, under their hash, once they are valid', async () => {
    const store = createMemoryKeyValueStore();
    const plugin = usePersistedQueries({ store });
    const query = '{ tags }';
    const params: any = { query, extensions: extensionsFor(sha256(query)) };
    const request = new Request('http://gateway/graphql', { method: 'POST' });
    await plugin.onParams!({ params, request, setParams: () => undefined } as any);
    expect(await store.get(`apq:${sha256(query)}`)).toBeUndefined();
    const validated = (plugin.onValidate as any)({ context: { request, params } });
    // Found again later by its hash alone: not taken for a registration.
    expect((plugin.onValidate as any)({ context: { request, params: { query } } })).toBeUndefined();
    validated({ valid: true });
    await new Promise((resolve) => setImmediate(resolve));
    expect(await store.get(`apq:${sha256(query)}`)).toBe(query);
  });

  /** Registers `query` with its hash, then asks for the hash alone: the status of each. */
  const registerThenAsk = async (query: string) => {
    const send = (body: unknown) =>
      fetch(stack.gatewayUrl, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' }, body: JSON.stringify(body) });
    const registered = await send({ query, extensions: extensionsFor(sha256(query)) });
    await registered.text();
    const asked = await send({ extensions: extensionsFor(sha256(query)) });
    await asked.text();
    return [registered.status, asked.status];
  };

  it('stores nothing that does not parse within the operation limits or does not validate', async () => {
    // Over the token limit (MAX_TOKENS 2000): refused while parsing.
    expect(await registerThenAsk(`{ ${'tags '.repeat(2100)}}`)).toEqual([400, 404]);
    // A field the schema does not have.
    expect(await registerThenAsk('{ noSuchField }')).toEqual([400, 404]);
    // Too deep (MAX_DEPTH).
    expect(await registerThenAsk(`{ problems { nodes { ${'statistics { '.repeat(20)}acceptanceRate${' }'.repeat(20)} } } }`)).toEqual([400, 404]);
  });

  it('runs a document longer than it stores, without storing it', async () => {
    // Comments cost no token: only the document's length bounds it.
    const long = `{ tags } # ${'x'.repeat(40 * 1024)}`;
    expect(await registerThenAsk(long)).toEqual([200, 404]);
  });
});

/** One client registering many documents keeps them within its share: the others' stay. */
describe('automatic persisted queries: one client cannot push out the others', () => {
  const KEYS = ['apq-fair-client-a', 'apq-fair-client-b'];
  const as = (key: string) => ({ authorization: `Bearer ${key}` });
  /** A distinct valid document of about 30,000 characters (a comment is free of the token limit). */
  const bulky = (index: number) => `{ tags } # ${index} ${'y'.repeat(30_000)}`;

  async function flood(url: string) {
    const send = (body: unknown, key: string) =>
      fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...as(key) }, body: JSON.stringify(body) }).then(async (response) => {
        await response.text();
        return response.status;
      });
    const others = '{ problem(id: "p1002") { id } }';
    expect(await send({ query: others, extensions: extensionsFor(sha256(others)) }, KEYS[1])).toBe(200);
    // 200 documents of 30,000 characters: 6 MB as text, 12 MiB as in-process strings, over the whole 8 MiB store.
    for (let index = 0; index < 200; index += 1) expect(await send({ query: bulky(index), extensions: extensionsFor(sha256(bulky(index))) }, KEYS[0])).toBe(200);
    return {
      others: await send({ extensions: extensionsFor(sha256(others)) }, KEYS[1]),
      latest: await send({ extensions: extensionsFor(sha256(bulky(199))) }, KEYS[0]),
      first: await send({ extensions: extensionsFor(sha256(bulky(0))) }, KEYS[0]),
    };
  }

  it('in process', async () => {
    const stack = await startStack({ settings: { gatewayApiKeys: KEYS, responseCacheTtlSeconds: 0 } });
    try {
      expect(await flood(stack.gatewayUrl)).toEqual({ others: 200, latest: 200, first: 404 });
    } finally {
      await stack.close();
    }
  });

  it('in Redis, which grows by the client\'s share only', async () => {
    const redis = await startRedis();
    const stack = await startStack({ settings: { gatewayApiKeys: KEYS, responseCacheTtlSeconds: 0, redisUrl: redis.url } });
    const client = new Redis(redis.url);
    try {
      const usedMemory = async () => Number(/used_memory:(\d+)/.exec(await client.info('memory'))![1]);
      const before = await usedMemory();
      expect(await flood(stack.gatewayUrl)).toEqual({ others: 200, latest: 200, first: 404 });
      const grown = (await usedMemory()) - before;
      console.info(`Redis grew by ${grown} bytes for 200 registrations of 30,000 characters`);
      // One client's share of the 8 MiB budget is 512 KiB; Redis' own overhead on top is small.
      expect(grown).toBeLessThan(1.5 * 1024 * 1024);
    } finally {
      client.disconnect();
      await stack.close();
      await redis.stop();
    }
  });
});
