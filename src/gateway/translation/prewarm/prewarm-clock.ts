/**
 * The time prewarming keeps: its pace, its refreshes, its backoffs and its wait for readers' quiet.
 * One object for all of them, so that a test moves time forward instead of waiting for it to pass
 * (the translation calls' gate stamps readers' calls on the same clock: their quiet is read on it).
 */
export interface PrewarmClock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves after `ms`, or at once when `signal` aborts (nothing is left waiting either way). */
  pause(ms: number, signal: AbortSignal): Promise<void>;
}

/** The machine's clock and timers. */
export const SYSTEM_CLOCK: PrewarmClock = { now: () => Date.now(), pause };

function pause(ms: number, signal: AbortSignal): Promise<void> {
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
