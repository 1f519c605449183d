import { randomUUID } from 'node:crypto';
import type { SharedPace } from './call-pacer.ts';
import type { PrewarmClock } from './prewarm-clock.ts';
import type { ReadersWatch } from './readers-watch.ts';

/** How long a page waits before asking the shared pace again when its store could not answer. */
const PACE_AWAY_RETRY_MS = 1000;

/** A page's reservation of calls in the shared pace, settled with the calls it made. */
export interface PageCharge {
  page: string;
  expected: number;
  made: number;
}

export interface PageReservations {
  /**
   * Waits until readers are idle and, with a shared pace, until it grants `expected` calls: resolves
   * the reservation to settle when the page ends, or undefined when stopping. While the store cannot
   * answer, no page starts (another replica's pages may be using the budget): it asks again later.
   */
  ready(expected: number): Promise<Omit<PageCharge, 'made'> | undefined>;
  /** Tells the shared pace what the page made; a charge that does not reach it is told again before the next ask. */
  settle(charge: PageCharge): Promise<void>;
}

export function createPageReservations({
  pace,
  callsPerSecond,
  leaseMs,
  readers,
  signal,
  clock,
}: {
  pace?: SharedPace;
  callsPerSecond: number;
  leaseMs: number;
  readers: ReadersWatch;
  signal: AbortSignal;
  clock: PrewarmClock;
}): PageReservations {
  // Pages whose charge did not reach the shared pace: until it does, their reservation holds a
  // part of every replica's budget for as long as a lease, so it is told again before the next ask.
  const unsettled: PageCharge[] = [];
  const settle = async (charge: PageCharge) => {
    if (pace && !(await pace.settle(charge.page, charge.expected, charge.made).then(() => true, () => false))) {
      // Past a few, the oldest are left to lapse by themselves.
      if (unsettled.push(charge) > 16) unsettled.shift();
    }
  };
  const settleLate = async () => {
    for (const charge of unsettled.splice(0)) await settle(charge);
  };
  return {
    settle,
    async ready(expected) {
      // One name for all its asks: a page that waits keeps its place in the shared queue.
      const page = randomUUID();
      while (!signal.aborted) {
        await readers.idle();
        if (signal.aborted) break;
        if (!pace) return { page, expected };
        await settleLate();
        const wait = await pace.reserve(page, expected, callsPerSecond, leaseMs).catch(() => PACE_AWAY_RETRY_MS);
        if (wait === 0) return { page, expected };
        await clock.pause(wait, signal);
      }
      return undefined;
    },
  };
}
