import type { Redis } from 'ioredis';
import type { RedisConnection } from '../../redis/redis-connection.ts';
import type { RedisKeyValueStoreOptions } from '../../redis/redis-key-value-store.ts';
import type { SharedPace } from './call-pacer.ts';

/**
 * The shared pace (SharedPace): one sorted set of pages, each member `<page>|<calls>` scored by when
 * it stops counting (a reservation: its hold; calls made: a second after the page ended). Admission
 * reads the sum and adds the reservation in one script, on Redis' clock (one for replicas on several
 * machines) unless the pace is given one, so replicas asking at once can never both take the last of
 * a second's calls (a read then a write, as the stock rate limiter does, would let them).
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
local now = tonumber(ARGV[7])
if not now then
  local time = redis.call('TIME')
  now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
end
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
local now = tonumber(ARGV[5])
if not now then
  local time = redis.call('TIME')
  now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
end
local made, window = tonumber(ARGV[3]), tonumber(ARGV[4])
redis.call('ZREM', KEYS[1], ARGV[1] .. '|' .. ARGV[2])
if made > 0 then redis.call('ZADD', KEYS[1], now + window, ARGV[1] .. '|' .. made) end
local last = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
if last[2] then redis.call('PEXPIREAT', KEYS[1], tonumber(last[2]) + 1) end
return 0
`;

type WithPace = Redis & {
  gatewayPaceReserve(key: string, page: string, expected: number, rate: number, holdMs: number, windowMs: number, staleMs: number, now: number | ''): Promise<number>;
  gatewayPaceSettle(key: string, page: string, expected: number, made: number, windowMs: number, now: number | ''): Promise<number>;
};

/** How long a replica waits before asking again while another replica's page is in flight. */
const PACE_IN_FLIGHT_POLL_MS = 100;
const PACE_WINDOW_MS = 1000;
/**
 * How long a queued page that stopped asking keeps its place: past the longest wait the script
 * names (a window) and a poll, with room for a replica's own pause between asks.
 */
const WAITER_STALE_MS = 3000;

export interface RedisPaceOptions extends RedisKeyValueStoreOptions {
  /**
   * The time the pace keeps, when every replica sharing it is given the same (a test's clock, which
   * moves forward instead of waiting). @default Redis's own: one clock for replicas on several machines
   */
  now?: () => number;
}

/** The pace every replica shares (see SharedPace), under `<prefix>:<namespace>:pace`. */
export function createRedisPace(redis: RedisConnection, { prefix, namespace, now }: RedisPaceOptions): SharedPace {
  if (!('gatewayPaceReserve' in redis.client)) {
    redis.client.defineCommand('gatewayPaceReserve', { numberOfKeys: 1, lua: PACE_RESERVE_SCRIPT });
    redis.client.defineCommand('gatewayPaceSettle', { numberOfKeys: 1, lua: PACE_SETTLE_SCRIPT });
  }
  const key = `${prefix}:${namespace}:pace`;
  const whole = (count: number) => Math.max(0, Math.ceil(count));
  // An empty argument: the script reads Redis's time.
  const time = () => (now ? Math.floor(now()) : '');
  return {
    async reserve(page, expected, callsPerSecond, holdMs) {
      const wait = await redis.run((client) =>
        (client as WithPace).gatewayPaceReserve(key, page, whole(expected), whole(callsPerSecond), Math.max(PACE_WINDOW_MS, Math.ceil(holdMs)), PACE_WINDOW_MS, WAITER_STALE_MS, time()),
      );
      return wait < 0 ? PACE_IN_FLIGHT_POLL_MS : wait;
    },
    async settle(page, expected, made) {
      await redis.run((client) => (client as WithPace).gatewayPaceSettle(key, page, whole(expected), whole(made), PACE_WINDOW_MS, time()));
    },
  };
}
