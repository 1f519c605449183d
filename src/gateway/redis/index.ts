import type { KeyValueStore } from '../stores/key-value-store.ts';
import type { GatewayLog } from '../gateway-log.ts';
import type { GatewaySettings } from '../settings.ts';
import { redisCacheBudgets, totalBudgetBytes } from './redis-cache-budgets.ts';
import { connectRedis, type RedisConnection } from './redis-connection.ts';
import { watchEvictionPolicy } from './redis-eviction-policy.ts';
import { createRedisKeyValueStore } from './redis-key-value-store.ts';

/** One Redis shared by replicas, as every feature finds it: no feature's own keys or scripts here. */
export interface RedisStores {
  /** A shared KeyValueStore for one cache (`problems`, `responses`): its keys never meet another's. */
  keyValueStore(namespace: string): KeyValueStore;
  /** The connection and REDIS_PREFIX, for a feature's own Redis parts (its cache, its scripts). */
  connection: RedisConnection;
  prefix: string;
  /** `ok`, or what is wrong with Redis (for /readiness: a degraded dependency, never "not ready"). */
  check(): Promise<string>;
  close(): Promise<void>;
}

/**
 * The Redis named by `REDIS_URL`, or undefined when it is unset. Resolves even when Redis is
 * unreachable (it says so in one line and keeps connecting in the background): every store then
 * degrades on its own.
 */
export async function connectRedisStores(
  settings: Pick<GatewaySettings, 'redisUrl' | 'redisPrefix' | 'redisTimeoutMs' | 'translationCacheMaxBytes' | 'redisCacheMaxBytes'>,
  log: GatewayLog = console.warn,
): Promise<RedisStores | undefined> {
  if (!settings.redisUrl) return undefined;
  const connection = await connectRedis({ url: settings.redisUrl, timeoutMs: settings.redisTimeoutMs, log });
  const prefix = settings.redisPrefix;
  const budgets = redisCacheBudgets(settings);
  await watchEvictionPolicy(connection, totalBudgetBytes(budgets), log);
  return {
    keyValueStore: (namespace) => createRedisKeyValueStore(connection, { prefix, namespace, maxBytes: Object.hasOwn(budgets, namespace) ? budgets[namespace] : undefined }),
    connection,
    prefix,
    check: () => connection.check(),
    close: () => connection.close(),
  };
}
