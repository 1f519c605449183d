import type { Redis } from 'ioredis';
import { sha256Of } from '../../shared/hash.ts';
import type { KeyValueStore, WriteBound } from '../cache/key-value-store.ts';
import type { SharedPace } from '../translation/prewarm/call-pacer.ts';
import type { Leases } from '../translation/prewarm/leases.ts';
import { withinBudget } from './redis-cache-budgets.ts';
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

/**
 * The shared pace (SharedPace): one sorted set of pages, each member `<page>|<calls>` scored by when
 * it stops counting (a reservation: its hold; calls made: a second after the page ended). Admission
 * reads the sum and adds the reservation in one script, on Redis' clock, so replicas asking at once
 * can never both take the last of a second's calls (a read then a write, as the stock rate limiter
 * does, would let them).
 *
 * Pages that must wait queue in the order they first asked (`:waiting`; what each expects and when it
 * last asked in `:asks`): a page starts only if it fits in what the pages queued before it leave, so a replica
 * whose pages expect more calls is not starved by one whose smaller pages always find room. A page
 * that stopped asking (its replica gone, or busy with readers) leaves the queue after WAITER_STALE_MS.
 * When a page cannot start yet the script says when enough calls leave the window, or -1 when what
 * stands in the way is a page still in flight (its end is unknown) or a page queued before it.
 *
 * The queue's keys are named inside the script (from the set's), so this needs one Redis, not a cluster.
 */
const PACE_RESERVE_SCRIPT = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local page, expected, rate, hold, window, stale = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local waiting, asks = KEYS[1] .. ':waiting', KEYS[1] .. ':asks'
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
-- Granted already (the answer was lost on the way, and the page asks again): it stands.
if redis.call('ZSCORE', KEYS[1], page .. '|' .. expected) then return 0 end
local entries = redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES')
local function callsOf(member) return tonumber(string.match(member, '|(%d+)$')) or 0 end
local total = 0
for i = 1, #entries, 2 do total = total + callsOf(entries[i]) end
-- What the live pages queued before this one expect.
if not redis.call('ZSCORE', waiting, page) then
  -- In the order of asking, even within one millisecond.
  local tail = redis.call('ZRANGE', waiting, -1, -1, 'WITHSCORES')
  redis.call('ZADD', waiting, tail[2] and tonumber(tail[2]) + 1 or 0, page)
end
redis.call('HSET', asks, page, expected .. '|' .. now)
local ahead = 0
for _, other in ipairs(redis.call('ZRANGE', waiting, 0, -1)) do
  if other == page then break end
  local ask = redis.call('HGET', asks, other)
  local asked, last = 0, -1
  if ask then asked, last = string.match(ask, '^(%d+)|(%d+)$') end
  if tonumber(last) < now - stale then
    redis.call('ZREM', waiting, other)
    redis.call('HDEL', asks, other)
  else
    ahead = ahead + tonumber(asked)
  end
end
redis.call('PEXPIRE', waiting, 2 * stale)
redis.call('PEXPIRE', asks, 2 * stale)
-- Alone in the window and first in the queue, a page starts whatever it expects: it could never start otherwise.
if ahead == 0 and (total + expected <= rate or total == 0) or total + ahead + expected <= rate then
  redis.call('ZREM', waiting, page)
  redis.call('HDEL', asks, page)
  redis.call('ZADD', KEYS[1], now + hold, page .. '|' .. expected)
  local last = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
  redis.call('PEXPIREAT', KEYS[1], math.max(now + hold, tonumber(last[2])) + 1)
  return 0
end
local need = math.min(ahead + expected, rate)
for i = 1, #entries, 2 do
  total = total - callsOf(entries[i])
  if total + need <= rate then
    local score = tonumber(entries[i + 1])
    if score - now <= window then return score - now + 1 end
    return -1
  end
end
return -1
`;
const PACE_SETTLE_SCRIPT = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local made, window = tonumber(ARGV[3]), tonumber(ARGV[4])
redis.call('ZREM', KEYS[1], ARGV[1] .. '|' .. ARGV[2])
if made > 0 then redis.call('ZADD', KEYS[1], now + window, ARGV[1] .. '|' .. made) end
local last = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
if last[2] then redis.call('PEXPIREAT', KEYS[1], tonumber(last[2]) + 1) end
return 0
`;

type WithPace = Redis & {
  gatewayPaceReserve(key: string, page: string, expected: number, rate: number, holdMs: number, windowMs: number, staleMs: number): Promise<number>;
  gatewayPaceSettle(key: string, page: string, expected: number, made: number, windowMs: number): Promise<number>;
};

/** How long a replica waits before asking again while another replica's page is in flight. */
const PACE_IN_FLIGHT_POLL_MS = 100;
const PACE_WINDOW_MS = 1000;
/**
 * How long a queued page that stopped asking keeps its place: past the longest wait the script
 * names (a window) and a poll, with room for a replica's own pause between asks.
 */
const WAITER_STALE_MS = 3000;

/** The pace every replica shares (see SharedPace), under `<prefix>:<namespace>:pace`. */
export function createRedisPace(redis: RedisConnection, { prefix, namespace }: RedisKeyValueStoreOptions): SharedPace {
  if (!('gatewayPaceReserve' in redis.client)) {
    redis.client.defineCommand('gatewayPaceReserve', { numberOfKeys: 1, lua: PACE_RESERVE_SCRIPT });
    redis.client.defineCommand('gatewayPaceSettle', { numberOfKeys: 1, lua: PACE_SETTLE_SCRIPT });
  }
  const key = `${prefix}:${namespace}:pace`;
  const whole = (count: number) => Math.max(0, Math.ceil(count));
  return {
    async reserve(page, expected, callsPerSecond, holdMs) {
      const wait = await redis.run((client) =>
        (client as WithPace).gatewayPaceReserve(key, page, whole(expected), whole(callsPerSecond), Math.max(PACE_WINDOW_MS, Math.ceil(holdMs)), PACE_WINDOW_MS, WAITER_STALE_MS),
      );
      return wait < 0 ? PACE_IN_FLIGHT_POLL_MS : wait;
    },
    async settle(page, expected, made) {
      await redis.run((client) => (client as WithPace).gatewayPaceSettle(key, page, whole(expected), whole(made), PACE_WINDOW_MS));
    },
  };
}
