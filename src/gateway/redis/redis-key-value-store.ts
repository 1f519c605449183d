import { sha256Of } from '../../shared/hash.ts';
import type { KeyValueStore } from '../cache/key-value-store.ts';
import type { RedisConnection } from './redis-connection.ts';

export interface RedisKeyValueStoreOptions {
  /** `REDIS_PREFIX`: what every key starts with. */
  prefix: string;
  /** Which cache the entries belong to (`problems`, `responses`), so caches never read each other's. */
  namespace: string;
}

/**
 * A KeyValueStore in Redis, shared by every replica: SET with PX, so each entry lives exactly its
 * TTL and Redis' memory is bounded by what the TTLs keep. Keys are hashed here whatever the caller
 * passes, so no credential or upstream detail a caller folds into its key can show up in Redis.
 */
export function createRedisKeyValueStore(redis: RedisConnection, { prefix, namespace }: RedisKeyValueStoreOptions): KeyValueStore {
  const keyOf = (key: string) => `${prefix}:${namespace}:${sha256Of(key)}`;
  return {
    get: async (key) => (await redis.run((client) => client.get(keyOf(key)))) ?? undefined,
    set: async (key, value, ttlMs) => {
      if (ttlMs <= 0) return;
      await redis.run((client) => client.set(keyOf(key), value, 'PX', Math.ceil(ttlMs)));
    },
  };
}
