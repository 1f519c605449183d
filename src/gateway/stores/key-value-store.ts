import { LRUCache } from 'lru-cache';
import type { MaybeInProcess } from '../../shared/with-timeout.ts';

/**
 * Where a cache keeps its entries: in this process, or shared by several replicas (Redis). Values
 * are strings (serialized answers). Asynchronous so a shared store fits; callers bound each call in
 * time and treat a failure as a miss, so a store outage is never a gateway outage.
 */
export interface KeyValueStore extends MaybeInProcess {
  get(key: string): Promise<string | undefined>;
  /**
   * Keeps `value` under `key` for `ttlMs`. With `bound`, within that bound: room is made only by
   * dropping the owner's own oldest entries, never another owner's (past the bound, the value is not
   * kept), and a key kept already is left as it is (its TTL too).
   */
  set(key: string, value: string, ttlMs: number, bound?: WriteBound): Promise<void>;
}

/** What entries written by clients may take of a store, so one client cannot push the others out. */
export interface WriteBound {
  /** Most bytes all such entries take together (a shared store; an in-process store keeps its own `maxBytes`). */
  maxBytes: number;
  /** Who wrote the entry (a client identity). */
  owner: string;
  /** Most bytes one owner's entries take: past it, that owner's oldest go, never another's. */
  ownerMaxBytes: number;
}

export interface MemoryKeyValueStoreOptions {
  /** Memory bound, counting two bytes a character (JS strings are UTF-16). @default 32 MiB */
  maxBytes?: number;
}

/** The bytes an entry takes in memory: JS strings are UTF-16, two bytes a character, plus the entry's own. */
const sizeInMemory = (key: string, value: string) => 2 * (key.length + value.length) + 64;

/**
 * The in-process store: least recently used entries go first once over `maxBytes`; each entry has its
 * TTL. Entries written with a bound also count against their owner's share, oldest out first, and
 * never push out another owner's.
 */
export function createMemoryKeyValueStore({ maxBytes = 32 * 1024 * 1024 }: MemoryKeyValueStoreOptions = {}): KeyValueStore & { readonly size: number } {
  // Each owner's keys, oldest first, with their sizes; an entry leaves its owner's list when it leaves the store.
  const owned = new Map<string, Map<string, number>>();
  const ownerOf = new Map<string, string>();
  const entries = new LRUCache<string, string>({
    maxSize: maxBytes,
    sizeCalculation: (value, key) => sizeInMemory(key, value),
    // Entries carry their own TTL (set's third argument); this only allows it.
    ttl: 0,
    allowStale: false,
    dispose: (_value, key) => {
      const owner = ownerOf.get(key);
      if (owner === undefined) return;
      ownerOf.delete(key);
      const keys = owned.get(owner);
      keys?.delete(key);
      if (keys?.size === 0) owned.delete(owner);
    },
  });
  /** Drops `owner`'s oldest entries while `over(its total)` says so. */
  const dropOwnOldest = (owner: string, over: (ownerBytes: number) => boolean) => {
    const keys = owned.get(owner);
    if (!keys) return;
    let total = 0;
    for (const [key, size] of keys) {
      // Expired entries leave lazily: drop them from the count first.
      if (entries.has(key)) total += size;
      else entries.delete(key);
    }
    for (const [key, size] of keys) {
      if (!over(total)) break;
      entries.delete(key);
      total -= size;
    }
  };
  return {
    inProcess: true,
    get: async (key) => entries.get(key),
    set: async (key, value, ttlMs, bound) => {
      if (ttlMs <= 0) return;
      if (!bound) return void entries.set(key, value, { ttl: ttlMs });
      const size = sizeInMemory(key, value);
      if (size > bound.ownerMaxBytes || entries.has(key)) return;
      dropOwnOldest(bound.owner, (ownerBytes) => ownerBytes + size > bound.ownerMaxBytes);
      // Past the whole bound only the owner's own entries make room: another's are never pushed out.
      const limit = Math.min(bound.maxBytes, maxBytes);
      if (entries.calculatedSize + size > limit) entries.purgeStale();
      dropOwnOldest(bound.owner, () => entries.calculatedSize + size > limit);
      if (entries.calculatedSize + size > limit) return;
      entries.set(key, value, { ttl: ttlMs });
      let keys = owned.get(bound.owner);
      if (!keys) owned.set(bound.owner, (keys = new Map()));
      keys.set(key, size);
      ownerOf.set(key, bound.owner);
    },
    get size() {
      return entries.size;
    },
  };
}
