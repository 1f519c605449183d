import type { Redis } from 'ioredis';
import { sha256Of } from '../../shared/hash.ts';
import type { KeyValueStore, WriteBound } from '../stores/key-value-store.ts';
import type { RedisConnection } from './redis-connection.ts';

export interface RedisKeyValueStoreOptions {
  /** `REDIS_PREFIX`: what every key starts with. */
  prefix: string;
  /** Which cache the entries belong to (`problems`, `responses`), so caches never read each other's. */
  namespace: string;
  /** The namespace's byte budget (redis-cache-budgets.ts): every write goes through boundedWrites within it. @default none */
  maxBytes?: number;
}

/**
 * A KeyValueStore in Redis, shared by every replica: SET with PX, so each entry lives exactly its
 * TTL and Redis' memory is bounded by what the TTLs keep. Keys are hashed here whatever the caller
 * passes, so no credential or upstream detail a caller folds into its key can show up in Redis.
 * Entries written with a bound (client-written ones), or in a namespace with a budget, go through
 * boundedWrites.
 */
export function createRedisKeyValueStore(redis: RedisConnection, { prefix, namespace, maxBytes }: RedisKeyValueStoreOptions): KeyValueStore {
  const keyOf = (key: string) => `${prefix}:${namespace}:${sha256Of(key)}`;
  const bounded = boundedWrites(redis, `${prefix}:${namespace}`);
  return {
    get: async (key) => (await redis.run((client) => client.get(keyOf(key)))) ?? undefined,
    set: async (key, value, ttlMs, bound) => {
      if (ttlMs <= 0) return;
      if (bound || maxBytes !== undefined) return bounded.set([[keyOf(key), value]], ttlMs, withinBudget(bound, maxBytes));
      await redis.run((client) => client.set(keyOf(key), value, 'PX', Math.ceil(ttlMs)));
    },
  };
}

/**
 * Writes within a byte budget that every replica shares: the budget is counted in Redis, next to the
 * entries, by one script (atomic whichever replica writes). An index (sorted set by expiry) lists the
 * entries written this way; past the budget the oldest go, the owner's own first when the write has
 * an owner. Entries are never refreshed (a key kept already is left alone), so index and entries
 * expire together, and everything under `base` expires with the last write. Without such a bound
 * in Redis a flood of distinct entries grows Redis for their TTL and, under an eviction policy,
 * pushes out what must stay (rate-limit counters).
 *
 * Owners' indexes are named inside the script (from `base` and a digest of the owner), so this
 * needs one Redis, not a cluster.
 */
const BOUNDED_SET_SCRIPT = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local ttl = tonumber(ARGV[1])
local max = tonumber(ARGV[2])
local ownerMax = tonumber(ARGV[3])
local base = ARGV[4]
local tag = ARGV[5]
local index, total = base .. ':bounded:index', base .. ':bounded:bytes'
local function ownerKeys(owner) return base .. ':bounded:owner:' .. owner .. ':index', base .. ':bounded:owner:' .. owner .. ':bytes' end
-- A counter that expired holds nothing to take back (and DECRBY would make it again, with no TTL).
local function takeBack(counter, size)
  if redis.call('EXISTS', counter) == 1 then redis.call('DECRBY', counter, size) end
end
local function drop(member, entryToo)
  local owner, size, key = string.match(member, '^([^|]*)|(%d+)|(.*)$')
  redis.call('ZREM', index, member)
  takeBack(total, size)
  if owner ~= '' then
    local ownerIndex, ownerTotal = ownerKeys(owner)
    redis.call('ZREM', ownerIndex, member)
    takeBack(ownerTotal, size)
  end
  if entryToo then redis.call('DEL', key) end
end
local function oldestWhile(list, counter, budget, size)
  while tonumber(redis.call('GET', counter) or '0') + size > budget do
    local oldest = redis.call('ZRANGE', list, 0, 0)[1]
    if not oldest then return end
    drop(oldest, true)
  end
