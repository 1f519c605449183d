import type { KeyValueStore } from '../cache/key-value-store.ts';
import type { RateLimitStore } from '../guards/rate-limit-store.ts';
import type { GatewayLog } from '../observability/gateway-log.ts';
import type { GatewaySettings } from '../settings.ts';
import type { SharedPace } from '../translation/prewarm/call-pacer.ts';
import type { Leases } from '../translation/prewarm/leases.ts';
import type { TranslationCache } from '../translation/translation-cache.ts';
import { redisCacheBudgets, totalBudgetBytes } from './redis-cache-budgets.ts';
import { connectRedis } from './redis-connection.ts';
import { watchEvictionPolicy } from './redis-eviction-policy.ts';
import { createRedisKeyValueStore, createRedisLeases, createRedisPace } from './redis-key-value-store.ts';
import { createRedisRateLimitStore } from './redis-rate-limit-store.ts';
import { createRedisTranslationCache } from './redis-translation-cache.ts';

export interface SharedStores {
  translationCache: TranslationCache;
  rateLimitStore: RateLimitStore;
  /** A shared KeyValueStore for one cache (`problems`, `responses`): its keys never meet another's. */
  keyValueStore(namespace: string): KeyValueStore;
  /** Leases every replica honours, for background work of one kind (`translation-prewarm`). */
  leases(namespace: string): Leases;
  /** One pace of calls for background work of one kind, all replicas together (`translation-prewarm`). */
  pace(namespace: string): SharedPace;
  /** `ok`, or what is wrong with Redis (for /readiness: a degraded dependency, never "not ready"). */
  check(): Promise<string>;
  close(): Promise<void>;
}

/**
 * The stores several replicas share when `REDIS_URL` is set: translation cache, problems answers and
 * rate-limit counters in one Redis. Resolves even when Redis is unreachable (it says so in one line
 * and keeps connecting in the background): every store then degrades on its own, caches to misses
 * and rate limits to this replica's counters.
 */
export async function createSharedStores(
  settings: Pick<GatewaySettings, 'redisUrl' | 'redisPrefix' | 'redisTimeoutMs' | 'translationCacheTtlSeconds' | 'translationCacheMaxBytes' | 'redisCacheMaxBytes'>,
  log: GatewayLog = console.warn,
): Promise<SharedStores | undefined> {
  if (!settings.redisUrl) return undefined;
  const connection = await connectRedis({ url: settings.redisUrl, timeoutMs: settings.redisTimeoutMs, log });
  const prefix = settings.redisPrefix;
  const budgets = redisCacheBudgets(settings);
  await watchEvictionPolicy(connection, totalBudgetBytes(budgets), log);
  return {
    translationCache: createRedisTranslationCache(connection, { prefix, ttlMs: settings.translationCacheTtlSeconds * 1000, maxBytes: budgets.translation }),
    rateLimitStore: createRedisRateLimitStore(connection, { prefix }),
    keyValueStore: (namespace) => createRedisKeyValueStore(connection, { prefix, namespace, maxBytes: Object.hasOwn(budgets, namespace) ? budgets[namespace] : undefined }),
    leases: (namespace) => createRedisLeases(connection, { prefix, namespace }),
    pace: (namespace) => createRedisPace(connection, { prefix, namespace }),
    check: () => connection.check(),
    close: () => connection.close(),
  };
}
