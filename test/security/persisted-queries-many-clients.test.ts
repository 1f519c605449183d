import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedis, type RedisServer } from '../helpers/redis-server.ts';
import { startStack } from '../helpers/start-stack.ts';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const extensionsFor = (query: string) => ({ persistedQuery: { version: 1, sha256Hash: sha256(query) } });

// Each client's share of the persisted-queries store is a sixteenth. The fault: with more than
// sixteen clients each filling its share, the whole store overflowed and its oldest entries went,
// other clients' among them, where the docs promise a client's registrations only ever drop its own.
describe('automatic persisted queries: more than sixteen clients never push out another\'s', () => {
  const VICTIM = 'apq-victim';
  const FLOODERS = Array.from({ length: 20 }, (_, index) => `apq-flooder-${index}`);
  /** A distinct valid document of about 30,000 characters (a comment is free of the token limit). */
  const bulky = (owner: string, index: number) => `{ tags } # ${owner} ${index} ${'z'.repeat(30_000)}`;
  const victims = ['{ problem(id: "p1002") { id } }', '{ problem(id: "p1003") { id title } }'];
  let redis: RedisServer;

  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  async function flood(url: string) {
    const send = (body: unknown, key: string) =>
      fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` }, body: JSON.stringify(body) }).then(async (response) => {
        await response.text();
        return response.status;
      });
    for (const query of victims) expect(await send({ query, extensions: extensionsFor(query) }, VICTIM)).toBe(200);
    // 20 clients × 17 documents of 30,000 characters: each over its share, all together over the store.
    for (const key of FLOODERS) {
      for (let index = 0; index < 17; index += 1) expect(await send({ query: bulky(key, index), extensions: extensionsFor(bulky(key, index)) }, key)).toBe(200);
    }
    return {
      victim: await Promise.all(victims.map((query) => send({ extensions: extensionsFor(query) }, VICTIM))),
      // A flooder's latest is kept while the store has room for it: the first flooders' are.
      firstFloodersLatest: await send({ extensions: extensionsFor(bulky(FLOODERS[0], 16)) }, FLOODERS[0]),
    };
  }

  for (const where of ['in process', 'in Redis'] as const) {
    it(`MUST keep a client's documents whatever twenty other clients register (${where})`, async () => {
      const stack = await startStack({
        settings: { gatewayApiKeys: [VICTIM, ...FLOODERS], responseCacheTtlSeconds: 0, ...(where === 'in Redis' ? { redisUrl: redis.url, redisTimeoutMs: 150 } : {}) },
      });
      try {
        expect(await flood(stack.gatewayUrl)).toEqual({ victim: [200, 200], firstFloodersLatest: 200 });
      } finally {
        await stack.close();
      }
    }, 120_000);
  }
});
