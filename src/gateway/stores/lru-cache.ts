import { LRUCache } from 'lru-cache';

export interface LruCacheOptions<V> {
  /** Total size bound, as counted by `sizeOf`; the least recently used entries go first. */
  maxBytes: number;
  /** How long an entry lives; 0 keeps nothing. */
  ttlMs: number;
  /** Approximate bytes an entry holds (key included). */
  sizeOf: (key: string, value: V) => number;
}

export interface LruCache<V> {
  get(key: string): V | undefined;
  set(key: string, value: V): void;
  readonly size: number;
}

/**
 * The in-process caches' shape over `lru-cache` (bytes bound, TTL): what the statement cache needs, in
 * two lines at each use instead of its options at each.
 */
export function createLruCache<V extends {}>({ maxBytes, ttlMs, sizeOf }: LruCacheOptions<V>): LruCache<V> {
  if (ttlMs <= 0 || maxBytes <= 0) return { get: () => undefined, set: () => undefined, size: 0 };
  const cache = new LRUCache<string, V>({ maxSize: maxBytes, ttl: ttlMs, sizeCalculation: (value, key) => Math.max(1, sizeOf(key, value)) });
  return {
    get: (key) => cache.get(key),
    set: (key, value) => void cache.set(key, value),
    get size() {
      return cache.size;
    },
  };
}
