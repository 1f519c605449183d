import { REQUEST_ID_HEADER, type RequestObserver, type UpstreamCallEnd } from '../request/observed-request.ts';
import { gatewayRequestOf } from '../request/gateway-request.ts';
import type { AttemptWatch, ServiceStep } from './upstream-call.ts';
import { parsedUrl } from './parsed-url.ts';

/**
 * Watches every upstream HTTP attempt: sends the client request's id upstream as `x-request-id`,
 * counts the call against its request (for the log line) and tells the observers (metrics, tracer)
 * when it goes out and how it ended. Innermost of the steps, so each retry counts as the call it is
 * and a cached answer, which makes no call, does not count. The composed call tells it each
 * attempt's end (an ObservedAttempt, made only when an observer asked for it): no promise of its own.
 */
export function observeUpstreamCalls(observers: RequestObserver[]): ServiceStep {
  return {
    forService: (service) => ({
      attempt(call, headers) {
        const observed = gatewayRequestOf(call.context)?.observed;
        const addHeaders: Record<string, string> = {};
        if (observed) {
          addHeaders[REQUEST_ID_HEADER] = observed.id;
          observed.upstreamCalls[service] += 1;
        }
        const start = {
          service,
          method: (call.init.method ?? 'GET').toUpperCase(),
          // The observers read its host and port (metrics) and its path (traces).
          url: parsedUrl(call.url)?.url,
          request: observed,
          addHeaders,
        };
        let ends: ((end: UpstreamCallEnd) => void)[] | undefined;
        for (const observer of observers) {
          try {
            const end = observer.upstreamCall?.(start);
            if (end) (ends ??= []).push(end);
          } catch {
            // Observing must never break the call.
          }
        }
        // Added to the attempt's own headers: the call's own are never shown to the observers.
        for (const name in addHeaders) headers[name] = addHeaders[name];
        return ends && new ObservedAttempt(ends);
      },
    }),
  };
}

/** One attempt whose end observers asked for: measured to the response head (the body is read under the same budget, outside). */
class ObservedAttempt implements AttemptWatch {
  readonly #ends: readonly ((end: UpstreamCallEnd) => void)[];
  readonly #startedAt = performance.now();

  constructor(ends: readonly ((end: UpstreamCallEnd) => void)[]) {
    this.#ends = ends;
  }

  answered(status: number): void {
    this.#report(String(status));
  }

  failed(error: unknown, signal: unknown): void {
    this.#report(failureOf(error, (signal ?? undefined) as AbortSignal | undefined));
  }

  #report(status: string): void {
    const end: UpstreamCallEnd = { status, durationMs: performance.now() - this.#startedAt };
    for (const each of this.#ends) {
      try {
        each(end);
      } catch {
        // Observing must never break the call.
      }
    }
  }
}

/** How a call that got no answer failed: its time budget ran out, its engine ended, or the network failed. */
function failureOf(error: unknown, signal: AbortSignal | undefined): string {
  const reason = signal?.aborted ? (signal.reason as Error | undefined) : undefined;
  if ((error as Error)?.name === 'TimeoutError' || reason?.name === 'TimeoutError') return 'timeout';
  if (reason) return 'aborted';
  return 'network';
}

