import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedis, type RedisServer } from '../helpers/redis-server.ts';
import { PROBLEMS_KEY, TRANSLATION_KEY, startStack, type Stack } from '../helpers/start-stack.ts';

// Two gateways built by createGateway in this process, each with its own caches, translation batcher
// and HTTP server on port 0: replicas in all but the process. Only Redis is shared.
describe('several replicas, one Redis: shared caches', () => {
  let redis: RedisServer;
  let stack: Stack;
  let replicaB: Awaited<ReturnType<Stack['addGateway']>>;
  const CLIENT_KEY = 'client-secret-key-1234';
  const auth = { authorization: `Bearer ${CLIENT_KEY}` };

  beforeAll(async () => {
    redis = await startRedis();
    const settings = { redisUrl: redis.url, gatewayApiKeys: [CLIENT_KEY], problemsCacheTtlSeconds: 60 };
    stack = await startStack({ settings });
    replicaB = await stack.addGateway({ settings });
  });
  afterAll(async () => {
    await stack?.close();
    await redis?.stop();
  });

  // Calls for texts. The language list (GET /languages, to map `to` and `from`) each replica fetches
  // itself, once an hour: it is not what the shared caches share.
  const translationCalls = () => stack.translation.stats.requests - (stack.translation.stats.byRoute['GET /languages'] ?? 0);

  it('MUST serve a translation fetched through replica A from replica B with zero translation calls', async () => {
    const query = /* GraphQL */ `{ translation { translate(text: "Print the answer.", to: "es") { text } } }`;
    const before = translationCalls();
    const fromA = await stack.query(query, undefined, auth);
    expect(fromA.errors).toBeUndefined();
    expect(translationCalls()).toBe(before + 1);
    const fromB = await replicaB.query(query, undefined, auth);
    expect(fromB.data).toEqual(fromA.data);
    expect(translationCalls()).toBe(before + 1);
  });

  it('MUST serve a problem page with its translations, warmed on A, from B with zero calls to either service', async () => {
    const query = /* GraphQL */ `{ problems(first: 5, sort: { field: RATING }) { nodes { id translation(to: "fr") { title statement } } } }`;
    const fromA = await stack.query(query, undefined, auth);
    expect(fromA.errors).toBeUndefined();
    const calls = { problems: stack.problems.stats.requests, translation: translationCalls() };
    const fromB = await replicaB.query(query, undefined, auth);
    expect(fromB.data).toEqual(fromA.data);
    expect({ problems: stack.problems.stats.requests, translation: translationCalls() }).toEqual(calls);
  });

  it('MUST serve a cached problems answer across replicas, and never to another credential', async () => {
    const query = /* GraphQL */ `{ problem(id: "p1005") { id title rating } }`;
    const before = stack.problems.stats.requests;
    await replicaB.query(query, undefined, auth);
    expect(stack.problems.stats.requests).toBe(before + 1);
    await stack.query(query, undefined, auth);
    expect(stack.problems.stats.requests).toBe(before + 1);
  });

  it('MUST serve a whole answer cached through one replica from another without executing it (response cache)', async () => {
    // Problems answers uncached here, so only the response cache can spare the upstream call.
    const settings = { redisUrl: redis.url, gatewayApiKeys: [CLIENT_KEY], problemsCacheTtlSeconds: 0, responseCacheTtlSeconds: 60 };
    const [replicaC, replicaD] = [await stack.addGateway({ settings }), await stack.addGateway({ settings })];
    const query = /* GraphQL */ `{ problem(id: "p1042") { id title difficulty } }`;
    const before = stack.problems.stats.requests;
    const fromC = await replicaC.query(query, undefined, auth);
    expect(stack.problems.stats.requests).toBe(before + 1);
    const fromD = await replicaD.query(query, undefined, auth);
    expect(fromD.data).toEqual(fromC.data);
    expect(stack.problems.stats.requests).toBe(before + 1);
  });

  it('MUST keep every key under the prefix, with no client key, upstream key or text in keys or values', async () => {
    const client = new Redis(redis.url);
    try {
      const keys: string[] = [];
      for await (const batch of client.scanStream({ count: 1000 })) keys.push(...(batch as string[]));
      expect(keys.length).toBeGreaterThan(0);
      for (const key of keys) expect(key.startsWith('problems-translation-gateway:')).toBe(true);
      const kinds = new Set(keys.map((key) => key.split(':')[1]));
      expect([...kinds].sort()).toEqual(['problems', 'ratelimit', 'responses', 'translation']);
      const secrets = [CLIENT_KEY, PROBLEMS_KEY, TRANSLATION_KEY, 'Bearer'];
      const values: string[] = [];
      for (const key of keys) {
        const type = await client.type(key);
        values.push(type === 'string' ? ((await client.get(key)) ?? '') : '');
        // Each cache entry lives at most its cache's TTL; rate-limit counters carry none, so that no
        // volatile-* eviction policy may pick them (their script deletes ended windows).
        if (key.split(':')[1] === 'ratelimit') expect(await client.pttl(key)).toBe(-1);
        else expect(await client.pttl(key)).toBeGreaterThan(0);
      }
      for (const secret of secrets) {
        for (const key of keys) expect(key).not.toContain(secret);
        for (const value of values) expect(value).not.toContain(secret);
      }
      // Keys of texts are hashes, never the text itself.
      for (const key of keys) expect(key).not.toContain('Print the answer');
    } finally {
      client.disconnect();
    }
  });
});
