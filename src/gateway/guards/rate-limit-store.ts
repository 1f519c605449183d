import type { MaybeInProcess } from '../../shared/with-timeout.ts';

/**
 * Where rate-limit counters live. `hit` must count atomically (one increment per call, even under
 * concurrency), so that a shared store (Redis, with INCR and PEXPIRE in one script) can replace the
 * in-process one without admitting more than the limit.
 */
export interface RateLimitStore extends MaybeInProcess {
  /** Counts one hit on `key` in the current window; returns the count so far and when the window ends. */
  hit(key: string, windowMs: number): Promise<RateLimitWindow>;
  /** The same, at once, for a store in this process: a budget checked on every request need not wait a turn for it. */
  hitNow?(key: string, windowMs: number): RateLimitWindow;
}

/** A budget's window after one more hit: how many so far, and when it starts over. */
export interface RateLimitWindow {
  count: number;
  resetInMs: number;
}

/** Fixed windows in a Map: in one Node process, each hit is a synchronous, hence atomic, update. */
export function createMemoryRateLimitStore(now: () => number = Date.now): RateLimitStore & { readonly size: number } {
  const windows = new Map<string, { count: number; resetAt: number }>();
  let lastSweep = now();
  const hitNow = (key: string, windowMs: number): RateLimitWindow => {
    const at = now();
    // Drop finished windows now and then, so idle clients do not accumulate.
    if (at - lastSweep > windowMs) {
      for (const [oldKey, window] of windows) if (window.resetAt <= at) windows.delete(oldKey);
      lastSweep = at;
    }
    let window = windows.get(key);
    if (!window || window.resetAt <= at) {
      window = { count: 0, resetAt: at + windowMs };
      windows.set(key, window);
    }
    window.count += 1;
    return { count: window.count, resetInMs: window.resetAt - at };
  };
  return {
    inProcess: true,
    hitNow,
    hit: async (key, windowMs) => hitNow(key, windowMs),
    get size() {
      return windows.size;
    },
  };
}
