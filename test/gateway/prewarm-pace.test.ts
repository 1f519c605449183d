import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRedis, type RedisConnection } from '../../src/gateway/redis/redis-connection.ts';
import { createRedisPace } from '../../src/gateway/translation/prewarm/redis-pace.ts';
import { startRedis, type RedisServer } from '../helpers/redis-server.ts';

/** The pace prewarming's replicas share (SharedPace in Redis), asked directly from two connections as two replicas would. */
describe('the shared prewarming pace (Redis)', () => {
  let redis: RedisServer;
  let connections: RedisConnection[];

  beforeAll(async () => {
    redis = await startRedis();
    connections = await Promise.all([0, 1].map(() => connectRedis({ url: redis.url, timeoutMs: 500, log: () => undefined })));
  });
  afterAll(async () => {
    for (const connection of connections ?? []) await connection.close();
    await redis?.stop();
  });

  const pacesFor = (namespace: string) => connections.map((connection) => createRedisPace(connection, { prefix: 'pace-test', namespace }));

  it('grants no more than the rate to pages asking at the same moment from two replicas', async () => {
    const paces = pacesFor('at-once');
    const asks = Array.from({ length: 40 }, (_, index) => paces[index % 2].reserve(`page-${index}`, 1, 5, 60_000));
    const waits = await Promise.all(asks);
    const granted = waits.filter((wait) => wait === 0).length;
    console.log(`40 pages of 1 call asked at once over two connections at 5 calls/s: ${granted} granted`);
    expect(granted).toBe(5);
    // Those not granted are told to ask again shortly: what stands in their way is still in flight.
    expect(waits.filter((wait) => wait > 0).every((wait) => wait <= 100)).toBe(true);
  });

  it('counts a page while in flight, then the calls it made for a second from its end, overdraft included', async () => {
    const [a, b] = pacesFor('settle');
    expect(await a.reserve('a1', 2, 3, 60_000)).toBe(0);
    // One call left while a1 is in flight.
    expect(await b.reserve('b1', 2, 3, 60_000)).toBeGreaterThan(0);
    expect(await b.reserve('b1', 1, 3, 60_000)).toBe(0);
    // b1 asking again (its answer lost on the way) is told it holds its reservation already.
    expect(await b.reserve('b1', 1, 3, 60_000)).toBe(0);
    await b.settle('b1', 1, 0);
    // a1 made 4 calls, two more than it reserved: the whole window is spent for a second.
    await a.settle('a1', 2, 4);
    const wait = await b.reserve('b2', 1, 3, 60_000);
    expect(wait).toBeGreaterThan(900);
    expect(wait).toBeLessThanOrEqual(1001);
    await new Promise((resolve) => setTimeout(resolve, wait));
    expect(await b.reserve('b2', 1, 3, 60_000)).toBe(0);
  });

  it('keeps a waiting page\'s place: smaller pages asking after it do not take the room it waits for', async () => {
    const [a, b] = pacesFor('queue');
    expect(await a.reserve('a1', 1, 2, 60_000)).toBe(0);
    // b1 wants the whole second: it waits for a1...
    expect(await b.reserve('b1', 2, 2, 60_000)).toBeGreaterThan(0);
    // ...and a2, asking after it, does not slip into the room left beside a1.
    expect(await a.reserve('a2', 1, 2, 60_000)).toBeGreaterThan(0);
    await a.settle('a1', 1, 0);
    expect(await a.reserve('a2', 1, 2, 60_000)).toBeGreaterThan(0);
    expect(await b.reserve('b1', 2, 2, 60_000)).toBe(0);
    await b.settle('b1', 2, 0);
    expect(await a.reserve('a2', 1, 2, 60_000)).toBe(0);
  });

  it('lets a page larger than the rate start when nothing else is in the window, and frees a reservation whose replica is gone after its hold', async () => {
    const [a, b] = pacesFor('alone');
    expect(await a.reserve('big', 9, 3, 1000)).toBe(0);
    expect(await b.reserve('next', 1, 3, 1000)).toBeGreaterThan(0);
    // `big` is never settled (its replica went away mid-page): it stops counting after its hold.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(await b.reserve('next', 1, 3, 1000)).toBe(0);
  });

  it('rejects while Redis is away (the caller waits), and grants again once it is back', async () => {
    const [a] = pacesFor('away');
    await redis.kill();
    await expect(a.reserve('p', 1, 3, 60_000)).rejects.toThrow();
    await redis.restart();
    const deadline = Date.now() + 10_000;
    let wait: number | undefined;
    while (wait === undefined && Date.now() < deadline) {
      wait = await a.reserve('p', 1, 3, 60_000).catch(() => undefined);
      if (wait === undefined) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(wait).toBe(0);
  });
});
