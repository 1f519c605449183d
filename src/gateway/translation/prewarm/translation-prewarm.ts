import { randomUUID } from 'node:crypto';
import type { Registry } from 'prom-client';
import { createMemoryKeyValueStore, type KeyValueStore } from '../../stores/key-value-store.ts';
import type { GatewayLog } from '../../gateway-log.ts';
import type { RedisStores } from '../../redis/index.ts';
import { defaultOf, type GatewaySettings } from '../../settings.ts';
import type { TranslationRuntime } from '../translation-runtime.ts';
import { createCallPacer, type SharedPace } from './call-pacer.ts';
import { SYSTEM_CLOCK, type PrewarmClock } from './prewarm-clock.ts';
import { createMemoryLeases, type Leases } from './leases.ts';
import { createRedisLeases } from './redis-leases.ts';
import { createRedisPace } from './redis-pace.ts';
import { createPrewarmMetrics, type PrewarmMetrics } from './prewarm-metrics.ts';
import { createProgressStore } from './prewarm-progress.ts';
import { createReadersWatch } from './readers-watch.ts';
import { createPageRunner, type PrewarmTarget } from './page-runner.ts';
import { createPageReservations } from './page-reservations.ts';
import { createLanguageWalker } from './language-walk.ts';

export type { PrewarmTarget } from './page-runner.ts';

export interface TranslationPrewarmOptions {
  /** Languages to prewarm, as TRANSLATION_PREWARM lists them. */
  languages: readonly string[];
  /** The current mesh's execute and schema, asked for at every page (never held: the mesh may be swapped). */
  target: () => PrewarmTarget | undefined;
  /** The translation runtime's view of its calls: readers' calls in flight, and the calls a page made. */
  calls: TranslationRuntime['calls'];
  /** TRANSLATION_PREWARM_CALLS_PER_SECOND. @default as that variable */
  callsPerSecond?: number;
  /** TRANSLATION_PREWARM_REFRESH_SECONDS in ms. @default as that variable */
  refreshMs?: number;
  /** TRANSLATION_CACHE_TTL_SECONDS in ms: with no cache there is nothing to prewarm. */
  cacheTtlMs: number;
  /** Where each language's progress is kept (shared by replicas with Redis). @default in process */
  store?: KeyValueStore;
  /** Who works on which language, among replicas. @default in process */
  leases?: Leases;
  /** One pace for the replicas sharing a store (Redis): `callsPerSecond` is then all replicas' together. @default this replica's alone */
  pace?: SharedPace;
  /** The gateway's registry, for prewarming's metrics. @default none */
  metrics?: Registry;
  /** Where the line per completed language (and per pause) goes. @default console.warn */
  log?: GatewayLog;
  /** Most problems in one page. @default 20 */
  maxPageSize?: number;
  /** How long a replica holds a language between pages before another may take it over. @default 2 minutes */
  leaseMs?: number;
  /** How long a language is left after its pages kept failing, or while another replica holds it. @default 1 minute */
  retryMs?: number;
  /** How long readers' calls in flight are looked at again while prewarming waits for them. @default 25 */
  readersPollMs?: number;
  /**
   * How long no translation call must have been in flight before a page starts: a reader's next
   * request usually follows its last within this, so a page never slips in between. @default 200
   */
  readersQuietMs?: number;
  /** What paces, refreshes, backs off and waits for readers' quiet (tests move it). @default the system's */
  clock?: PrewarmClock;
}

export interface TranslationPrewarm {
  /** Stops at once between pages, or when the page under way ends; resolves when nothing is left running. */
  stop(): Promise<void>;
}

/**
 * Translates the catalogue into each listed language in the background, a page at a time, through
 * the gateway's own execution of the Problem.translation link: whatever a reader's page would
 * cost, prewarming pays first, so the reader's page is served from the cache. It runs only while
 * readers have no translation call in flight, within `callsPerSecond`, backing off when the service
 * fails or asks to wait; each language's progress is kept in the store, and a lease keeps replicas
 * sharing that store from walking the same language at once. Walks begin again every `refreshMs`:
 * unchanged texts are cache hits, changed ones are translated.
 */
