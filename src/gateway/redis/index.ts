import type { KeyValueStore } from '../cache/key-value-store.ts';
import type { RateLimitStore } from '../guards/rate-limit-store.ts';
import type { GatewayLog } from '../observability/gateway-log.ts';
import type { GatewaySettings } from '../settings.ts';
import type { TranslationCache } from '../translation/translation-cache.ts';
import { connectRedis, type RedisConnection } from './redis-connection.ts';
import { createRedisKeyValueStore } from './redis-key-value-store.ts';
import { createRedisRateLimitStore } from './redis-rate-limit-store.ts';
import { createRedisTranslationCache } from './redis-translation-cache.ts';

export interface SharedStores {
  translationCache: TranslationCache;
  rateLimitStore: RateLimitStore;
  /** A shared KeyValueStore for one cache (`problems`, `responses`): its keys never meet another's. */
  keyValueStore(namespace: string): KeyValueStore;
  /** The connection and REDIS_PREFIX, for a feature's own scripts (prewarming's leases and pace). */
  connection: RedisConnection;
  prefix: string;
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
  settings: Pick<GatewaySettings, 'redisUrl' | 'redisPrefix' | 'redisTimeoutMs' | 'translationCacheTtlSeconds' | 'translationCacheMaxBytes'>,
  log: GatewayLog = console.warn,
): Promise<SharedStores | undefined> {
  if (!settings.redisUrl) return undefined;
  const connection = await connectRedis({ url: settings.redisUrl, timeoutMs: settings.redisTimeoutMs, log });
  const prefix = settings.redisPrefix;
  return {
    // TRANSLATION_CACHE_MAX_BYTES bounds the shared cache too, all replicas together.
    translationCache: createRedisTranslationCache(connection, { prefix, ttlMs: settings.translationCacheTtlSeconds * 1000, maxBytes: settings.translationCacheMaxBytes }),
    rateLimitStore: createRedisRateLimitStore(connection, { prefix }),
    keyValueStore: (namespace) => createRedisKeyValueStore(connection, { prefix, namespace }),
    connection,
    prefix,
    check: () => connection.check(),
    close: () => connection.close(),
  };
}
