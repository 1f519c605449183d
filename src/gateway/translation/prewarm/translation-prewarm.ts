import { randomUUID } from 'node:crypto';
import { parse, type DocumentNode, type ExecutionResult, type GraphQLSchema } from 'graphql';
import type { Registry } from 'prom-client';
import { createMemoryKeyValueStore, type KeyValueStore } from '../../cache/key-value-store.ts';
import type { GatewayLog } from '../../observability/gateway-log.ts';
import type { RedisStores } from '../../redis/index.ts';
import type { GatewaySettings } from '../../settings.ts';
import type { TranslationRuntime } from '../translation-runtime.ts';
import { createCallPacer, pageSizeFor, pause, type SharedPace } from './call-pacer.ts';
import { planCataloguePage, type CataloguePage, type CataloguePagePlan } from './catalogue-page.ts';
import { createMemoryLeases, type Leases } from './leases.ts';
import { createRedisLeases } from './redis-leases.ts';
import { createRedisPace } from './redis-pace.ts';
import { createPrewarmMetrics, type PrewarmMetrics } from './prewarm-metrics.ts';
import { chained, createProgressStore, newWalk, type PrewarmProgress, type ProgressStore } from './prewarm-progress.ts';

/** What prewarming executes its pages with: the gateway's mesh as it is now (it may be swapped while running). */
export interface PrewarmTarget {
  /** Runs an operation as Mesh runs a reader's: the link, its batching and its cache included. */
  execute(document: DocumentNode, variables: Record<string, unknown>, context: object): Promise<ExecutionResult> | ExecutionResult;
  schema: GraphQLSchema;
  /** Lets the mesh go once the page has run (a swapped-out mesh is disposed when nothing runs on it). */
  release?(): void;
}

export interface TranslationPrewarmOptions {
  /** Languages to prewarm, as TRANSLATION_PREWARM lists them. */
  languages: readonly string[];
  /** The current mesh's execute and schema, asked for at every page (never held: the mesh may be swapped). */
  target: () => PrewarmTarget | undefined;
  /** The translation runtime's view of its calls: readers' calls in flight, and the calls a page made. */
  calls: TranslationRuntime['calls'];
  /** TRANSLATION_PREWARM_CALLS_PER_SECOND. @default 2 */
  callsPerSecond?: number;
  /** TRANSLATION_PREWARM_REFRESH_SECONDS in ms. @default 1 hour */
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
}

export interface TranslationPrewarm {
  /** Stops at once between pages, or when the page under way ends; resolves when nothing is left running. */
  stop(): Promise<void>;
}

/** Attempts of one page, the service failing each time, before its language is left for `retryMs`. */
const MAX_ATTEMPTS = 5;
/** Longest wait between attempts when the service named none (Retry-After). */
const MAX_BACKOFF_MS = 60_000;
/** Least time between two pages, so a walk of cached pages does not hurry the problems service. */
const MIN_PAGE_GAP_MS = 100;
/**
 * Most problems in a page while readers are about (a reader's call settled in the last
 * READERS_RECENT_MS): a page's statements are prepared on the same thread as readers', so a reader
 * who comes while a page is under way waits for at most this many.
 */
const PAGE_SIZE_AMONG_READERS = 5;
const READERS_RECENT_MS = 10_000;
/** How long a page waits before asking the shared pace again when its store could not answer. */
const PACE_AWAY_RETRY_MS = 1000;
/** Most lines about skipped problems while a language is held; the completion line has the count. */
const MAX_SKIPPED_LINES = 10;
/** Most skipped problems remembered as already logged; past it the oldest may be logged again. */
const MAX_SKIPPED_NOTED = 10_000;

