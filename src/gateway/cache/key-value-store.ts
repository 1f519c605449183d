import { LRUCache } from 'lru-cache';
import type { MaybeInProcess } from '../../shared/with-timeout.ts';

/**
 * Where a cache keeps its entries: in this process, or shared by several replicas (Redis). Values
 * are strings (serialized answers). Asynchronous so a shared store fits; callers bound each call in
 * time and treat a failure as a miss, so a store outage is never a gateway outage.
 */
export interface KeyValueStore extends MaybeInProcess {
  get(key: string): Promise<string | undefined>;
  /** Keeps `value` under `key` for `ttlMs`. */
  set(key: string, value: string, ttlMs: number): Promise<void>;
}

export interface MemoryKeyValueStoreOptions {
  /** Memory bound, counting two bytes a character (JS strings are UTF-16). @default 32 MiB */
  maxBytes?: number;
}

/** The in-process store: least recently used entries go first once over `maxBytes`; each entry has its TTL. */
export function createMemoryKeyValueStore({ maxBytes = 32 * 1024 * 1024 }: MemoryKeyValueStoreOptions = {}): KeyValueStore & { readonly size: number } {
  const entries = new LRUCache<string, string>({
    maxSize: maxBytes,
    sizeCalculation: (value, key) => 2 * (key.length + value.length) + 64,
    // Entries carry their own TTL (set's third argument); this only allows it.
    ttl: 0,
    allowStale: false,
  });
  return {
    inProcess: true,
    get: async (key) => entries.get(key),
    set: async (key, value, ttlMs) => {
      if (ttlMs > 0) entries.set(key, value, { ttl: ttlMs });
    },
    get size() {
      return entries.size;
    },
  };
}
