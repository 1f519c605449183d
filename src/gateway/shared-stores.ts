import type { RateLimitStore } from './guards/rate-limit-store.ts';
import { createRedisRateLimitStore } from './guards/redis-rate-limit-store.ts';
import type { GatewayLog } from './gateway-log.ts';
import { connectRedisStores, type RedisStores } from './redis/index.ts';
import type { GatewaySettings } from './settings.ts';
import { createRedisTranslationCache } from './translation/redis-translation-cache.ts';
import type { TranslationCache } from './translation/translation-cache.ts';
import type { MadeTranslationsStore } from './translation/made-translations.ts';
import { createRedisMadeTranslations } from './translation/redis-made-translations.ts';

export interface SharedStores extends RedisStores {
  translationCache: TranslationCache;
  /** Which languages each problem's translations in that cache are in (Problem.translations). */
  madeTranslations: MadeTranslationsStore;
  rateLimitStore: RateLimitStore;
}

/**
 * The stores several replicas share when `REDIS_URL` is set: translation cache, problems answers and
 * rate-limit counters in one Redis, each feature's part made by the feature (redis/ knows none).
 * Resolves even when Redis is unreachable: caches then degrade to misses and rate limits to this
 * replica's counters.
 */
export async function createSharedStores(
  settings: Pick<GatewaySettings, 'redisUrl' | 'redisPrefix' | 'redisTimeoutMs' | 'translationCacheTtlSeconds' | 'translationCacheMaxBytes' | 'redisCacheMaxBytes'>,
  log: GatewayLog = console.warn,
): Promise<SharedStores | undefined> {
  const redis = await connectRedisStores(settings, log);
  if (!redis) return undefined;
  const { connection, prefix } = redis;
  return {
    ...redis,
    // TRANSLATION_CACHE_MAX_BYTES bounds the shared cache too, all replicas together.
    translationCache: createRedisTranslationCache(connection, { prefix, ttlMs: settings.translationCacheTtlSeconds * 1000, maxBytes: settings.translationCacheMaxBytes }),
    madeTranslations: createRedisMadeTranslations(connection, { prefix }),
    rateLimitStore: createRedisRateLimitStore(connection, { prefix }),
  };
}