end
-- Entries past their TTL are gone already: only their count is left to take back.
for _, member in ipairs(redis.call('ZRANGEBYSCORE', index, '-inf', now)) do drop(member, false) end
local written = 0
for i, key in ipairs(KEYS) do
  local value = ARGV[5 + i]
  -- What Redis takes for the entry and the index entries naming it, its own overhead included: a
  -- sorted-set member costs several times its length (skip list node, dict entry, allocator slack).
  local size = #value + 6 * #key + 600
  if size <= max and (tag == '' or size <= ownerMax) and redis.call('EXISTS', key) == 0 then
    local ownerIndex, ownerTotal
    if tag ~= '' then
      ownerIndex, ownerTotal = ownerKeys(tag)
      oldestWhile(ownerIndex, ownerTotal, ownerMax, size)
      -- Past the whole budget only the owner's own entries make room: another's are never pushed out.
      oldestWhile(ownerIndex, total, max, size)
    else
      oldestWhile(index, total, max, size)
    end
    if tonumber(redis.call('GET', total) or '0') + size <= max then
      local member = tag .. '|' .. size .. '|' .. key
      redis.call('SET', key, value, 'PX', ttl)
      redis.call('ZADD', index, now + ttl, member)
      redis.call('INCRBY', total, size)
      redis.call('PEXPIRE', index, ttl)
      redis.call('PEXPIRE', total, ttl)
      if tag ~= '' then
        redis.call('ZADD', ownerIndex, now + ttl, member)
        redis.call('INCRBY', ownerTotal, size)
        redis.call('PEXPIRE', ownerIndex, ttl)
        redis.call('PEXPIRE', ownerTotal, ttl)
      end
      written = written + 1
    end
  end
end
return written
`;

type WithBoundedSet = Redis & {
  gatewayBoundedSet(keyCount: number, ...keysThenArgs: (string | number)[]): Promise<number>;
};

export interface BoundedWrites {
  /** Writes `entries` (full Redis keys and values) for `ttlMs` within `bound` (no owner: the budget alone). */
  set(entries: [string, string][], ttlMs: number, bound: Pick<WriteBound, 'maxBytes'> & Partial<Pick<WriteBound, 'owner' | 'ownerMaxBytes'>>): Promise<void>;
}

/** Bounded writes under `base` (`<prefix>:<namespace>`); see BOUNDED_SET_SCRIPT. */
export function boundedWrites(redis: RedisConnection, base: string): BoundedWrites {
  // defineCommand sends EVALSHA and falls back to EVAL on NOSCRIPT (a restarted Redis).
  if (!('gatewayBoundedSet' in redis.client)) redis.client.defineCommand('gatewayBoundedSet', { lua: BOUNDED_SET_SCRIPT });
  return {
    async set(entries, ttlMs, { maxBytes, owner, ownerMaxBytes = maxBytes }) {
      if (ttlMs <= 0 || entries.length === 0) return;
      // The owner's identity is a key's hash or an address: hashed again, as the rate limits do.
      const tag = owner === undefined ? '' : sha256Of(owner).slice(0, 24);
      await redis.run((client) =>
        (client as WithBoundedSet).gatewayBoundedSet(
          entries.length,
          ...entries.map(([key]) => key),
          Math.ceil(ttlMs),
          maxBytes,
          ownerMaxBytes,
          base,
          tag,
          ...entries.map(([, value]) => value),
        ),
      );
    },
  };
}

/** A write's bound within its namespace's budget: the caller's, never past the budget; the budget alone without one. */
function withinBudget(bound: WriteBound | undefined, maxBytes: number | undefined): Parameters<BoundedWrites['set']>[2] {
  if (!bound) return { maxBytes: maxBytes ?? 0 };
  return { ...bound, maxBytes: Math.min(bound.maxBytes, maxBytes ?? bound.maxBytes) };
}
