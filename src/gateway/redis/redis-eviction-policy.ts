import type { GatewayLog, LogLevel } from '../gateway-log.ts';
import type { RedisConnection } from './redis-connection.ts';

const MIB = 1024 * 1024;
const mib = (bytes: number) => `${Math.round((bytes / MIB) * 10) / 10} MiB`;

/**
 * What Redis' memory settings mean for the gateway, in one line. The gateway's caches carry TTLs and
 * stay within their budgets (redis-cache-budgets.ts); its rate-limit counters carry none (the hit
 * script deletes ended windows itself). So under a `volatile-*` policy Redis can evict cache entries
 * but never a counter, while an `allkeys-*` policy may evict a counter, and that client's window
 * starts over; `noeviction` refuses writes once full, and counters then count per replica.
 */
export function describeEvictionPolicy(policy: string, maxmemory: number, budgetBytes: number): { line: string; level: LogLevel } {
  const budgets = `the caches stay within ${mib(budgetBytes)} in all`;
  if (policy.startsWith('allkeys-')) {
    return {
      level: 'warn',
      line: `redis: maxmemory-policy is ${policy}: under memory pressure Redis may evict rate-limit counters, and a client's window starts over; set maxmemory-policy volatile-lru (the caches' keys carry TTLs, the counters none)`,
    };
  }
  if (maxmemory === 0) return { level: 'info', line: `redis: no maxmemory; ${budgets}, and rate-limit counters are never evicted` };
  if (policy === 'noeviction') {
    return maxmemory < budgetBytes
      ? { level: 'warn', line: `redis: maxmemory ${mib(maxmemory)} with noeviction is below what ${budgets}: once full, Redis refuses writes and rate limits count per replica; raise maxmemory or set maxmemory-policy volatile-lru` }
      : { level: 'info', line: `redis: maxmemory ${mib(maxmemory)}, noeviction; ${budgets}, and rate-limit counters are never evicted` };
  }
  const below = maxmemory < budgetBytes ? ' (below the budgets: Redis evicts cache entries before the caches reach them)' : '';
  return { level: 'info', line: `redis: maxmemory ${mib(maxmemory)}, ${policy}${below}; ${budgets}, and rate-limit counters carry no TTL, so they are never evicted` };
}

/**
 * Reads `maxmemory-policy` and `maxmemory` now and at each reconnection (another Redis may answer
 * at the same address), and logs what they mean when that changed. A Redis that refuses CONFIG (a
 * managed service, an ACL without it) gets one line saying the policy could not be checked.
 */
export function watchEvictionPolicy(redis: RedisConnection, budgetBytes: number, log: GatewayLog): Promise<void> {
  let said = '';
  const say = ({ line, level }: { line: string; level: LogLevel }) => {
    if (line === said) return;
    said = line;
    log(line, level);
  };
  const check = async () => {
    try {
      // One call: name, value, name, value… of maxmemory, maxmemory-policy and their kin.
      const pairs = (await redis.run((client) => client.config('GET', 'maxmemory*'))) as string[];
      const valueOf = (name: string) => pairs[pairs.indexOf(name) + 1];
      const policy = valueOf('maxmemory-policy');
      const maxmemory = Number(valueOf('maxmemory'));
      if (!pairs.includes('maxmemory-policy') || !Number.isFinite(maxmemory)) throw new Error('ERR no maxmemory-policy');
      say(describeEvictionPolicy(policy, maxmemory, budgetBytes));
    } catch (error) {
      if (redis.client.status !== 'ready') return;
      // Only a reply's code (NOPERM, ERR): the rest is the server's to word. Anything else is our timeout.
      const code = /^[A-Z]{2,}\b/.exec((error as Error).message)?.[0];
      say({
        level: 'info',
        line: `redis: could not read maxmemory-policy (${code ? `CONFIG: ${code}` : 'no answer in time'}); rate-limit counters are safe from eviction under a volatile-* policy or noeviction, not under allkeys-*`,
      });
    }
  };
  redis.client.on('ready', () => void check());
  return redis.client.status === 'ready' ? check() : Promise.resolve();
}
