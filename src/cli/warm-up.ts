import { setTimeout as sleep } from 'node:timers/promises';
import { warmGraphiQLAssets } from '../gateway/graphiql/assets.ts';
import { DEFAULT_STATEMENT_LIMITS } from '../gateway/statement/statement-limits.ts';
import { startSpareStatementThread } from '../gateway/statement/statement-thread.ts';

export interface WarmUpOptions {
  /** Whether the Problem.translation link is in place (it is what runs statements in the thread). */
  translationLink: boolean;
  /** Whether GraphiQL is served. */
  graphiql: boolean;
  /** Whether the gateway has no request in flight. */
  idle: () => boolean;
}

/** How often, and how many times in a row, the gateway must be found idle before GraphiQL's files are prepared. */
const QUIET_CHECK_MS = 200;
const QUIET_CHECKS = 3;

/**
 * What the entry loads in the background once the gateway listens, so the first requests do not
 * load it on their way: the statements' worker thread at once (remark and its dependencies, loaded
 * in a thread of its own; the first cross-source query needs it), then, once no request has been in
 * flight for a moment, GraphiQL's files read and compressed (work on this thread and the CPU that a
 * first query would otherwise have to share).
 *
 * Nothing here decides an answer: the gateway takes the spare thread only if it asks for the same
 * limits (the translation runtime's defaults), and a warm-up that fails is left for the request that
 * needs it to do again and report, as it would have without a warm-up. Nothing is sent upstream.
 */
export function warmUp({ translationLink, graphiql, idle }: WarmUpOptions): void {
  void (async () => {
    if (translationLink) await startSpareStatementThread({ limits: DEFAULT_STATEMENT_LIMITS }).catch(() => undefined);
    if (!graphiql) return;
    for (let quiet = 0; quiet < QUIET_CHECKS; quiet = idle() ? quiet + 1 : 0) await sleep(QUIET_CHECK_MS, undefined, { ref: false });
    await warmGraphiQLAssets().catch(() => undefined);
  })();
}
