import type { TranslationRuntime } from '../translation-runtime.ts';
import type { PrewarmClock } from './prewarm-clock.ts';

/**
 * Most problems in a page while readers are about (a reader's call settled in the last
 * READERS_RECENT_MS): a page's statements are prepared on the same thread as readers', so a reader
 * who comes while a page is under way waits for at most this many.
 */
export const PAGE_SIZE_AMONG_READERS = 5;
const READERS_RECENT_MS = 10_000;

/** Whether readers are translating: prewarming runs only in their quiet moments. */
export interface ReadersWatch {
  /** Whether a reader's call settled lately (pages are smaller then). */
  about(): boolean;
  /** Resolves once no call is in flight and none settled in the last `quietMs` (or on stopping). */
  idle(): Promise<void>;
  /** Told when a page ended: a call settled after it is a reader's. */
  pageEnded(): void;
}

export function createReadersWatch(
  calls: TranslationRuntime['calls'],
  { pollMs, quietMs, signal, clock }: { pollMs: number; quietMs: number; signal: AbortSignal; clock: PrewarmClock },
): ReadersWatch {
  // Between pages prewarming has no call of its own: a call that settled after its last page is a reader's.
  let lastPageEndedAt = 0;
  let lastReaderSeenAt = -Infinity;
  return {
    about() {
      if (calls.lastSettledAt > lastPageEndedAt) lastReaderSeenAt = calls.lastSettledAt;
      return clock.now() - lastReaderSeenAt < READERS_RECENT_MS;
    },
    // Between pages prewarming has no call in flight of its own: any call in flight is a reader's.
    // (Its own last call counts in the quiet moment too, which only spaces its pages a little more.)
    async idle() {
      while (!signal.aborted && (calls.inFlight > 0 || clock.now() - calls.lastSettledAt < quietMs)) {
        await clock.pause(calls.inFlight > 0 ? pollMs : Math.max(pollMs, quietMs - (clock.now() - calls.lastSettledAt)), signal);
      }
    },
    pageEnded() {
      lastPageEndedAt = clock.now();
    },
  };
}
