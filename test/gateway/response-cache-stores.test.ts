import { getOperationAST, parse } from 'graphql';
import { describe, expect, it, vi } from 'vitest';
import { createMemoryKeyValueStore, type KeyValueStore } from '../../src/gateway/stores/key-value-store.ts';
import { createResponseCache } from '../../src/gateway/execution/response-cache/response-cache.ts';

const QUERY = getOperationAST(parse('query Page { problems { nodes { id } } }'))!;

/** A real in-process store standing for Redis, counting what is asked of it. */
function countedStore(): KeyValueStore & { gets: number; sets: number; failing: boolean } {
  const store = createMemoryKeyValueStore();
  const counted = {
    gets: 0,
    sets: 0,
    failing: false,
    get: (key: string) => {
      counted.gets++;
      return counted.failing ? Promise.reject(new Error('store down')) : store.get(key);
    },
    set: (key: string, value: string, ttlMs: number) => {
      counted.sets++;
      return counted.failing ? Promise.reject(new Error('store down')) : store.set(key, value, ttlMs);
    },
  };
  return counted;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('response cache: answers held in this process, in front of a shared store', () => {
  it('keeps answers in this process alone when there is no shared store', async () => {
    const cache = createResponseCache({ ttlMs: 30_000, translationOnlyTtlMs: 30_000 });
    const key = cache.keyOf('Bearer a', { query: 'query Page { problems { nodes { id } } }' });
    expect(await cache.read(key)).toBeUndefined();
    const kept = cache.keep(key, QUERY, { data: { problems: { nodes: [{ id: '1' }] } } });
    expect(await cache.read(key)).toEqual(kept);
    expect((await cache.read(key))?.body.toString()).toBe('{"data":{"problems":{"nodes":[{"id":"1"}]}}}');
  });

  it('serves an answer it kept without asking the shared store, and writes it there for the other replicas', async () => {
    const shared = countedStore();
    const replicaA = createResponseCache({ sharedStore: shared, ttlMs: 30_000, translationOnlyTtlMs: 30_000 });
    const kept = replicaA.keep('k', QUERY, { data: { n: 1 } });
    expect(shared.sets).toBe(1);
    expect(await replicaA.read('k')).toEqual(kept);
    expect(shared.gets).toBe(0);

    // Another replica finds it in the shared store once, then holds it too.
    const replicaB = createResponseCache({ sharedStore: shared, ttlMs: 30_000, translationOnlyTtlMs: 30_000 });
    expect(await replicaB.read('k')).toEqual(kept);
    expect(await replicaB.read('k')).toEqual(kept);
    expect(shared.gets).toBe(1);
  });

  it('never serves an answer past its TTL, from either place', async () => {
    // An answer's expiry is a wall-clock time (shared stores compare it across replicas): the test moves that clock.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const shared = countedStore();
      const cache = createResponseCache({ sharedStore: shared, ttlMs: 30_000, translationOnlyTtlMs: 30_000 });
      cache.keep('k', QUERY, { data: { n: 1 } });
      vi.advanceTimersByTime(29_999);
      expect(await cache.read('k')).toMatchObject({ body: Buffer.from(JSON.stringify({ data: { n: 1 } })) });
      expect(shared.gets).toBe(0);
      vi.advanceTimersByTime(2);
      // Past it, in this process and in the shared store (which still holds the entry: its expiry is read, not trusted to the store).
      expect(await cache.read('k')).toBeUndefined();
      expect(shared.gets).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('serves what it holds while the shared store is down, and treats the rest as misses', async () => {
    const shared = countedStore();
    const cache = createResponseCache({ sharedStore: shared, ttlMs: 30_000, translationOnlyTtlMs: 30_000 });
    const kept = cache.keep('held', QUERY, { data: { n: 1 } });
    shared.failing = true;
    expect(await cache.read('held')).toEqual(kept);
    expect(await cache.read('elsewhere')).toBeUndefined();
    expect(cache.keep('new', QUERY, { data: { n: 2 } })).toBeDefined();
  });

  it('holds no more than its memory bound here, and finds the rest in the shared store', async () => {
    const shared = countedStore();
    // Room for about two answers of this size (a byte a byte of body, and their headers).
    const cache = createResponseCache({ sharedStore: shared, maxLocalBytes: 2 * (1000 + 400), ttlMs: 30_000, translationOnlyTtlMs: 30_000 });
    const texts = ['a', 'b', 'c'].map((letter) => letter.repeat(1000));
    const kept = texts.map((text, index) => cache.keep(`k${index}`, QUERY, { data: { text } }));
    await sleep(0);
    expect(await cache.read('k2')).toEqual(kept[2]);
    expect(shared.gets).toBe(0);
    // The oldest was pushed out of this process: it comes from the shared store.
    expect(await cache.read('k0')).toEqual(kept[0]);
    expect(shared.gets).toBe(1);
  });

  it('keeps nothing when turned off (TTL 0)', async () => {
    const shared = countedStore();
    const cache = createResponseCache({ sharedStore: shared, ttlMs: 0, translationOnlyTtlMs: 0 });
    expect(cache.enabled).toBe(false);
    expect(cache.keep('k', QUERY, { data: { n: 1 } })).toBeUndefined();
    expect(await cache.read('k')).toBeUndefined();
    expect(shared.sets).toBe(0);
  });

  it('keeps an answer ready to write: its bytes and the headers that depend on it alone, the same from the shared store', async () => {
    const shared = countedStore();
    const replicaA = createResponseCache({ sharedStore: shared, ttlMs: 30_000, translationOnlyTtlMs: 30_000 });
    const kept = replicaA.keep('k', QUERY, { data: { n: 1 } }, { contentLanguage: 'es', negotiated: true })!;
    expect(kept.body).toEqual(Buffer.from('{"data":{"n":1}}'));
    expect(kept.headers).toEqual(['etag', kept.etag, 'vary', 'Authorization, Accept-Language', 'content-language', 'es', 'content-length', '16']);
    await sleep(0);
    const replicaB = createResponseCache({ sharedStore: shared, ttlMs: 30_000, translationOnlyTtlMs: 30_000 });
    expect(await replicaB.read('k')).toEqual(kept);
    // Held here once read: the same object, ready, without a promise.
    expect(replicaB.peek('k')).toBe(replicaB.peek('k'));
  });
});

describe('response cache: requests known by their bytes', () => {
  it('tells requests apart by their bytes, method, credential and languages, never by less', () => {
    const cache = createResponseCache({ ttlMs: 30_000, translationOnlyTtlMs: 30_000 });
    const raw = '{"query":"{ translation { x } }"}';
    const first = cache.rawKeyOf('Bearer a', 'POST', raw, 'es');
    expect(cache.rawKeyOf('Bearer a', 'POST', raw, 'es')).toBe(first);
    const others = [
      cache.rawKeyOf('Bearer b', 'POST', raw, 'es'),
      cache.rawKeyOf(undefined, 'POST', raw, 'es'),
      cache.rawKeyOf('', 'POST', raw, 'es'),
      cache.rawKeyOf('Bearer a', 'POST', raw, 'fr'),
      cache.rawKeyOf('Bearer a', 'POST', raw, ''),
      cache.rawKeyOf('Bearer a', 'GET', raw, 'es'),
      cache.rawKeyOf('Bearer a', 'POST', `${raw} `, 'es'),
    ];
    expect(new Set([first, ...others]).size).toBe(others.length + 1);
  });

  it('never gives a new credential the raw keys of one it numbered before, however many it has seen', () => {
    const cache = createResponseCache({ ttlMs: 30_000, translationOnlyTtlMs: 30_000 });
    const keys = new Set(Array.from({ length: 1000 }, (_, index) => cache.rawKeyOf(`Bearer ${index}`, 'POST', '{}')));
    expect(keys.size).toBe(1000);
    // Still numbered as first seen while its number is held.
    expect(cache.rawKeyOf('Bearer 999', 'POST', '{}')).toBe(cache.rawKeyOf('Bearer 999', 'POST', '{}'));
  });

  it('forgets a request that may translate once the translations in force change, and only such a one', () => {
    let variant = 'v1';
    const cache = createResponseCache({ ttlMs: 30_000, translationOnlyTtlMs: 30_000, translationVariant: () => variant });
    const translating = { query: '{ translation { x } }' };
    const plain = { query: '{ problems { id } }' };
    const rawKeys = [translating, plain].map((params) => cache.rawKeyOf('Bearer a', 'POST', JSON.stringify(params), 'es'));
    cache.remember(rawKeys[0], { key: cache.keyOf('Bearer a', translating, 'es'), params: translating, query: translating.query, rawLength: 30 });
    cache.remember(rawKeys[1], { key: cache.keyOf('Bearer a', plain, 'es'), params: plain, query: plain.query, rawLength: 30 });
    expect(cache.recall(rawKeys[0])?.params).toBe(translating);
    variant = 'v2';
    expect(cache.recall(rawKeys[0])).toBeUndefined();
    expect(cache.recall(rawKeys[1])?.params).toBe(plain);
  });

  it('recalls what it was told of a request, within its memory bound', () => {
    const cache = createResponseCache({ ttlMs: 30_000, translationOnlyTtlMs: 30_000, maxKnownRequestBytes: 5000 });
    const rawKeys = ['a', 'b', 'c'].map((letter) => cache.rawKeyOf('Bearer a', 'POST', letter));
    // Each counts 2 × (its raw key, its key of 43 and 1000 characters) + 128: two fit in 5000.
    rawKeys.forEach((rawKey, index) => cache.remember(rawKey, { key: cache.keyOf('Bearer a', { query: `{ n${index} }` }), params: { query: `{ n${index} }` }, query: `{ n${index} }`, rawLength: 1000 }));
    expect(cache.recall(rawKeys[2])).toEqual({ key: cache.keyOf('Bearer a', { query: '{ n2 }' }), params: { query: '{ n2 }' }, query: '{ n2 }', rawLength: 1000 });
    expect(cache.recall(rawKeys[1])?.params).toEqual({ query: '{ n1 }' });
    expect(cache.recall(rawKeys[0])).toBeUndefined();
  });
});
