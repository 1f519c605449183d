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
 * INCR and the window's expiry in one script: Redis runs a script atomically, so concurrent hits from
 * any number of replicas each get their own count, and a window can never be left without an expiry
 * (a client stuck at its limit forever). Returns the count and the milliseconds left in the window.
 */
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return { count, ttl }
`;

type WithHit = Redis & { gatewayRateLimitHit(key: string, windowMs: number): Promise<[number, number]> };

/**
 * Fixed-window counters shared by every replica, so a client's limit is global. While Redis is down,
 * slow or restarting, hits count in this replica's own memory instead: each replica then admits up to
 * the limit on its own (N replicas: up to N times the limit), which is better than refusing everyone
 * or counting nothing. Once Redis answers again its counters are used again.
 */
export function createRedisRateLimitStore(redis: RedisConnection, { prefix, fallback = createMemoryRateLimitStore() }: RedisRateLimitStoreOptions): RateLimitStore {
  // defineCommand sends EVALSHA and falls back to EVAL on NOSCRIPT, so a restarted Redis (empty
  // script cache) needs nothing from us.
  redis.client.defineCommand('gatewayRateLimitHit', { numberOfKeys: 1, lua: HIT_SCRIPT });
  return {
    async hit(key, windowMs) {
      try {
        // The identity is a key's hash or an address; hashed again so the layout never depends on it.
        const [count, resetInMs] = await redis.run((client) => (client as WithHit).gatewayRateLimitHit(`${prefix}:ratelimit:${sha256Of(key)}`, windowMs));
        return { count, resetInMs };
      } catch {
        return fallback.hit(key, windowMs);
      }
    },
  };
}
