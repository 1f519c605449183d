import { setTimeout as sleep } from 'node:timers/promises';
import { warmGraphiQLAssets } from '../gateway/graphiql/assets.ts';
import { DEFAULT_STATEMENT_LIMITS } from '../gateway/statement/statement-limits.ts';
import { startSpareStatementThread } from '../gateway/statement/statement-thread.ts';

/**
 * Starts loading the statements' worker thread (remark and its dependencies, in a thread of its own)
 * as a spare that the gateway's first statement takes: the first cross-source query needs it, and
 * would otherwise wait for it to load. Called before the gateway's own code loads, so the thread
 * loads on another core meanwhile. Nothing here decides an answer: the gateway takes the spare only if
 * it asks for the same limits (the translation runtime's defaults); one that fails to load is left
 * for the request that needs it to start again and report; one nobody takes (the
 * `Problem.translation` link left out) ends after the thread's idle time.
 */
export function warmStatementThread(): void {
  void startSpareStatementThread({ limits: DEFAULT_STATEMENT_LIMITS }).catch(() => undefined);
}

export interface WarmUpOptions {
  /** Whether GraphiQL is served. */
  graphiql: boolean;
  /** Whether the gateway has no request in flight. */
  idle: () => boolean;
}

/** How often, and how many times in a row, the gateway must be found idle before GraphiQL's files are prepared. */
const QUIET_CHECK_MS = 200;
const QUIET_CHECKS = 3;

/**
 * What the entry prepares in the background once the gateway listens, so the first requests do not
 * prepare it on their way: once no request has been in flight for a moment, GraphiQL's files read and
 * compressed (work on this thread and the CPU that a first query would otherwise have to share). A
 * warm-up that fails is left for the request that needs it to do again and report.
 */
export function warmUp({ graphiql, idle }: WarmUpOptions): void {
  if (!graphiql) return;
  void (async () => {
    for (let quiet = 0; quiet < QUIET_CHECKS; quiet = idle() ? quiet + 1 : 0) await sleep(QUIET_CHECK_MS, undefined, { ref: false });
    await warmGraphiQLAssets().catch(() => undefined);
  })();
}
