import type { Redis } from 'ioredis';
import { sha256Of } from '../../shared/hash.ts';
import type { RedisConnection } from '../redis/redis-connection.ts';
import { createMemoryRateLimitStore, type RateLimitStore } from './rate-limit-store.ts';

export interface RedisRateLimitStoreOptions {
  /** `REDIS_PREFIX`: what every key starts with. */
  prefix: string;
  /** Counts while Redis is away. @default an in-process store (per replica) */
  fallback?: RateLimitStore;
}

/**
 * One hit, atomically (Redis runs a script alone, so concurrent hits from any number of replicas each
 * get their own count). A counter is a hash (count, and when its window ends on Redis' clock) with
 * no TTL, so that no `volatile-*` eviction policy can ever choose it (an evicted counter starts its
 * client's window over); the script deletes ended windows itself, listed by end in KEYS[2], a few
 * per hit, more than a hit can start. Returns the count and the milliseconds left in the window.
 */
const HIT_SCRIPT = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
for _, ended in ipairs(redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now, 'LIMIT', 0, 4)) do
  redis.call('DEL', ended)
  redis.call('ZREM', KEYS[2], ended)
end
local state = redis.call('HMGET', KEYS[1], 'count', 'ends')
local count, ends = tonumber(state[1]) or 0, tonumber(state[2])
if not ends or ends <= now then
  count, ends = 0, now + tonumber(ARGV[1])
end
count = count + 1
redis.call('HSET', KEYS[1], 'count', count, 'ends', ends)
redis.call('ZADD', KEYS[2], ends, KEYS[1])
return { count, ends - now }
`;

type WithHit = Redis & { gatewayRateLimitHit(key: string, windows: string, windowMs: number): Promise<[number, number]> };

/**
 * Fixed-window counters shared by every replica, so a client's limit is global. While Redis is down,
 * slow or restarting, hits count in this replica's own memory instead: each replica then admits up to
 * the limit on its own (N replicas: up to N times the limit), which is better than refusing everyone
 * or counting nothing. Once Redis answers again its counters are used again.
 */
export function createRedisRateLimitStore(redis: RedisConnection, { prefix, fallback = createMemoryRateLimitStore() }: RedisRateLimitStoreOptions): RateLimitStore {
  // defineCommand sends EVALSHA and falls back to EVAL on NOSCRIPT, so a restarted Redis (empty
  // script cache) needs nothing from us.
  redis.client.defineCommand('gatewayRateLimitHit', { numberOfKeys: 2, lua: HIT_SCRIPT });
  // `window:` keys, not the plain `ratelimit:<hash>` strings earlier versions INCR: a replica of either
  // version never meets a key of the other's type.
  const windows = `${prefix}:ratelimit:windows`;
  return {
    async hit(key, windowMs) {
      try {
        // The identity is a key's hash or an address; hashed again so the layout never depends on it.
        const [count, resetInMs] = await redis.run((client) => (client as WithHit).gatewayRateLimitHit(`${prefix}:ratelimit:window:${sha256Of(key)}`, windows, windowMs));
        return { count, resetInMs };
      } catch {
        return fallback.hit(key, windowMs);
      }
    },
  };
}
