export interface LruCacheOptions<V> {
  /** Total size bound, as counted by `sizeOf`; the least recently used entries go first. */
  maxBytes: number;
  /** How long an entry lives. */
  ttlMs: number;
  /** Approximate bytes an entry holds (key included). */
  sizeOf: (key: string, value: V) => number;
  /** Clock, replaceable in tests. @default Date.now */
  now?: () => number;
}

export interface LruCache<V> {
  get(key: string): V | undefined;
  set(key: string, value: V): void;
  readonly size: number;
  readonly bytes: number;
  clear(): void;
}

interface Entry<V> {
  value: V;
  bytes: number;
  expiresAt: number;
}

/**
 * An in-process cache bounded by bytes, with a TTL. A Map keeps insertion order, so re-inserting an
 * entry on every hit makes the first key the least recently used.
 */
export function createLruCache<V>({ maxBytes, ttlMs, sizeOf, now = Date.now }: LruCacheOptions<V>): LruCache<V> {
  const entries = new Map<string, Entry<V>>();
  let bytes = 0;
  const remove = (key: string, entry: Entry<V>) => {
    entries.delete(key);
    bytes -= entry.bytes;
  };
  return {
    get(key) {
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (entry.expiresAt <= now()) {
        remove(key, entry);
        return undefined;
      }
      entries.delete(key);
      entries.set(key, entry);
      return entry.value;
    },
    set(key, value) {
      if (ttlMs <= 0) return;
      const size = sizeOf(key, value);
      const existing = entries.get(key);
      if (existing) remove(key, existing);
      // An entry larger than the whole cache would only evict everything else.
      if (size > maxBytes) return;
      entries.set(key, { value, bytes: size, expiresAt: now() + ttlMs });
      bytes += size;
      for (const [oldestKey, oldest] of entries) {
        if (bytes <= maxBytes) break;
        remove(oldestKey, oldest);
      }
    },
    get size() {
      return entries.size;
    },
    get bytes() {
      return bytes;
    },
    clear() {
      entries.clear();
      bytes = 0;
    },
  };
}
