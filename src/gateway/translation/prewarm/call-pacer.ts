/**
 * Keeps prewarming's translation calls within `callsPerSecond` over any one-second window. Calls are
 * recorded when the page that made them has finished (never earlier than they happened), so a page
 * may start only when the window behind it, with the calls the page is expected to make, fits: no
 * second then holds more than the rate as long as a page makes no more calls than expected, and
 * pages are sized so that they are expected to make at most the rate (pageSizeFor). A page that
 * makes more is charged all it made as it ends, so the pages after it wait the overdraft out: only
 * the seconds that page's own calls fall in can go over, by its overdraft (bounding each call, not
 * each page, would take the call gate's word before every call).
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
 * One pace for the replicas sharing a store (Redis): a page reserves the calls it is expected to make
 * before it starts, against the calls every replica's pages reserved or made in the last second, and
 * when it ends its reservation is replaced by the calls it made, counted for a second from then. A
 * page in flight thus counts for every replica until it ends, and its calls for a second after: no
 * second at the service holds more than the rate from all replicas together, as long as each page
 * makes no more calls than it reserved (an overdraft is charged when the page ends, and waited out).
 */
export interface SharedPace {
  /**
   * Reserves `expected` calls for `page`, to be made within `callsPerSecond` all replicas together,
   * held at most `holdMs` (a replica gone mid-page frees its reservation then): resolves 0 when
   * granted, else how long to wait before asking again. Rejects when the store cannot answer.
   */
  reserve(page: string, expected: number, callsPerSecond: number, holdMs: number): Promise<number>;
  /** `page`, which reserved `expected`, ended having made `made` calls: they count for a second from now instead. */
  settle(page: string, expected: number, made: number): Promise<void>;
}

/**
 * Problems per page so that a page is expected to make at most `callsPerSecond` calls, given the
 * calls per problem seen so far (1 until a page made calls: a problem's texts rarely need more).
 */
export function pageSizeFor(callsPerSecond: number, callsPerProblem: number, maxPageSize: number): number {
  if (callsPerProblem <= 0) return maxPageSize;
  return Math.max(1, Math.min(maxPageSize, Math.floor(callsPerSecond / callsPerProblem)));
}
