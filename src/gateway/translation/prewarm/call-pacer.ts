/**
 * Keeps prewarming's translation calls within `callsPerSecond` over any one-second window. Calls are
 * recorded when the page that made them has finished (never earlier than they happened), so a page
 * may start only when the window behind it, with the calls the page is expected to make, fits: no
 * second then holds more than the rate as long as a page makes no more calls than expected, and
 * pages are sized so that they are expected to make at most the rate (pageSizeFor).
 */
export interface CallPacer {
  /** How long to wait before a page expected to make `expected` calls may start. */
  waitMs(expected: number): number;
  /** The calls a page made, as it finished. */
  record(calls: number): void;
}

const WINDOW_MS = 1000;

export function createCallPacer(callsPerSecond: number, now: () => number = Date.now): CallPacer {
  const recent: { at: number; calls: number }[] = [];
  const prune = (time: number) => {
    while (recent.length > 0 && recent[0].at <= time - WINDOW_MS) recent.shift();
  };
  return {
    waitMs(expected) {
      const time = now();
      prune(time);
      const wanted = Math.min(expected, callsPerSecond);
      let inWindow = recent.reduce((sum, entry) => sum + entry.calls, 0);
      if (inWindow + wanted <= callsPerSecond) return 0;
      // The moment enough of the window's calls have left it.
      for (const entry of recent) {
        inWindow -= entry.calls;
        if (inWindow + wanted <= callsPerSecond) return entry.at + WINDOW_MS - time + 1;
      }
      return WINDOW_MS;
    },
    record(calls) {
      if (calls > 0) recent.push({ at: now(), calls });
    },
  };
}

/**
 * Problems per page so that a page is expected to make at most `callsPerSecond` calls, given the
 * calls per problem seen so far (1 until a page made calls: a problem's texts rarely need more).
 */
export function pageSizeFor(callsPerSecond: number, callsPerProblem: number, maxPageSize: number): number {
  if (callsPerProblem <= 0) return maxPageSize;
  return Math.max(1, Math.min(maxPageSize, Math.floor(callsPerSecond / callsPerProblem)));
}

/** Resolves after `ms`, or at once when `signal` aborts (the timer is cleared either way). */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted || ms <= 0) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
