import { Redis } from 'ioredis';
import { withTimeout } from '../../shared/with-timeout.ts';
import type { GatewayLog } from '../gateway-log.ts';
import { SettingsError } from '../settings.ts';

export interface RedisConnectionOptions {
  /** `REDIS_URL`: `redis://[:password@]host[:port][/db]` or `rediss://…`. */
  url: string;
  /** `REDIS_TIMEOUT_MS`: the budget of one Redis operation; past it the operation counts as failed. */
  timeoutMs: number;
  /** Where the state changes go (one line each: connected, unreachable, lost, back). @default console.warn */
  log?: GatewayLog;
  /** How long `connectRedis` waits for the first connection before the gateway starts without it. @default 1000 */
  startWaitMs?: number;
}

export interface RedisConnection {
  /**
   * Runs `operation` if Redis is connected, within the budget; rejects at once when it is not (no
   * command ever waits for a reconnection) and after `timeoutMs` when it is slow.
   */
  run<T>(operation: (client: Redis) => Promise<T>): Promise<T>;
  /** A PING within the budget: `ok`, or what is wrong in words for /readiness (never the URL: it may hold a password). */
  check(): Promise<string>;
  /** Where Redis is, without credentials, for log lines: `host:port`. */
  readonly where: string;
  readonly client: Redis;
  close(): Promise<void>;
}

/**
 * What Redis answers a credential it refuses: WRONGPASS (a wrong password, or user), NOAUTH (none
 * given where one is required), and older servers' "invalid password".
 */
const CREDENTIAL_REFUSED = /\b(WRONGPASS|NOAUTH)\b|invalid (username-)?password/i;

/**
 * One ioredis client set up so that Redis can never hold a request: no offline queue (a command
 * while disconnected fails at once instead of waiting 10–40 s for a reconnection), no retry of a
 * command, a per-command timeout, and an 'error' listener (without one, ioredis reports every failed
 * reconnection as an unhandled error event). It reconnects forever in the background, backing off to
 * 1 s, so sharing resumes by itself when Redis is back.
 *
 * Rejects with a SettingsError naming REDIS_URL when Redis refuses the credential at start: that is a
 * configuration to fix, not an outage to wait out, and serving on would hide it behind a degraded
 * readiness. An unreachable Redis is waited for in the background, as any outage.
 */
export async function connectRedis({ url, timeoutMs, log = console.warn, startWaitMs = 1000 }: RedisConnectionOptions): Promise<RedisConnection> {
  const parsed = new URL(url);
  const where = `${parsed.hostname}:${parsed.port || 6379}`;
  const client = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: timeoutMs,
    connectTimeout: Math.max(500, timeoutMs * 5),
    retryStrategy: (attempt) => Math.min(50 * 2 ** attempt, 1000),
    // Connecting starts here; no command is sent before 'ready' anyway (no offline queue).
    lazyConnect: false,
  });
  const state = watchConnection(client, where, log);
  const ready = await firstConnection(client, state, startWaitMs);
  if (state.refused !== undefined) {
    state.closing = true;
    client.disconnect();
    throw new SettingsError(
      'REDIS_URL',
      `Redis at ${where} refused the credential (${state.refused}): set the password (and user, if any) Redis expects in REDIS_URL (redis://[user]:password@host:port)`,
    );
  }
  if (ready) {
    log(`redis: connected to ${where}; caches and rate limits are shared with the other replicas`, 'info');
  } else {
    state.reportedDown = true;
    log(`redis: not reachable at ${where} (${state.lastError || `no answer within ${startWaitMs} ms`}); starting with in-process rate limits and no shared cache, and connecting in the background`, 'warn');
  }
  const run = boundedRunner(client, timeoutMs);
  return {
    run,
    where,
    client,
    check: () =>
      run((redis) => redis.ping()).then(
        () => 'ok',
        () =>
          client.status === 'ready'
            ? `did not answer within ${timeoutMs} ms`
            : state.refused !== undefined
              ? `refused the credential (${state.refused})`
              : `unreachable${state.lastError ? ` (${state.lastError})` : ''}`,
      ),
    close: async () => {
      state.closing = true;
      // quit() waits for pending replies, but on a dead connection it would wait for a reconnection.
      if (client.status === 'ready') await client.quit().catch(() => client.disconnect());
      else client.disconnect();
    },
  };
}

/** What the client's events have said so far: the last error, a refused credential, whether an outage was logged. */
interface ConnectionState {
  lastError: string;
  wasReady: boolean;
  reportedDown: boolean;
  closing: boolean;
  refused: string | undefined;
  /** Called once when Redis refuses the credential (the wait for the first connection ends then). */
  onRefused: (() => void)[];
}

/** Follows the client's events: one log line per outage and per return, and a refused credential noted. */
function watchConnection(client: Redis, where: string, log: GatewayLog): ConnectionState {
  const state: ConnectionState = { lastError: '', wasReady: false, reportedDown: false, closing: false, refused: undefined, onRefused: [] };
  client.on('error', (error: NodeJS.ErrnoException) => {
    state.lastError = error.code ?? error.message;
    // Only the reply's code (WRONGPASS, NOAUTH): the rest of a reply is the server's to word.
    if (CREDENTIAL_REFUSED.test(error.message)) {
      state.refused = CREDENTIAL_REFUSED.exec(error.message)?.[1]?.toUpperCase() ?? 'invalid password';
      state.lastError = state.refused;
      for (const callback of state.onRefused.splice(0)) callback();
    }
  });
  client.on('ready', () => {
    if (state.reportedDown) log(`redis: reachable again at ${where}; caches and rate limits are shared again`, 'warn');
    state.wasReady = true;
    state.reportedDown = false;
    state.lastError = '';
    state.refused = undefined;
  });
  client.on('close', () => {
    // One line per outage, not one per reconnection attempt, and none for the gateway's own close.
    if (state.wasReady && !state.reportedDown && !state.closing) {
      state.reportedDown = true;
      log(`redis: connection to ${where} lost (${state.lastError || 'closed'}); serving with in-process rate limits and no shared cache until it is back`, 'warn');
    }
  });
  return state;
}

/** Whether the client connects within `startWaitMs`; false at once when Redis refuses the credential. */
function firstConnection(client: Redis, state: ConnectionState, startWaitMs: number): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    if (client.status === 'ready') return resolve(true);
    const timer = setTimeout(() => done(false), startWaitMs);
    const done = (value: boolean) => {
      clearTimeout(timer);
      client.off('ready', onReady);
      resolve(value);
    };
    const onReady = () => done(true);
    client.on('ready', onReady);
    state.onRefused.push(() => done(false));
  });
}

/**
 * Runs operations only while connected and within the budget. After a timeout Redis is skipped for a
 * moment: a Redis that hangs (paused, swapping) would otherwise cost each request its full budget for
 * every operation.
 */
function boundedRunner(client: Redis, timeoutMs: number): RedisConnection['run'] {
  let skipUntil = 0;
  const pauseAfterTimeoutMs = Math.max(250, timeoutMs * 5);
  return <T>(operation: (client: Redis) => Promise<T>): Promise<T> => {
    if (client.status !== 'ready') return Promise.reject(new Error(`redis ${client.status}`));
    if (Date.now() < skipUntil) return Promise.reject(new Error('redis skipped after a timeout'));
    // ioredis' commandTimeout covers each command; this covers the whole operation (a pipeline, a script load).
    return withTimeout(() => operation(client), timeoutMs).catch((error: Error) => {
      if (/no answer within|timed out/i.test(error.message)) skipUntil = Date.now() + pauseAfterTimeoutMs;
      throw error;
    });
  };
}
