import type { GatewayLog } from '../../gateway-log.ts';
import { pageSizeFor, type CallPacer } from './call-pacer.ts';
import type { CataloguePage } from './catalogue-page.ts';
import type { Leases } from './leases.ts';
import type { PageReservations } from './page-reservations.ts';
import type { PageRun, PageRunner } from './page-runner.ts';
import type { PrewarmClock } from './prewarm-clock.ts';
import type { PrewarmMetrics } from './prewarm-metrics.ts';
import { chained, newWalk, type PrewarmProgress, type ProgressStore } from './prewarm-progress.ts';
import { PAGE_SIZE_AMONG_READERS, type ReadersWatch } from './readers-watch.ts';

/** Attempts of one page, the service failing each time, before its language is left for `retryMs`. */
const MAX_ATTEMPTS = 5;
/** Longest wait between attempts when the service named none (Retry-After). */
const MAX_BACKOFF_MS = 60_000;
/** Least time between two pages, so a walk of cached pages does not hurry the problems service. */
const MIN_PAGE_GAP_MS = 100;
/** Most lines about skipped problems while a language is held; the completion line has the count. */
const MAX_SKIPPED_LINES = 10;
/** Most skipped problems remembered as already logged; past it the oldest may be logged again. */
const MAX_SKIPPED_NOTED = 10_000;

export interface LanguageWalkOptions {
  /** This replica's name in the leases. */
  owner: string;
  leases: Leases;
  leaseMs: number;
  retryMs: number;
  refreshMs: number;
  callsPerSecond: number;
  maxPageSize: number;
  progressStore: ProgressStore;
  metrics?: PrewarmMetrics;
  log: GatewayLog;
  signal: AbortSignal;
  clock: PrewarmClock;
  pacer: CallPacer;
  readers: ReadersWatch;
  reservations: PageReservations;
  pages: PageRunner;
}

/** What a spell on one language has said and tried so far. */
interface Spell {
  /** Failed attempts at the current page. */
  attempts: number;
  /** Lines said about skipped problems: a cause shared by all (a language the service does not offer) fails every problem. */
  said: number;
  /** Problems skipped, per cause. */
  failures: Map<string, number>;
}

/** What the walker learns and remembers across languages and spells. */
interface WalkerState {
  /** A problem's texts rarely take more than one call; learned from the pages that made calls. */
  callsPerProblem: number;
  /** Problems already said to be skipped (per language and cause): said once, not at every walk. */
  skipped: { note(key: string): boolean };
}

/**
 * Walks one language's catalogue a page at a time while holding its lease, from where its progress
 * stands: `serve(language)` resolves with when the language wants attention next.
 */
export function createLanguageWalker(options: LanguageWalkOptions): { serve(language: string): Promise<number> } {
  const { owner, leases, leaseMs, retryMs, refreshMs, progressStore, metrics, log, signal, clock } = options;
  const state: WalkerState = { callsPerProblem: 1, skipped: onceEach(MAX_SKIPPED_NOTED) };

  const walk = async (language: string, start: PrewarmProgress): Promise<number> => {
    let progress = start;
    const spell: Spell = { attempts: 0, said: 0, failures: new Map() };
    while (!signal.aborted) {
      const ran = await nextPage(options, state, language, progress);
      if (ran === 'stopped') break;
      if (ran === 'lost') return clock.now() + retryMs;
      const { page, calls: made } = ran;
      metrics?.calls(language, made);
      progress = { ...progress, calls: progress.calls + made };
      if (made > 0 && page.problems.length > 0) state.callsPerProblem = made / page.problems.length;
      // Some of the page translated, the rest failing attempt after attempt: the service works, and
      // fails on those problems; they are skipped (counted as failed) rather than hold the walk.
      const partly = page.problems.some((problem) => problem.translated);
      if (page.transient && !signal.aborted && !(partly && spell.attempts + 1 >= MAX_ATTEMPTS)) {
        spell.attempts += 1;
        if (spell.attempts >= MAX_ATTEMPTS) {
          log(`translation prewarm: ${language} paused after ${spell.attempts} failed attempts at one page (${page.transient.codes.join(', ')}); trying again in ${Math.round(retryMs / 1000)} s from where it stopped`, 'warn');
          await progressStore.write(language, progress).catch(() => undefined);
          return clock.now() + retryMs;
        }
        // The service's own word on when to come back wins; else exponential, with jitter.
        const backoff = page.transient.retryAfterMs ?? Math.min(MAX_BACKOFF_MS, 1000 * 2 ** (spell.attempts - 1)) * (0.5 + Math.random() / 2);
        await clock.pause(backoff, signal);
        continue;
      }
      // Stopped mid-page: its calls count, its problems are left to the next walk (or replica).
      if (page.transient && signal.aborted) {
        await progressStore.write(language, progress).catch(() => undefined);
        break;
      }
      // A page that ran to its end is recorded even while stopping: its calls are made.
      spell.attempts = 0;
      const recorded = recordPage(options, state, language, progress, page, spell);
      progress = recorded.progress;
      metrics?.progress(language, progress);
      await progressStore.write(language, progress).catch(() => undefined);
      if (recorded.finished) {
        metrics?.completed(language);
        log(completionLine(language, progress), progress.failed > 0 ? 'warn' : 'info');
        return progress.completedAt! + refreshMs;
      }
    }
    return clock.now();
  };

  return {
    /** Works on `language` while holding its lease; resolves with when it wants attention next. */
    async serve(language) {
      const held = await leases.acquire(language, owner, leaseMs).catch(() => false);
      if (!held) return clock.now() + Math.min(retryMs, leaseMs);
      try {
        const stored = await progressStore.read(language).catch(() => undefined);
        if (stored?.completedAt !== undefined && clock.now() - stored.completedAt < refreshMs) {
          metrics?.progress(language, stored);
          return stored.completedAt + refreshMs;
        }
        return await walk(language, stored && stored.completedAt === undefined ? stored : newWalk(clock.now(), stored));
      } finally {
        await leases.release(language, owner).catch(() => undefined);
      }
    },
  };
}

