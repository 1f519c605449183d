import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRedis, type RedisConnection } from '../../src/gateway/redis/redis-connection.ts';
import { createRedisRateLimitStore } from '../../src/gateway/guards/redis-rate-limit-store.ts';
import { createRedisTranslationCache } from '../../src/gateway/translation/redis-translation-cache.ts';
import type { TranslationKey } from '../../src/gateway/translation/translation-cache.ts';
import { startRedis, type RedisServer } from '../helpers/redis-server.ts';

/**
 * The translation cache in Redis keeps within its byte budget, whatever number of distinct texts
 * clients send: Redis does not grow past it, and under an eviction policy the rate-limit counters
 * sharing that Redis are never pushed out by translations.
 */
describe('translation cache in Redis: bounded', () => {
  let redis: RedisServer;
  let connection: RedisConnection;
  let client: Redis;
  const prefix = 'bound-test';

  beforeAll(async () => {
    redis = await startRedis();
    connection = await connectRedis({ url: redis.url, timeoutMs: 2000, log: () => undefined });
    client = new Redis(redis.url);
  });
  afterAll(async () => {
    client?.disconnect();
    await connection?.close();
    await redis?.stop();
  });

  const usedMemory = async () => Number(/used_memory:(\d+)/.exec(await client.info('memory'))![1]);
  const key = (text: string): TranslationKey => ({ from: 'en', to: 'es', format: 'text', text });
  /** `count` distinct texts of about 500 characters each, written in calls of 50 as pages would. */
  async function flood(cache: ReturnType<typeof createRedisTranslationCache>, tag: string, count: number) {
    for (let start = 0; start < count; start += 50) {
      const entries = Array.from({ length: Math.min(50, count - start) }, (_, offset) => {
        const text = `${tag} ${start + offset} ${'z'.repeat(480)}`;
        return [key(text), { text: `es ${text}`, detectedLanguage: null }] as [TranslationKey, { text: string; detectedLanguage: null }];
      });
      await cache.setMany(entries);
    }
  }

  it('keeps Redis within the budget, the newest translations kept and the oldest gone', async () => {
    const cache = createRedisTranslationCache(connection, { prefix, ttlMs: 60_000, maxBytes: 512 * 1024 });
    const before = await usedMemory();
    await flood(cache, 'one', 10_000);
    const grown = (await usedMemory()) - before;
    console.info(`Redis grew by ${grown} bytes for 10,000 distinct translations of ~500 characters (budget 512 KiB)`);
    expect(grown).toBeLessThan(2 * 512 * 1024);
    const [oldest, newest] = await cache.getMany([key(`one 0 ${'z'.repeat(480)}`), key(`one 9999 ${'z'.repeat(480)}`)]);
    expect(oldest).toBeUndefined();
    expect(newest?.text).toMatch(/^es one 9999/);
    // Every key still expires.
    const keys: string[] = [];
    for await (const batch of client.scanStream({ match: `${prefix}:*`, count: 1000 })) keys.push(...(batch as string[]));
    for (const each of keys.slice(0, 200)) expect(await client.pttl(each)).toBeGreaterThan(0);
  });

  it('never pushes out rate-limit counters under an eviction policy', async () => {
    await client.flushall();
    await client.config('SET', 'maxmemory', String((await usedMemory()) + 3 * 1024 * 1024));
    await client.config('SET', 'maxmemory-policy', 'allkeys-lru');
    try {
      const counters = createRedisRateLimitStore(connection, { prefix });
      const cache = createRedisTranslationCache(connection, { prefix, ttlMs: 60_000, maxBytes: 1024 * 1024 });
      expect((await counters.hit('client-a', 60_000)).count).toBe(1);
      // About 10 MB of distinct translations against 3 MiB of room.
      await flood(cache, 'two', 20_000);
      expect((await counters.hit('client-a', 60_000)).count).toBe(2);
      expect(Number(/evicted_keys:(\d+)/.exec(await client.info('stats'))![1])).toBe(0);
    } finally {
      await client.config('SET', 'maxmemory', '0');
    }
  });
});
