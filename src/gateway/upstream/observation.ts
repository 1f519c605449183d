import { REQUEST_ID_HEADER, type RequestObserver, type UpstreamCallEnd } from '../request/observed-request.ts';
import { gatewayRequestOf } from '../request/gateway-request.ts';
import type { UpstreamAnswer } from './upstream-answer.ts';
import type { ServiceStep } from './upstream-call.ts';
import { parsedUrl } from './parsed-url.ts';
import { plainHeaders } from './upstream-fetch.ts';

/**
 * Watches every upstream HTTP attempt: sends the client request's id upstream as `x-request-id`,
 * counts the call against its request (for the log line) and tells the observers (metrics, tracer)
 * when it goes out and how it ended. Innermost of the steps, so each retry counts as the call it is
 * and a cached answer, which makes no call, does not count. No promise of its own: it reads the
 * outcome with one `then`, and passes the call on untouched when no observer asked for its end.
 */
export function observeUpstreamCalls(observers: RequestObserver[]): ServiceStep {
  return {
    forService: (service, next) => (call) => {
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
      const ends: ((end: UpstreamCallEnd) => void)[] = [];
      for (const observer of observers) {
        try {
          const end = observer.upstreamCall?.(start);
          if (end) ends.push(end);
        } catch {
          // Observing must never break the call.
        }
      }
      const startedAt = ends.length > 0 ? performance.now() : 0;
      let sent: Promise<UpstreamAnswer>;
      try {
        // A new object, which the observers' headers (request id, trace context) are added to.
        const headers = plainHeaders(call.init.headers as HeadersInit | undefined);
        for (const name in addHeaders) headers[name] = addHeaders[name];
        sent = next({ ...call, init: { ...call.init, headers } });
      } catch (error) {
        report(ends, startedAt, failureOf(error, call.init.signal ?? undefined));
        return Promise.reject(error);
      }
      if (ends.length === 0) return sent;
      return sent.then(
        // Measured to the response head: the body is read (under the same budget) by the steps outside.
        (response) => {
          report(ends, startedAt, String(response.status));
          return response;
        },
        (error: unknown) => {
          report(ends, startedAt, failureOf(error, call.init.signal ?? undefined));
          throw error;
        },
      );
    },
  };
}

/** Tells the observers who asked for it how an attempt ended. */
function report(ends: readonly ((end: UpstreamCallEnd) => void)[], startedAt: number, status: string): void {
  const end: UpstreamCallEnd = { status, durationMs: performance.now() - startedAt };
  for (const each of ends) {
    try {
      each(end);
    } catch {
      // Observing must never break the call.
    }
  }
}

/** How a call that got no answer failed: its time budget ran out, the client went away, or the network failed. */
function failureOf(error: unknown, signal: AbortSignal | undefined): string {
  const reason = signal?.aborted ? (signal.reason as Error | undefined) : undefined;
  if ((error as Error)?.name === 'TimeoutError' || reason?.name === 'TimeoutError') return 'timeout';
  if (reason) return 'aborted';
  return 'network';
}