/** Waits for its turn and runs the next page; 'stopped', or 'lost' (the lease, or no page could run). */
async function nextPage(options: LanguageWalkOptions, state: WalkerState, language: string, progress: PrewarmProgress): Promise<PageRun | 'stopped' | 'lost'> {
  const { readers, callsPerSecond, maxPageSize, pacer, signal, clock, reservations, leases, owner, leaseMs, pages } = options;
  await readers.idle();
  const { callsPerProblem } = state;
  const size = pageSizeFor(callsPerSecond, callsPerProblem, maxPageSize);
  const expected = Math.min(callsPerSecond, Math.max(1, Math.ceil(size * callsPerProblem)));
  // This replica's own window first: it holds its last pages' calls even when the shared
  // store could not be told of them.
  await clock.pause(Math.max(MIN_PAGE_GAP_MS, pacer.waitMs(expected)), signal);
  const reserved = await reservations.ready(expected);
  if (!reserved) return 'stopped';
  let ran: PageRun | undefined;
  try {
    const pageSize = readers.about() ? Math.min(size, PAGE_SIZE_AMONG_READERS) : size;
    // Held between pages: lost (this replica was too slow), the language is someone else's now.
    if (!(await leases.acquire(language, owner, leaseMs).catch(() => false))) return 'lost';
    ran = await pages.run(language, progress.cursor, pageSize);
  } finally {
    readers.pageEnded();
    // What the page made, overdraft included, is what the next pages of every replica wait out.
    const made = ran?.calls ?? 0;
    pacer.record(made);
    await reservations.settle({ ...reserved, made });
  }
  return ran ?? 'lost';
}

/** The progress after a page that ran to its end; its skipped problems said (a few, once each). */
function recordPage(options: LanguageWalkOptions, state: WalkerState, language: string, progress: PrewarmProgress, page: CataloguePage, spell: Spell): { progress: PrewarmProgress; finished: boolean } {
  const { log, clock } = options;
  const { skipped } = state;
  const failed = page.problems.filter((problem) => !problem.translated);
  for (const problem of failed) {
    spell.failures.set(problem.failure!, (spell.failures.get(problem.failure!) ?? 0) + 1);
    if (spell.said < MAX_SKIPPED_LINES && skipped.note(`${language}\u0000${problem.id}\u0000${problem.failure}`)) {
      spell.said += 1;
      log(`translation prewarm: ${language}: problem ${JSON.stringify(problem.id.slice(0, 100))} skipped, not translated (${problem.failure}); the walk goes on`, 'warn');
    }
  }
  const next: PrewarmProgress = {
    ...progress,
    cursor: page.endCursor ?? progress.cursor,
    done: progress.done + page.problems.length - failed.length,
    failed: progress.failed + failed.length,
    chain: chained(progress.chain, page.problems.map((problem) => problem.digest)),
    ...(page.total !== undefined ? { total: page.total } : {}),
    ...(spell.failures.size > 0 ? { failure: [...spell.failures].sort((a, b) => b[1] - a[1])[0][0] } : {}),
  };
  const finished = !page.hasNextPage || page.endCursor === null;
  return { progress: finished ? { ...next, completedAt: clock.now() } : next, finished };
}

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

/** The one line for a language whose walk reached the end of the catalogue. */
function completionLine(language: string, { done, failed, calls, startedAt, completedAt, chain, catalogue, failure }: PrewarmProgress): string {
  const seconds = ((completedAt! - startedAt) / 1000).toFixed(1);
  const changed = catalogue === undefined ? '' : catalogue === chain ? '; catalogue unchanged since the last walk' : '; catalogue changed since the last walk';
  const failures = failed > 0 ? `, ${failed} failed (${failure})` : ', 0 failed';
  return `translation prewarm: ${language} complete: ${done} problems translated or cached${failures}, ${calls} translation call${calls === 1 ? '' : 's'}, ${seconds} s${changed}`;
}
