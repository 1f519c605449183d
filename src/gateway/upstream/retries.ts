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
        deadlines: new Deadlines(),
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
  deadlines: Deadlines;
}

/**
 * One call's budget: one signal for the whole call, every attempt and the reading of the body, and
 * a place in its service's deadlines (Deadlines) rather than a timer of its own.
 * `AbortSignal.timeout` and `AbortSignal.any` were a tenth of a forwarded query's CPU, and even one
 * AbortController per call cost more than this signal (call-signal.ts; docs/performance.md).
 */
class RetryBudget implements CallBudget {
  readonly signal = new CallSignal();
  readonly #rules: BudgetRules;
  /** When the budget runs out (Date.now()). */
  readonly deadline: number;
  /** The call is over: its place in the deadlines is let go. */
  ended = false;
  readonly #outerSignal: AbortSignal | undefined;
  /** More attempts are allowed: a read-only call that is no probe. */
  readonly #repeatable: boolean;

  constructor(rules: BudgetRules, call: UpstreamCall, singleAttempt: boolean) {
    this.#rules = rules;
    this.deadline = Date.now() + rules.budget;
    this.#outerSignal = (call.init.signal ?? undefined) as AbortSignal | undefined;
    this.#repeatable = call.readOnly && !singleAttempt;
    rules.deadlines.add(this);
    if (this.#outerSignal) rules.followers.follow(this.signal, this.#outerSignal);
  }

  /** The budget ran out while the call went on: its signal aborts as `AbortSignal.timeout` would. */
  ranOut(): void {
    this.signal.abort(new DOMException(`no answer within ${this.#rules.budget} ms`, 'TimeoutError'));
  }

  check(): void {
    if (Date.now() >= this.deadline || this.#timedOut()) throw this.#spent();
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
    const last = !this.#repeatable || attempt >= retries || Date.now() + delay >= this.deadline;
    return last ? undefined : delay;
  }

  wait(ms: number): Promise<void> {
    return sleep(ms, this.#outerSignal);
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.#rules.deadlines.ended();
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

/**
 * The budgets of one service's calls in flight, by deadline, under one timer. Every call of a
 * service has the same budget, so deadlines come in the order calls start: a queue, whose head is
 * the next to run out. A call that ends leaves the queue when it reaches the head (calls mostly end
 * in the order they started, so the queue holds little more than the calls in flight); the one timer
 * is set for the head's deadline and set again when it fires. A timer set and cleared per call cost
 * more than the rest of the budget's work.
 */
class Deadlines {
  #queue: RetryBudget[] = [];
  #head = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** When the timer set fires (Date.now()). */
  #timerAt = Number.POSITIVE_INFINITY;

  add(budget: RetryBudget): void {
    this.#queue.push(budget);
    if (this.#timer === undefined) this.#arm(budget.deadline);
  }

  /** A call ended: the ended calls at the head leave. */
  ended(): void {
    this.#dropEnded();
  }

  readonly #fire = (): void => {
    this.#timer = undefined;
    this.#timerAt = Number.POSITIVE_INFINITY;
    const now = Date.now();
    const queue = this.#queue;
    while (this.#head < queue.length) {
      const budget = queue[this.#head];
      if (!budget.ended && budget.deadline > now) break;
      this.#head += 1;
      if (!budget.ended) budget.ranOut();
    }
    this.#dropEnded();
    if (this.#head < queue.length) this.#arm(queue[this.#head].deadline);
  };

  #dropEnded(): void {
    const queue = this.#queue;
    while (this.#head < queue.length && queue[this.#head].ended) this.#head += 1;
    if (this.#head === queue.length) {
      // Empty: start again at the front (the array keeps its room).
      queue.length = 0;
      this.#head = 0;
    } else if (this.#head > 1024 && this.#head * 2 > queue.length) {
      this.#queue = queue.slice(this.#head);
      this.#head = 0;
    }
  }

  #arm(deadline: number): void {
    if (this.#timer !== undefined && this.#timerAt <= deadline) return;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timerAt = deadline;
    this.#timer = setTimeout(this.#fire, Math.max(0, deadline - Date.now()));
    // A call in flight keeps the process alive by its socket, not by its budget.
    this.#timer.unref?.();
  }
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
