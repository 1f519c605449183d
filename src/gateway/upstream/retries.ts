import type { ServiceName } from '../errors.ts';
import { CallSignal, SignalFollowers } from './call-signal.ts';
import type { UpstreamAnswer } from './upstream-answer.ts';
import type { CallBudget, ServiceStep, UpstreamCall } from './upstream-call.ts';
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
 * the upstream's `Retry-After`, and never waits past the budget: then the last answer stands. The
 * attempts themselves are sent by the composed call (composed-call.ts), which asks the call's budget
 * (CallBudget) before and after each: no promise or closure of this step's own per call.
 */
export function retryUpstreamCalls({ timeoutMs, retries = defaultOf('upstreamRetries'), baseDelayMs = 100, maxDelayMs = 2000 }: UpstreamRetriesOptions): ServiceStep {
  return {
    forService(service) {
      const rules: BudgetRules = {
        budget: timeoutMs[service],
        retries,
        baseDelayMs,
        maxDelayMs,
        // The engine's signal is listened to once, whatever the calls made under it.
        followers: new SignalFollowers(),
      };
      return { attempts: { start: (call, singleAttempt) => new RetryBudget(rules, call, singleAttempt) } };
    },
  };
}

/** What every budget of one service's calls shares. */
interface BudgetRules {
  budget: number;
  retries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  followers: SignalFollowers;
}

/**
 * One call's budget: one signal and one timer for the whole call, every attempt and the reading of
 * the body. `AbortSignal.timeout` and `AbortSignal.any` were a tenth of a forwarded query's CPU, and
 * even one AbortController per call cost more than this signal (call-signal.ts; docs/performance.md).
 * The timer calls a function made once, not a closure of each call.
 */
class RetryBudget implements CallBudget {
  readonly signal = new CallSignal();
  readonly #rules: BudgetRules;
  readonly #deadline: number;
  readonly #outerSignal: AbortSignal | undefined;
  readonly #timer: ReturnType<typeof setTimeout>;
  /** More attempts are allowed: a read-only call that is no probe. */
  readonly #repeatable: boolean;

  constructor(rules: BudgetRules, call: UpstreamCall, singleAttempt: boolean) {
    this.#rules = rules;
    this.#deadline = Date.now() + rules.budget;
    this.#outerSignal = (call.init.signal ?? undefined) as AbortSignal | undefined;
    this.#repeatable = call.readOnly && !singleAttempt;
    this.#timer = setTimeout(budgetRanOut, rules.budget, this.signal, rules.budget);
    this.#timer.unref?.();
    if (this.#outerSignal) rules.followers.follow(this.signal, this.#outerSignal);
  }

  check(): void {
    if (Date.now() >= this.#deadline || this.#timedOut()) throw this.#spent();
  }

  failed(error: unknown): void {
    if (this.#outerSignal?.aborted) throw error;
    if (this.#timedOut()) throw this.#spent();
  }

  again(attempt: number, answer: UpstreamAnswer | undefined): number | undefined {
    if (answer && !TRANSIENT.has(answer.status)) return undefined;
    const { retries, baseDelayMs, maxDelayMs } = this.#rules;
    const retryAfter = answer?.header('retry-after');
    const delay = retryAfter !== undefined ? (parseRetryAfter(retryAfter) ?? 0) * 1000 : Math.random() * Math.min(maxDelayMs, baseDelayMs * 2 ** attempt);
    const last = !this.#repeatable || attempt >= retries || Date.now() + delay >= this.#deadline;
    return last ? undefined : delay;
  }

  wait(ms: number): Promise<void> {
    return sleep(ms, this.#outerSignal);
  }

  end(): void {
    clearTimeout(this.#timer);
    if (this.#outerSignal) this.#rules.followers.unfollow(this.signal, this.#outerSignal);
  }

  /** Whether the call's signal aborted for its budget, not for its engine's end. */
  #timedOut(): boolean {
    return this.signal.aborted && !this.#outerSignal?.aborted;
  }

  #spent(): UpstreamTimeoutError {
    return new UpstreamTimeoutError(`no answer within ${this.#rules.budget} ms`);
  }
}

/** A call's budget ran out: its signal aborts as `AbortSignal.timeout` would. */
function budgetRanOut(signal: CallSignal, budget: number): void {
  signal.abort(new DOMException(`no answer within ${budget} ms`, 'TimeoutError'));
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
