import type { PrewarmClock } from '../../src/gateway/translation/prewarm/prewarm-clock.ts';

/** A clock whose pauses take no time: what a test gives prewarming so that it never waits for time to pass. */
export interface SkippingClock extends PrewarmClock {
  /** Every pause asked for and not cut short, in milliseconds, in order. */
  readonly pauses: number[];
}

/**
 * Each pause of at most `skipsUpTo` moves the clock forward by its length and ends at the next turn of
 * the event loop, so that the sockets and timers of the rest of the gateway (a page's calls, a reader's
 * request) run meanwhile. Whoever pauses on it has at least the time asked for behind it when it
 * resumes: pauses of several loops on one clock add up, as on a machine that is slow to wake them. A
 * longer pause (the next refresh an hour away, a language another replica holds) lasts until it is cut
 * short (the gateway closing): skipped, it would turn a loop that waits into one that works without
 * end, and move this clock hours past the others' (replicas compare times through their store).
 * `turnMs` is the real time each skipped pause takes: a loop that polls on it (a replica asking the
 * shared pace again while another's page is in flight) then leaves the thread to the page's work
 * between two asks rather than spinning beside it.
 */
export function createSkippingClock({ start = Date.now(), skipsUpTo = 10_000, turnMs = 0 }: { start?: number; skipsUpTo?: number; turnMs?: number } = {}): SkippingClock {
  let now = start;
  const pauses: number[] = [];
  return {
    pauses,
    now: () => now,
    pause(ms, signal) {
      if (signal.aborted || ms <= 0) return Promise.resolve();
      return new Promise((resolve) => {
        const done = () => {
          clearTimeout(turn);
          signal.removeEventListener('abort', done);
          resolve();
        };
        // A timer rather than setImmediate: a loop polling for readers' calls in flight gives the
        // sockets a whole turn between two looks, rather than spinning between them.
        const turn =
          ms <= skipsUpTo
            ? setTimeout(() => {
                now += ms;
                pauses.push(ms);
                done();
              }, turnMs)
            : undefined;
        signal.addEventListener('abort', done, { once: true });
      });
    },
  };
}
