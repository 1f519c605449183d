import type { Redis } from 'ioredis';
import { sha256Of } from '../../../shared/hash.ts';
import type { RedisConnection } from '../../redis/redis-connection.ts';
import type { RedisKeyValueStoreOptions } from '../../redis/redis-key-value-store.ts';
import type { Leases } from './leases.ts';

/**
 * Takes a lease (SET NX PX) or extends it for the owner holding it, in one script so that two
 * replicas can never both hold it; release deletes it only for its holder.
 */
const LEASE_ACQUIRE_SCRIPT = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 1 end
return 0
`;
const LEASE_RELEASE_SCRIPT = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;

type WithLeases = Redis & {
  gatewayLeaseAcquire(key: string, owner: string, ttlMs: number): Promise<number>;
  gatewayLeaseRelease(key: string, owner: string): Promise<number>;
};

/** Leases shared by every replica (see Leases), under `<prefix>:<namespace>:lease:`, names hashed like keys. */
export function createRedisLeases(redis: RedisConnection, { prefix, namespace }: RedisKeyValueStoreOptions): Leases {
  if (!('gatewayLeaseAcquire' in redis.client)) {
    redis.client.defineCommand('gatewayLeaseAcquire', { numberOfKeys: 1, lua: LEASE_ACQUIRE_SCRIPT });
    redis.client.defineCommand('gatewayLeaseRelease', { numberOfKeys: 1, lua: LEASE_RELEASE_SCRIPT });
  }
  const keyOf = (name: string) => `${prefix}:${namespace}:lease:${sha256Of(name)}`;
  return {
    acquire: async (name, owner, ttlMs) =>
      (await redis.run((client) => (client as WithLeases).gatewayLeaseAcquire(keyOf(name), owner, Math.max(1, Math.ceil(ttlMs))))) === 1,
    release: async (name, owner) => {
      await redis.run((client) => (client as WithLeases).gatewayLeaseRelease(keyOf(name), owner));
    },
  };
}