/** `note(key)` is true the first time a key is seen (of the last `max`). */
function onceEach(max: number): { note(key: string): boolean } {
  const seen = new Set<string>();
  return {
    note(key) {
      if (seen.has(key)) return false;
      seen.add(key);
      if (seen.size > max) seen.delete(seen.values().next().value!);
      return true;
    },
  };
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
  callsPerSecond = 2,
  refreshMs = 60 * 60 * 1000,
  cacheTtlMs,
  store = createMemoryKeyValueStore({ maxBytes: 1024 * 1024 }),
  leases = createMemoryLeases(),
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
  // Kept well past a walk, so a replica restarting mid-walk or within a refresh finds it.
  const progressStore: ProgressStore = createProgressStore(store, Math.max(2 * refreshMs, 24 * 60 * 60 * 1000));
  const owner = randomUUID();
  const pacer = createCallPacer(callsPerSecond);
  // A problem's texts rarely take more than one call; learned from the pages that made calls.
  let callsPerProblem = 1;
  // Between pages prewarming has no call of its own: a call that settled after its last page is a reader's.
  let lastPageEndedAt = 0;
  let lastReaderSeenAt = -Infinity;
  const readersAbout = () => {
    if (calls.lastSettledAt > lastPageEndedAt) lastReaderSeenAt = calls.lastSettledAt;
    return Date.now() - lastReaderSeenAt < READERS_RECENT_MS;
  };
  let planned: { schema: GraphQLSchema; plan: CataloguePagePlan | { reason: string }; document?: DocumentNode } | undefined;
  // Problems already said to be skipped (per language and cause): said once, not at every walk.
  const skipped = onceEach(MAX_SKIPPED_NOTED);
  let reportedReason: string | undefined;

  const planFor = (schema: GraphQLSchema) => {
    if (planned?.schema !== schema) {
      const plan = planCataloguePage(schema);
      planned = { schema, plan, document: 'document' in plan ? parse(plan.document) : undefined };
    }
    return planned;
  };

  // Between pages prewarming has no call in flight of its own: any call in flight is a reader's.
  // (Its own last call counts in the quiet moment too, which only spaces its pages a little more.)
  const readersIdle = async () => {
    while (!signal.aborted && (calls.inFlight > 0 || Date.now() - calls.lastSettledAt < readersQuietMs)) {
      await pause(calls.inFlight > 0 ? readersPollMs : Math.max(readersPollMs, readersQuietMs - (Date.now() - calls.lastSettledAt)), signal);
    }
  };

  /** One page of one language, executed as a request of its own; undefined when stopped or the schema cannot carry it. */
  const runPage = async (language: string, cursor: string | null, size: number): Promise<{ page: CataloguePage; calls: number } | undefined> => {
    const current = target();
    if (!current) return undefined;
    const { plan, document } = planFor(current.schema);
    if (!('document' in plan) || !document) {
      current.release?.();
      return undefined;
    }
    // A request of its own: its calls are counted apart from readers' (the call gate keys on it),
    // and stopping the gateway aborts it.
    const request = new Request('http://gateway.internal/translation-prewarm', { signal });
    const context = { request };
    let result: ExecutionResult;
    try {
      result = await current.execute(document, plan.variables(size, cursor, language), context);
    } catch (error) {
      result = { errors: [{ message: String(error), extensions: { code: 'INTERNAL_SERVER_ERROR' } }] as unknown as ExecutionResult['errors'] };
    } finally {
      current.release?.();
    }
    return { page: plan.read(result as Parameters<CataloguePagePlan['read']>[0], size, cursor), calls: calls.madeFor(request) };
  };

  // Pages whose charge did not reach the shared pace: until it does, their reservation holds a
  // part of every replica's budget for as long as a lease, so it is told again before the next ask.
  const unsettled: { page: string; expected: number; made: number }[] = [];
  const settle = async (charge: { page: string; expected: number; made: number }) => {
    if (pace && !(await pace.settle(charge.page, charge.expected, charge.made).then(() => true, () => false))) {
      // Past a few, the oldest are left to lapse by themselves.
      if (unsettled.push(charge) > 16) unsettled.shift();
    }
  };
  const settleLate = async () => {
    for (const charge of unsettled.splice(0)) await settle(charge);
  };

  /**
   * Waits until readers are idle and, with a shared pace, until it grants `expected` calls: resolves
   * the reservation to settle when the page ends, or undefined when stopping. While the store cannot
   * answer, no page starts (another replica's pages may be using the budget): it asks again later.
   */
  const readyForPage = async (expected: number): Promise<{ page: string; expected: number } | undefined> => {
    // One name for all its asks: a page that waits keeps its place in the shared queue.
    const page = randomUUID();
    while (!signal.aborted) {
      await readersIdle();
      if (signal.aborted) break;
      if (!pace) return { page, expected };
      await settleLate();
      const wait = await pace.reserve(page, expected, callsPerSecond, leaseMs).catch(() => PACE_AWAY_RETRY_MS);
      if (wait === 0) return { page, expected };
      await pause(wait, signal);
    }
    return undefined;
  };

  /** Works on `language` while holding its lease; resolves with when it wants attention next. */
  const serve = async (language: string): Promise<number> => {
    const held = await leases.acquire(language, owner, leaseMs).catch(() => false);
    if (!held) return Date.now() + Math.min(retryMs, leaseMs);
    try {
      const stored = await progressStore.read(language).catch(() => undefined);
      if (stored?.completedAt !== undefined && Date.now() - stored.completedAt < refreshMs) {
        metrics?.progress(language, stored);
        return stored.completedAt + refreshMs;
      }
      let progress = stored && stored.completedAt === undefined ? stored : newWalk(Date.now(), stored);
      let attempts = 0;
      const failures = new Map<string, number>();
      // Lines said about skipped problems in this spell: a cause shared by all (a language the service
      // does not offer) fails every problem, and the completion line counts them anyway.
      let said = 0;
      while (!signal.aborted) {
        await readersIdle();
        const size = pageSizeFor(callsPerSecond, callsPerProblem, maxPageSize);
        const expected = Math.min(callsPerSecond, Math.max(1, Math.ceil(size * callsPerProblem)));
        // This replica's own window first: it holds its last pages' calls even when the shared
        // store could not be told of them.
        await pause(Math.max(MIN_PAGE_GAP_MS, pacer.waitMs(expected)), signal);
        const reserved = await readyForPage(expected);
        if (!reserved) break;
        let ran: Awaited<ReturnType<typeof runPage>> = undefined;
        try {
          const pageSize = readersAbout() ? Math.min(size, PAGE_SIZE_AMONG_READERS) : size;
          // Held between pages: lost (this replica was too slow), the language is someone else's now.
          if (!(await leases.acquire(language, owner, leaseMs).catch(() => false))) return Date.now() + retryMs;
          ran = await runPage(language, progress.cursor, pageSize);
        } finally {
          lastPageEndedAt = Date.now();
          // What the page made, overdraft included, is what the next pages of every replica wait out.
          const made = ran?.calls ?? 0;
          pacer.record(made);
          await settle({ ...reserved, made });
        }
        if (!ran) return Date.now() + retryMs;
        const { page, calls: made } = ran;
        metrics?.calls(language, made);
        progress = { ...progress, calls: progress.calls + made };
        if (made > 0 && page.problems.length > 0) callsPerProblem = made / page.problems.length;
        // Some of the page translated, the rest failing attempt after attempt: the service works, and
        // fails on those problems; they are skipped (counted as failed) rather than hold the walk.
        const partly = page.problems.some((problem) => problem.translated);
        if (page.transient && !signal.aborted && !(partly && attempts + 1 >= MAX_ATTEMPTS)) {
          attempts += 1;
          if (attempts >= MAX_ATTEMPTS) {
            log(`translation prewarm: ${language} paused after ${attempts} failed attempts at one page (${page.transient.codes.join(', ')}); trying again in ${Math.round(retryMs / 1000)} s from where it stopped`, 'warn');
            await progressStore.write(language, progress).catch(() => undefined);
            return Date.now() + retryMs;
          }
          // The service's own word on when to come back wins; else exponential, with jitter.
          const backoff = page.transient.retryAfterMs ?? Math.min(MAX_BACKOFF_MS, 1000 * 2 ** (attempts - 1)) * (0.5 + Math.random() / 2);
          await pause(backoff, signal);
          continue;
        }
        // Stopped mid-page: its calls count, its problems are left to the next walk (or replica).
        if (page.transient && signal.aborted) {
          await progressStore.write(language, progress).catch(() => undefined);
          break;
        }
        // A page that ran to its end is recorded even while stopping: its calls are made.
        attempts = 0;
        const failed = page.problems.filter((problem) => !problem.translated);
        for (const problem of failed) {
          failures.set(problem.failure!, (failures.get(problem.failure!) ?? 0) + 1);
          if (said < MAX_SKIPPED_LINES && skipped.note(`${language}\u0000${problem.id}\u0000${problem.failure}`)) {
            said += 1;
            log(`translation prewarm: ${language}: problem ${JSON.stringify(problem.id.slice(0, 100))} skipped, not translated (${problem.failure}); the walk goes on`, 'warn');
          }
        }
        progress = {
          ...progress,
          cursor: page.endCursor ?? progress.cursor,
          done: progress.done + page.problems.length - failed.length,
          failed: progress.failed + failed.length,
          chain: chained(progress.chain, page.problems.map((problem) => problem.digest)),
          ...(page.total !== undefined ? { total: page.total } : {}),
          ...(failures.size > 0 ? { failure: [...failures].sort((a, b) => b[1] - a[1])[0][0] } : {}),
        };
        const finished = !page.hasNextPage || page.endCursor === null;
        if (finished) progress = { ...progress, completedAt: Date.now() };
        metrics?.progress(language, progress);
        await progressStore.write(language, progress).catch(() => undefined);
        if (finished) {
          metrics?.completed(language);
          log(completionLine(language, progress), progress.failed > 0 ? 'warn' : 'info');
          return progress.completedAt! + refreshMs;
        }
      }
      return Date.now();
    } finally {
      await leases.release(language, owner).catch(() => undefined);
    }
  };

  const loop = async () => {
    while (!signal.aborted) {
      const current = target();
      current?.release?.();
      const plan = current && planFor(current.schema).plan;
      if (!plan || 'reason' in plan) {
        const reason = plan && 'reason' in plan ? plan.reason : 'no schema yet';
        if (reason !== reportedReason) log(`translation prewarm: not running, ${reason}`, 'warn');
        reportedReason = reason;
        await pause(Math.min(refreshMs, retryMs), signal);
        continue;
      }
      reportedReason = undefined;
      let next = Date.now() + refreshMs;
      for (const language of languages) {
        if (signal.aborted) break;
        next = Math.min(next, await serve(language));
      }
      await pause(next - Date.now(), signal);
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

/** The one line for a language whose walk reached the end of the catalogue. */
function completionLine(language: string, { done, failed, calls, startedAt, completedAt, chain, catalogue, failure }: PrewarmProgress): string {
  const seconds = ((completedAt! - startedAt) / 1000).toFixed(1);
  const changed = catalogue === undefined ? '' : catalogue === chain ? '; catalogue unchanged since the last walk' : '; catalogue changed since the last walk';
  const failures = failed > 0 ? `, ${failed} failed (${failure})` : ', 0 failed';
  return `translation prewarm: ${language} complete: ${done} problems translated or cached${failures}, ${calls} translation call${calls === 1 ? '' : 's'}, ${seconds} s${changed}`;
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
  { target, runtime, shared, metrics, log }: Pick<TranslationPrewarmOptions, 'target' | 'metrics' | 'log'> & {
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
    pace: shared && createRedisPace(shared.connection, { prefix: shared.prefix, namespace: SHARED_NAMESPACE }),
    metrics,
    log,
  });
}

/** Where prewarming's progress, leases and pace live in the shared store. */
const SHARED_NAMESPACE = 'translation-prewarm';
