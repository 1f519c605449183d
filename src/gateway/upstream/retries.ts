import type { ServiceName } from '../errors.ts';
import { CallSignal, SignalFollowers } from './call-signal.ts';
import type { UpstreamAnswer } from './upstream-answer.ts';
import type { ServiceStep } from './upstream-call.ts';
import { parseRetryAfter } from './upstream-errors.ts';
import { defaultOf } from '../settings.ts';

export interface UpstreamRetriesOptions {
  /** Budget of one call per service, all attempts and waits included. */
  timeoutMs: Record<ServiceName, number>;
  /** Extra attempts for a call that is safe to repeat. @default as UPSTREAM_RETRIES */
  retries?: number;
  /** First backoff; each retry doubles it, with full jitter. @default 100 */
  baseDelayMs?: number;
  /** Longest backoff between attempts (a longer `Retry-After` is honoured only within the budget). @default 2000 */
  maxDelayMs?: number;
}

/** Statuses that say "try again" rather than "this request is wrong". */
const TRANSIENT = new Set([429, 502, 503, 504]);

/** Raised when a call's budget runs out; the error step turns it into UPSTREAM_TIMEOUT. */
export class UpstreamTimeoutError extends Error {
  override name = 'UpstreamTimeoutError';
}

/**
 * Gives every upstream call a time budget and repeats the calls that are safe to repeat (read-only
 * ones). It retries transport failures and 429/502/503/504, waits with jittered exponential backoff or
 * the upstream's `Retry-After`, and never waits past the budget: then the last answer stands.
 */
export function retryUpstreamCalls({ timeoutMs, retries = defaultOf('upstreamRetries'), baseDelayMs = 100, maxDelayMs = 2000 }: UpstreamRetriesOptions): ServiceStep {
  return {
    forService(service, next) {
      const budget = timeoutMs[service];
      const budgetSpent = () => new UpstreamTimeoutError(`no answer within ${budget} ms`);
      // The client's signal (or the engine's) is listened to once, whatever the calls made under it.
      const followers = new SignalFollowers();
      return async (call) => {
        const deadline = Date.now() + budget;
        const clientSignal = (call.init.signal ?? undefined) as AbortSignal | undefined;
        // One signal and one timer for the whole call, every attempt and the reading of the body:
        // `AbortSignal.timeout` and `AbortSignal.any` were a tenth of a forwarded query's CPU, and even one
        // AbortController per call cost more than this signal (call-signal.ts; docs/performance.md).
        // The timer calls a function made once, not a closure of each call.
        const signal = new CallSignal();
        const timer = setTimeout(budgetRanOut, budget, signal, budget);
        timer.unref?.();
        if (clientSignal) followers.follow(signal, clientSignal);
        const release = () => {
          clearTimeout(timer);
          if (clientSignal) followers.unfollow(signal, clientSignal);
        };
        // Every attempt sends the same call under the same signal.
        const attemptCall = { ...call, init: { ...call.init, signal: signal as unknown as AbortSignal } };
        try {
          for (let attempt = 0; ; attempt += 1) {
            if (Date.now() >= deadline || timedOut(signal, clientSignal)) throw budgetSpent();
            let response: UpstreamAnswer | undefined;
            let failure: unknown;
            try {
              response = await next(attemptCall);
            } catch (error) {
              if (clientSignal?.aborted) throw error;
              if (timedOut(signal, clientSignal)) throw budgetSpent();
              failure = error;
            }
            // The budget stays armed while the body is read, so a body that stalls also times out.
            if (response && !TRANSIENT.has(response.status)) return response.afterBody(release);
            const retryAfter = response?.header('retry-after');
            const delay = retryAfter !== undefined ? (parseRetryAfter(retryAfter) ?? 0) * 1000 : Math.random() * Math.min(maxDelayMs, baseDelayMs * 2 ** attempt);
            const last = !call.readOnly || call.singleAttempt || attempt >= retries || Date.now() + delay >= deadline;
            if (last) {
              if (response) return response.afterBody(release);
              throw failure;
            }
            await response?.discard();
            await sleep(delay, clientSignal);
          }
        } catch (error) {
          release();
          throw error;
        }
      };
    },
  };
}

/** A call's budget ran out: its signal aborts as `AbortSignal.timeout` would. */
function budgetRanOut(signal: CallSignal, budget: number): void {
  signal.abort(new DOMException(`no answer within ${budget} ms`, 'TimeoutError'));
}

/** Whether the call's signal aborted for its budget, not for the client going away. */
function timedOut(signal: CallSignal, clientSignal: AbortSignal | undefined): boolean {
  return signal.aborted && !clientSignal?.aborted;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
