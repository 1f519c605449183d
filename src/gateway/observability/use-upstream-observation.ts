import type { MeshPlugin } from '@graphql-mesh/types';
import { serviceOfFetch } from '../plugins/upstream-service.ts';
import { REQUEST_ID_HEADER, observedRequestOf, type RequestObserver, type UpstreamCallEnd } from './observed-request.ts';

export interface UpstreamObservationOptions {
  /** Told about every upstream HTTP call: the metrics and the tracer. */
  observers: RequestObserver[];
}

/**
 * Watches every upstream HTTP call: sends the client request's id upstream as `x-request-id`, counts
 * the call against its request (for the log line) and tells the observers when it goes out and how
 * it ended. It must sit innermost, around the raw fetch (first of the Mesh plugins), so that each
 * retry counts as the call it is and a cached answer, which makes no call, does not count.
 */
export function useUpstreamObservation({ observers }: UpstreamObservationOptions): MeshPlugin<object> {
  return {
    onFetch({ url, info, context, fetchFn, setFetchFn }) {
      const service = serviceOfFetch(info, url);
      if (!service) return;
      const observed = observedRequestOf((context as { request?: Request } | undefined)?.request);
      setFetchFn(async (callUrl, callOptions, callContext, callInfo) => {
        const addHeaders: Record<string, string> = observed ? { [REQUEST_ID_HEADER]: observed.id } : {};
        if (observed) observed.upstreamCalls[service] += 1;
        const call = {
          service,
          method: (callOptions?.method ?? 'GET').toUpperCase(),
          url: URL.canParse(callUrl) ? new URL(callUrl) : undefined,
          request: observed,
          addHeaders,
        };
        const ends = observers.flatMap((observer) => {
          try {
            const end = observer.upstreamCall?.(call);
            return end ? [end] : [];
          } catch {
            return [];
          }
        });
        const startedAt = performance.now();
        const report = (status: string) => {
          const end: UpstreamCallEnd = { status, durationMs: performance.now() - startedAt };
          for (const each of ends) {
            try {
              each(end);
            } catch {
              // Observing must never break the call.
            }
          }
        };
        let response: Response;
        try {
          const headers = { ...Object.fromEntries(new Headers(callOptions?.headers as HeadersInit | undefined)), ...addHeaders };
          response = await fetchFn(callUrl, { ...callOptions, headers }, callContext, callInfo);
        } catch (error) {
          report(failureOf(error, callOptions?.signal ?? undefined));
          throw error;
        }
        // Measured to the response head: the body is read (under the same budget) by the hooks outside.
        report(String(response.status));
        return response;
      });
    },
  };
}

/** How a call that got no answer failed: its time budget ran out, the client went away, or the network failed. */
function failureOf(error: unknown, signal: AbortSignal | undefined): string {
  const reason = signal?.aborted ? (signal.reason as Error | undefined) : undefined;
  if ((error as Error)?.name === 'TimeoutError' || reason?.name === 'TimeoutError') return 'timeout';
  if (reason) return 'aborted';
  return 'network';
}
