import type { RedisConnection } from '../redis/redis-connection.ts';
import { boundedWrites } from '../redis/redis-key-value-store.ts';
import { translationCacheKey, type TranslationCache } from './translation-cache.ts';
import type { TranslatedText } from './translation-client.ts';
import { defaultOf } from '../settings.ts';

export interface RedisTranslationCacheOptions {
  /** `REDIS_PREFIX`: what every key starts with. */
  prefix: string;
  /** `TRANSLATION_CACHE_TTL_SECONDS` in ms, as the in-process cache keeps them; 0 keeps nothing. */
  ttlMs: number;
  /**
   * Most bytes the translations take in Redis, all replicas together; the oldest go first past it.
   * @default as TRANSLATION_CACHE_MAX_BYTES, the in-process cache's bound
   */
  maxBytes?: number;
}

/**
 * Translations shared by every replica: one Redis string per (from, to, format, SHA-256 of the text),
 * JSON of the translation, expiring after `ttlMs`, within `maxBytes` (boundedWrites: distinct texts
 * are the client's choice, and without a bound a flood of them grows Redis for the TTL and, under an
 * eviction policy, pushes out the rate-limit counters). Reads are one MGET per batch, writes one
 * script call. A Redis that fails or is slow rejects, and the batcher counts that as a miss.
 */
export function createRedisTranslationCache(redis: RedisConnection, { prefix, ttlMs, maxBytes = defaultOf('translationCacheMaxBytes') }: RedisTranslationCacheOptions): TranslationCache {
  const keyOf = (key: Parameters<typeof translationCacheKey>[0]) => `${prefix}:translation:${translationCacheKey(key)}`;
  const writes = boundedWrites(redis, `${prefix}:translation`);
  return {
    async getMany(keys) {
      if (ttlMs <= 0 || keys.length === 0) return keys.map(() => undefined);
      const values = await redis.run((client) => client.mget(keys.map(keyOf)));
      return values.map((value) => (value === null ? undefined : parse(value)));
    },
    async setMany(entries) {
      if (ttlMs <= 0 || maxBytes <= 0 || entries.length === 0) return;
      await writes.set(
        entries.map(([key, value]) => [keyOf(key), JSON.stringify(value)]),
        ttlMs,
        { maxBytes },
      );
    },
  };
}

/**
 * A value another version wrote in another shape is a miss, not a wrong translation. Entries written
 * before the time a translation was made was kept (no `madeAt`) are still translations: served, with
 * that time unknown.
 */
function parse(value: string): TranslatedText | undefined {
  try {
    const parsed = JSON.parse(value) as TranslatedText;
    if (typeof parsed?.text !== 'string') return undefined;
    const madeAt = typeof parsed.madeAt === 'number' && Number.isFinite(parsed.madeAt) ? { madeAt: parsed.madeAt } : {};
    return { text: parsed.text, detectedLanguage: parsed.detectedLanguage ?? null, ...madeAt };
  } catch {
    return undefined;
  }
}
