import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { GatewaySettings } from '../../src/gateway/settings.ts';
import { connectRedis } from '../../src/gateway/redis/redis-connection.ts';
import { createRedisRateLimitStore } from '../../src/gateway/guards/redis-rate-limit-store.ts';
import { startRedis, type RedisServer } from '../helpers/redis-server.ts';
import { startStack, type Stack } from '../helpers/start-stack.ts';

const LIMIT = 20;
const KEYS = ['key-a', 'key-b'] as const;
// About 80 KB an answer, kept twice (whole, and as the problems answer): two clients' limits fill a 6 MiB Redis.
const FLOOD = /* GraphQL */ `{ problems(first: 100) { nodes { id title statement } } }`;
const MIB = 1024 * 1024;

// The fault: with no byte budget on the caches, a client's cacheable answers (junk variables make each
// one new) filled Redis and its eviction policy threw out the other client's rate-limit counter, so
// two clients taking turns were each admitted again and again within one window.
describe('memory pressure on Redis: rate limits hold', () => {
  let redis: RedisServer;
  let admin: Redis;
  let stack: Stack | undefined;
  const lines: { line: string; level?: string }[] = [];

  beforeAll(async () => {
    redis = await startRedis();
    admin = new Redis(redis.url);
  });
  afterEach(async () => {
    await stack?.close();
    stack = undefined;
    lines.length = 0;
    await admin.flushall();
  });
  afterAll(async () => {
    admin?.disconnect();
    await redis?.stop();
  });

  const start = async (policy: string, maxmemoryBytes: number, settings: Partial<GatewaySettings> = {}) => {
    await admin.config('SET', 'maxmemory', String(maxmemoryBytes));
    await admin.config('SET', 'maxmemory-policy', policy);
    stack = await startStack({
      log: (line, level) => void lines.push({ line, level }),
      settings: {
        redisUrl: redis.url,
        redisTimeoutMs: 150,
        gatewayApiKeys: [...KEYS],
        rateLimitRequests: LIMIT,
        // A window far longer than the test: every admission counts against the same window.
        rateLimitWindowSeconds: 3600,
        responseCacheTtlSeconds: 600,
        problemsCacheTtlSeconds: 600,
        ...settings,
      },
    });
    return stack;
  };

  /** The two clients take turns, each sending its limit and a few more, cacheable answers with junk variables. */
  const flood = async (gateway: Stack, rounds: number) => {
    const admitted: Record<string, number> = { 'key-a': 0, 'key-b': 0 };
    for (let round = 0; round < rounds; round++) {
      for (const key of KEYS) {
        for (let index = 0; index < LIMIT + 5; index++) {
          const answer = await gateway.query(FLOOD, { junk: randomUUID() }, { authorization: `Bearer ${key}` });
          if (answer.status === 200) admitted[key]++;
          else expect(answer.errors?.[0].extensions?.code).toBe('RATE_LIMITED');
        }
      }
    }
    return admitted;
  };
  const stat = async (section: string, name: string) => Number(new RegExp(`${name}:(\\d+)`).exec(await admin.info(section))?.[1]);

  it('MUST never admit a client past its limit under allkeys-lru when the caches are budgeted below maxmemory, and evict nothing', async () => {
    const gateway = await start('allkeys-lru', 6 * MIB, { redisCacheMaxBytes: MIB });
    const admitted = await flood(gateway, 4);
    expect(await stat('stats', 'evicted_keys')).toBe(0);
    expect(admitted).toEqual({ 'key-a': LIMIT, 'key-b': LIMIT });
    // The budgets held: the answers were kept, within them.
    const budgeted = Number(await admin.get('problems-translation-gateway:responses:bounded:bytes'));
    expect(budgeted).toBeGreaterThan(MIB / 2);
    expect(budgeted).toBeLessThanOrEqual(MIB);
    // allkeys-lru is still named as a risk, once.
    expect(lines.filter(({ line }) => line.includes('maxmemory-policy is allkeys-lru'))).toEqual([{ line: expect.stringContaining('set maxmemory-policy volatile-lru'), level: 'warn' }]);
  }, 120_000);

  it('MUST never admit a client past its limit under volatile-lru when Redis is smaller than the budgets: it evicts cache entries, never a counter', async () => {
    const gateway = await start('volatile-lru', 3 * MIB, { redisCacheMaxBytes: 16 * MIB });
    expect(await flood(gateway, 4)).toEqual({ 'key-a': LIMIT, 'key-b': LIMIT });
    // The pressure was real: Redis had to evict.
    expect(await stat('stats', 'evicted_keys')).toBeGreaterThan(0);
    expect(lines.filter(({ line }) => line.startsWith('redis: maxmemory 3 MiB, volatile-lru (below the budgets'))).toHaveLength(1);
  }, 120_000);

  it('MUST start with one line saying the policy could not be checked when Redis refuses CONFIG', async () => {
    await admin.acl('SETUSER', 'gateway', 'on', '>gateway-password', '~*', '&*', '+@all', '-config');
    try {
      await start('volatile-lru', 0, { redisUrl: `redis://gateway:gateway-password@127.0.0.1:${redis.port}` });
      expect(lines.filter(({ line }) => line.includes('maxmemory-policy'))).toEqual([
        { line: 'redis: could not read maxmemory-policy (CONFIG: NOPERM); rate-limit counters are safe from eviction under a volatile-* policy or noeviction, not under allkeys-*', level: 'info' },
      ]);
      // It serves on, rate limits in Redis.
      expect((await stack!.query('{ __typename }', undefined, { authorization: 'Bearer key-a' })).status).toBe(200);
    } finally {
      await admin.acl('DELUSER', 'gateway');
    }
  });

  it('MUST keep rate-limit counters without a TTL and delete windows that ended itself', async () => {
    const connection = await connectRedis({ url: redis.url, timeoutMs: 2000, log: () => undefined });
    try {
      const store = createRedisRateLimitStore(connection, { prefix: 'sweep-test' });
      await store.hit('ended-soon', 50);
      expect((await store.hit('lasting', 60_000)).count).toBe(1);
      const counters = await admin.keys('sweep-test:ratelimit:window:*');
      expect(counters).toHaveLength(2);
      for (const key of counters) expect(await admin.pttl(key)).toBe(-1);
      await new Promise((resolve) => setTimeout(resolve, 120));
      expect((await store.hit('lasting', 60_000)).count).toBe(2);
      expect(await admin.keys('sweep-test:ratelimit:window:*')).toHaveLength(1);
      expect(await admin.zcard('sweep-test:ratelimit:windows')).toBe(1);
    } finally {
      await connection.close();
    }
  });
});