export function startTranslationPrewarm({
  languages,
  target,
  calls,
  callsPerSecond = defaultOf('translationPrewarmCallsPerSecond'),
  refreshMs = defaultOf('translationPrewarmRefreshSeconds') * 1000,
  cacheTtlMs,
  store = createMemoryKeyValueStore({ maxBytes: 1024 * 1024 }),
  clock = SYSTEM_CLOCK,
  leases = createMemoryLeases(clock.now),
  pace,
  metrics: registry,
  log = console.warn,
  maxPageSize = 20,
  leaseMs = 2 * 60 * 1000,
  retryMs = 60 * 1000,
  readersPollMs = 25,
  readersQuietMs = 200,
}: TranslationPrewarmOptions): TranslationPrewarm {
  const stopping = new AbortController();
  const signal = stopping.signal;
  if (languages.length === 0) return { stop: async () => undefined };
  if (cacheTtlMs <= 0) {
    log('translation prewarm: off, the translation cache is off (TRANSLATION_CACHE_TTL_SECONDS=0 or TRANSLATION_CACHE_MAX_BYTES=0): nothing prewarmed would be kept', 'warn');
    return { stop: async () => undefined };
  }
  const metrics: PrewarmMetrics | undefined = registry && createPrewarmMetrics(registry, languages);
  const readers = createReadersWatch(calls, { pollMs: readersPollMs, quietMs: readersQuietMs, signal, clock });
  const pages = createPageRunner(target, calls, signal);
  const walker = createLanguageWalker({
    owner: randomUUID(),
    leases,
    leaseMs,
    retryMs,
    refreshMs,
    callsPerSecond,
    maxPageSize,
    // Kept well past a walk, so a replica restarting mid-walk or within a refresh finds it.
    progressStore: createProgressStore(store, Math.max(2 * refreshMs, 24 * 60 * 60 * 1000)),
    metrics,
    log,
    signal,
    clock,
    pacer: createCallPacer(callsPerSecond, clock.now),
    readers,
    reservations: createPageReservations({ pace, callsPerSecond, leaseMs, readers, signal, clock }),
    pages,
  });
  let reportedReason: string | undefined;

  const loop = async () => {
    while (!signal.aborted) {
      const current = target();
      current?.release?.();
      const plan = current && pages.planFor(current.schema);
      if (!plan || 'reason' in plan) {
        const reason = plan && 'reason' in plan ? plan.reason : 'no schema yet';
        if (reason !== reportedReason) log(`translation prewarm: not running, ${reason}`, 'warn');
        reportedReason = reason;
        await clock.pause(Math.min(refreshMs, retryMs), signal);
        continue;
      }
      reportedReason = undefined;
      let next = clock.now() + refreshMs;
      for (const language of languages) {
        if (signal.aborted) break;
        next = Math.min(next, await walker.serve(language));
      }
      await clock.pause(next - clock.now(), signal);
    }
  };

  const running = loop().catch((error: unknown) => log(`translation prewarm: stopped by an unexpected error (${(error as Error)?.message ?? error})`, 'error'));
  return {
    async stop() {
      stopping.abort();
      await running;
    },
  };
}

/** The settings prewarming reads (settings.ts documents each). */
export type TranslationPrewarmSettings = Pick<
  GatewaySettings,
  'translationPrewarm' | 'translationPrewarmCallsPerSecond' | 'translationPrewarmRefreshSeconds' | 'translationCacheTtlSeconds' | 'translationCacheMaxBytes'
>;

/**
 * Prewarming as the settings describe it (nothing runs when TRANSLATION_PREWARM is unset), its
 * progress and leases in the shared stores when replicas share Redis.
 */
export function translationPrewarmFor(
  settings: TranslationPrewarmSettings,
  { target, runtime, shared, metrics, log, clock }: Pick<TranslationPrewarmOptions, 'target' | 'metrics' | 'log' | 'clock'> & {
    runtime: Pick<TranslationRuntime, 'calls'>;
    shared?: Pick<RedisStores, 'keyValueStore' | 'connection' | 'prefix'>;
  },
): TranslationPrewarm {
  return startTranslationPrewarm({
    languages: settings.translationPrewarm,
    target,
    calls: runtime.calls,
    callsPerSecond: settings.translationPrewarmCallsPerSecond,
    refreshMs: settings.translationPrewarmRefreshSeconds * 1000,
    cacheTtlMs: settings.translationCacheMaxBytes > 0 ? settings.translationCacheTtlSeconds * 1000 : 0,
    store: shared?.keyValueStore(SHARED_NAMESPACE),
    leases: shared && createRedisLeases(shared.connection, { prefix: shared.prefix, namespace: SHARED_NAMESPACE }),
    // A clock given to prewarming (a test's) is the shared pace's too; else the pace keeps Redis's.
    pace: shared && createRedisPace(shared.connection, { prefix: shared.prefix, namespace: SHARED_NAMESPACE, now: clock?.now }),
    metrics,
    log,
    clock,
  });
}

/** Where prewarming's progress, leases and pace live in the shared store. */
const SHARED_NAMESPACE = 'translation-prewarm';
