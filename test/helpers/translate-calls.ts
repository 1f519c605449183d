import type { TranslationService } from '../../src/upstreams/translation/service.ts';

export interface SeenCall {
  /** When the call reached the service (ms, on the clock the watch was given). */
  at: number;
  /** The language it asked for. */
  target: string;
}

/**
 * Watches the translation stand-in's POST /translate calls as they arrive, with the language each
 * asked for, each stamped on `now` (a test's clock, or performance.now()) as the stand-in records it.
 */
export function watchTranslateCalls(service: TranslationService, now: () => number = () => performance.now()): { calls: SeenCall[]; of(target: string): SeenCall[]; stop(): void } {
  const calls: SeenCall[] = [];
  const recorded = service.stats.lastRequests;
  // The stand-in records each request on arrival into this array (pushing it): stamped right there.
  const push = recorded.push;
  recorded.push = (...requests) => {
    for (const request of requests) {
      if (request.method === 'POST' && request.path === '/translate') calls.push({ at: now(), target: String((request.body as { target?: unknown } | undefined)?.target) });
    }
    return push.apply(recorded, requests);
  };
  return {
    calls,
    of: (target) => calls.filter((call) => call.target === target),
    stop: () => {
      recorded.push = push;
    },
  };
}

/** The most calls in any window of `windowMs` starting at a call. */
export function mostCallsInAnyWindow(calls: SeenCall[], windowMs: number): number {
  const times = calls.map((call) => call.at).sort((a, b) => a - b);
  let most = 0;
  for (let start = 0; start < times.length; start += 1) {
    let end = start;
    while (end < times.length && times[end] < times[start] + windowMs) end += 1;
    most = Math.max(most, end - start);
  }
  return most;
}

/** Resolves once `condition` holds; rejects naming `what` after `timeoutMs`. */
export async function until(condition: () => boolean, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
