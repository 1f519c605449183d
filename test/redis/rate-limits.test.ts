import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRedis, type RedisConnection } from '../../src/gateway/redis/redis-connection.ts';
import { createRedisRateLimitStore } from '../../src/gateway/guards/redis-rate-limit-store.ts';
import { startRedis, type RedisServer } from '../helpers/redis-server.ts';
import { startStack, type Stack } from '../helpers/start-stack.ts';

describe('several replicas, one Redis: global rate limits', () => {
  let redis: RedisServer;
  let stack: Stack;
  let replicaB: Awaited<ReturnType<Stack['addGateway']>>;

  beforeAll(async () => {
    redis = await startRedis();
    // The longest budget allowed, so a loaded test machine does not turn a slow hit into a per-replica one.
    const settings = { redisUrl: redis.url, redisTimeoutMs: 150, rateLimitRequests: 5, rateLimitWindowSeconds: 60 };
    stack = await startStack({ settings });
    replicaB = await stack.addGateway({ settings });
  });
  afterAll(async () => {
    await stack?.close();
    await redis?.stop();
  });

  it('MUST admit exactly 5 of 40 concurrent requests spread over two replicas (limit 5 per window)', async () => {
    const query = /* GraphQL */ `{ problem(id: "p1001") { id } }`;
    const answers = await Promise.all(Array.from({ length: 40 }, (_, index) => (index % 2 === 0 ? stack : replicaB).query(query)));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(35);
    for (const answer of answers.filter((each) => each.status === 429)) expect(answer.errors?.[0].extensions?.code).toBe('RATE_LIMITED');
  });

  it('MUST count every hit exactly once under concurrency, from several connections (the script is atomic)', async () => {
    const connections: RedisConnection[] = [];
    try {
      for (let index = 0; index < 4; index++) connections.push(await connectRedis({ url: redis.url, timeoutMs: 2000, log: () => undefined }));
      const stores = connections.map((connection) => createRedisRateLimitStore(connection, { prefix: 'atomicity-test' }));
      const hits = await Promise.all(Array.from({ length: 400 }, (_, index) => stores[index % stores.length].hit('client', 60_000)));
      const counts = hits.map((hit) => hit.count).sort((a, b) => a - b);
      expect(counts).toEqual(Array.from({ length: 400 }, (_, index) => index + 1));
      for (const hit of hits) expect(hit.resetInMs).toBeGreaterThan(0);
      expect(hits.every((hit) => hit.resetInMs <= 60_000)).toBe(true);
    } finally {
      for (const connection of connections) await connection.close();
    }
  });

  it('MUST start a new window when the old one expires (the expiry is set with the first hit)', async () => {
    const connection = await connectRedis({ url: redis.url, timeoutMs: 2000, log: () => undefined });
    try {
      const store = createRedisRateLimitStore(connection, { prefix: 'window-test' });
      expect((await store.hit('client', 150)).count).toBe(1);
      expect((await store.hit('client', 150)).count).toBe(2);
      await new Promise((resolve) => setTimeout(resolve, 250));
      expect((await store.hit('client', 150)).count).toBe(1);
    } finally {
      await connection.close();
    }
  });
});
