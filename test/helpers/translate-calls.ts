import type { TranslationService } from '../../src/upstreams/translation/service.ts';

export interface SeenCall {
  /** When the call was seen at the service (ms, performance.now()), within the sampling period. */
  at: number;
  /** The language it asked for. */
  target: string;
}

/**
 * Watches the translation stand-in's POST /translate calls as they arrive, with the language each
 * asked for, by sampling its latest requests every few milliseconds (it keeps the last 50).
 */
export function watchTranslateCalls(service: TranslationService, periodMs = 5): { calls: SeenCall[]; of(target: string): SeenCall[]; stop(): void } {
  const seen = new WeakSet<object>();
  const calls: SeenCall[] = [];
  const sample = () => {
    for (const request of service.stats.lastRequests) {
      if (seen.has(request)) continue;
      seen.add(request);
      if (request.method === 'POST' && request.path === '/translate') calls.push({ at: performance.now(), target: String((request.body as { target?: unknown } | undefined)?.target) });
    }
  };
  sample();
  calls.length = 0;
  const timer = setInterval(sample, periodMs);
  return {
    calls,
    of: (target) => calls.filter((call) => call.target === target),
    stop: () => {
      sample();
      clearInterval(timer);
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
