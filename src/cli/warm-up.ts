import { warmGraphiQLAssets } from '../gateway/graphiql/assets.ts';
import { DEFAULT_STATEMENT_LIMITS } from '../gateway/statement/statement-limits.ts';
import { startSpareStatementThread } from '../gateway/statement/statement-thread.ts';

export interface WarmUpOptions {
  /** Whether the Problem.translation link is in place (it is what runs statements in the thread). */
  translationLink: boolean;
  /** Whether GraphiQL is served. */
  graphiql: boolean;
}

/**
 * What the entry loads in the background once the gateway listens, so the first requests do not
 * load it on their way: the statements' worker thread (remark and its dependencies, loaded in a
 * thread of its own), then GraphiQL's files read and compressed. The statements first, since the
 * first cross-source query needs them; GraphiQL after, so both never compete for the CPU.
 *
 * Nothing here decides an answer: the gateway takes a spare thread only if it asks for the same
 * limits (the translation runtime's defaults), and a warm-up that fails is left for the request that
 * needs it to do again and report, as it would have without a warm-up. Nothing is sent upstream.
 */
export function warmUp({ translationLink, graphiql }: WarmUpOptions): void {
  void (async () => {
    if (translationLink) await startSpareStatementThread({ limits: DEFAULT_STATEMENT_LIMITS }).catch(() => undefined);
    if (graphiql) await warmGraphiQLAssets().catch(() => undefined);
  })();
}
