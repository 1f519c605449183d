import { textDigest } from '../../shared/hash.ts';
import { LRUCache } from 'lru-cache';
import type { MaybeInProcess } from '../../shared/with-timeout.ts';
import type { TextFormat, TranslatedText } from './translation-client.ts';
import { defaultOf } from '../settings.ts';

/** What a translation is cached under: the text by its hash, so keys stay short. */
export interface TranslationKey {
  from: string | null;
  to: string;
  format: TextFormat;
  text: string;
}

/**
 * Where translations are kept between requests. Asynchronous so that a shared store (Redis) can
 * implement it; the link code only sees this interface.
 */
export interface TranslationCache extends MaybeInProcess {
  getMany(keys: TranslationKey[]): Promise<(TranslatedText | undefined)[]>;
  setMany(entries: [TranslationKey, TranslatedText][]): Promise<void>;
}

export function translationCacheKey({ from, to, format, text }: TranslationKey): string {
  return `${from ?? 'auto'}:${to}:${format}:${textDigest(text)}`;
}

export interface MemoryTranslationCacheOptions {
  /** @default as TRANSLATION_CACHE_MAX_BYTES */
  maxBytes?: number;
  /** @default as TRANSLATION_CACHE_TTL_SECONDS */
  ttlMs?: number;
  now?: () => number;
}

/** The in-process cache: LRU by bytes, with a TTL (`lru-cache`); a TTL of 0 keeps nothing. */
export function createMemoryTranslationCache({
  maxBytes = defaultOf('translationCacheMaxBytes'),
  ttlMs = defaultOf('translationCacheTtlSeconds') * 1000,
  now,
}: MemoryTranslationCacheOptions = {}): TranslationCache & { readonly size: number } {
  const lru =
    ttlMs > 0 && maxBytes > 0
      ? new LRUCache<string, TranslatedText>({
          maxSize: maxBytes,
          // JS strings are UTF-16: two bytes a character, plus a little for the entry itself.
          sizeCalculation: (value, key) => 2 * (key.length + value.text.length) + 64,
          ttl: ttlMs,
          // A clock given in tests is read at every check (lru-cache otherwise reuses a reading for 1 ms).
          ...(now ? { perf: { now }, ttlResolution: 0 } : {}),
        })
      : undefined;
  return {
    inProcess: true,
    getMany: async (keys) => keys.map((key) => lru?.get(translationCacheKey(key))),
    setMany: async (entries) => {
      for (const [key, value] of entries) lru?.set(translationCacheKey(key), value);
    },
    get size() {
      return lru?.size ?? 0;
    },
  };
}
