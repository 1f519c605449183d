import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRedis, type RedisConnection } from '../../src/gateway/redis/redis-connection.ts';
import { createRedisKeyValueStore } from '../../src/gateway/redis/redis-key-value-store.ts';
import type { CuratedEntry, CuratedSet } from '../../src/gateway/translation/curated/curated-directory.ts';
import { createCuratedPublisher, followCuratedSet } from '../../src/gateway/translation/curated/curated-sharing.ts';
import { startRedis, type RedisServer } from '../helpers/redis-server.ts';

/** A set of one translation whose statement is `size` characters long. */
function curatedSet(title: string, size: number): CuratedSet {
  const entry = { problemId: 'p1001', language: 'pt', file: 'p1001/pt.md', title, statement: 'x'.repeat(size), sourceSha256: 'a'.repeat(64), madeAt: 1 } as CuratedEntry;
  return new Map([['p1001', new Map([['pt', entry]])]]);
}

// The fault: each version of the set was published under a key of its own, for 24 h, so every change
// of the curated directory left a whole copy of the old set in Redis.
describe('curated sets shared through Redis', () => {
  let redis: RedisServer;
  let connection: RedisConnection;
  let admin: Redis;
  beforeAll(async () => {
    redis = await startRedis();
    connection = await connectRedis({ url: redis.url, timeoutMs: 2000, log: () => undefined });
    admin = new Redis(redis.url);
  });
  afterAll(async () => {
    admin?.disconnect();
    await connection?.close();
    await redis?.stop();
  });

  it('MUST keep one copy of the set in Redis however often it changes, and followers get the latest', async () => {
    const store = createRedisKeyValueStore(connection, { prefix: 'curated-test', namespace: 'curated-translations' });
    const publisher = createCuratedPublisher({ store, intervalMs: 60_000 });
    const received: string[] = [];
    const follower = followCuratedSet({ store, intervalMs: 60_000 }, (set, version) => received.push(`${version}:${set.get('p1001')?.get('pt')?.title}`));
    try {
      for (const version of ['v1', 'v2', 'v3', 'v4']) {
        publisher.publish(curatedSet(`Título ${version}`, 100_000), version);
        // Published in the background: wait until the version names it.
        for (let tries = 0; tries < 100 && (await store.get('version')) !== version; tries += 1) await new Promise((resolve) => setTimeout(resolve, 20));
        await follower.check();
      }
      expect(received).toEqual(['v1:Título v1', 'v2:Título v2', 'v3:Título v3', 'v4:Título v4']);
      const keys = await admin.keys('curated-test:curated-translations:*');
      expect(keys).toHaveLength(2);
      const sizes = await Promise.all(keys.map((key) => admin.strlen(key)));
      expect(Math.max(...sizes)).toBeGreaterThan(100_000);
      expect(sizes.reduce((sum, size) => sum + size, 0)).toBeLessThan(2 * 100_000);
    } finally {
      publisher.close();
      follower.close();
    }
  });
});
