import type { GraphQLError } from 'graphql';
import { createGraphQLError } from 'graphql-yoga';
import { withStoreTimeout } from '../../shared/with-timeout.ts';
import { ErrorCode } from '../errors.ts';
import { gatewayError } from '../request/early-answer.ts';
import type { BatchGuard, HeadGuard, OperationGuard } from '../request/guards.ts';
import type { RateLimitStore, RateLimitWindow } from './rate-limit-store.ts';
import { defaultOf } from '../settings.ts';

export interface RateLimitsOptions {
  store: RateLimitStore;
  /** GraphQL requests one client may make per window. */
  requests: number;
  /** Requests reaching the translation service one client may make per window (the costly call). */
  translationRequests: number;
  windowMs: number;
  /**
   * Most operations counted for one batched request: yoga refuses longer batches (413) right after
   * this plugin has seen them, so counting past it would only cost store calls. @default as MAX_BATCH_OPERATIONS
   */
  maxBatchOperations?: number;
  /** Called for every request refused, for metrics. */
  onRejected?: (budget: 'requests' | 'translation') => void;
}

/** How long the counter store may take before the request goes through uncounted. */
const STORE_TIMEOUT_MS = 200;

/**
 * Per-client budgets (the client is its gateway key, or its address when the gateway is open; see
 * client-key.ts): every GraphQL operation counts against `requests`, refused with 429 before its
 * body is read (the other operations of a batch once it is parsed); an operation that reaches the
 * translation service also counts against `translationRequests`, refused with 429 before it runs.
 * A store that fails lets requests through: a limiter outage must not become a gateway outage.
 */
export function rateLimitGuards({ store, requests, translationRequests, windowMs, maxBatchOperations = defaultOf('maxBatchOperations'), onRejected }: RateLimitsOptions): {
  requests: HeadGuard;
  batch: BatchGuard;
  translation: OperationGuard;
} {
  const hit = budgetCounter(store, windowMs);
  const tooMany = `Too many requests: at most ${requests} operations per ${windowMs / 1000} s`;
  const translationBudget = translationBudgetOf({ store, translationRequests, windowMs, onRejected });
  const refusalOf = (window: RateLimitWindow | undefined) => {
    if (!window || window.count <= requests) return undefined;
    onRejected?.('requests');
    const retryAfter = retryAfterOf(window.resetInMs);
    return gatewayError(429, `${tooMany}; retry in ${retryAfter} s.`, ErrorCode.RateLimited, { 'retry-after': String(retryAfter) }, { retryAfter, limit: requests });
  };
  // A store in this process counts at once: every request then passes its head guards without a
  // promise or a turn of the event loop for the count (a store that throws lets it through, as ever).
  const hitNow = store.hitNow?.bind(store);
  return {
    requests: {
      name: 'requests budget',
      check(request) {
        if (!request.graphql) return undefined;
        if (!hitNow) return spendRequest(hit, request.identity).then(refusalOf);
        let window: RateLimitWindow | undefined;
        try {
          window = hitNow(requestsKey(request.identity), windowMs);
        } catch {
          window = undefined;
        }
        return refusalOf(window);
      },
    },
    batch: {
      name: 'requests budget of a batch',
      // A batch (a JSON array) is as many operations as it holds: the head counted the first, the
      // others count here, once parsed, or batches of ten would spend a tenth of the budget.
      async check(request, operations) {
        if (operations < 2) return undefined;
        const others = Math.min(operations, maxBatchOperations) - 1;
        const windows = await Promise.all(Array.from({ length: others }, () => spendRequest(hit, request.identity)));
        const window = windows.reduce((last, each) => (each && (!last || each.count > last.count) ? each : last), undefined);
        if (!window || window.count <= requests) return undefined;
        onRejected?.('requests');
        const retryAfter = retryAfterOf(window.resetInMs);
        return rateLimitRefusal(`${tooMany} (each operation of a batch counts); retry in ${retryAfter} s.`, requests, retryAfter);
      },
    },
    translation: {
      name: 'translation budget',
      check: (request, estimate) => (estimate.usesTranslation ? translationBudget(request.identity) : undefined),
    },
  };
}

/**
 * Counts one operation that reaches the translation service against `identity`'s translation
 * budget: the refusal (429) when the budget is spent, told to `onRejected`, else undefined. The
 * operation guard's check (rateLimitGuards).
 */
export function translationBudgetOf({
  store,
  translationRequests,
  windowMs,
  onRejected,
}: Pick<RateLimitsOptions, 'store' | 'translationRequests' | 'windowMs' | 'onRejected'>): (identity: string) => Promise<GraphQLError | undefined> {
  const hit = budgetCounter(store, windowMs);
  return async (identity) => {
    const window = await hit(`translation:${identity}`);
    if (!window || window.count <= translationRequests) return undefined;
    onRejected?.('translation');
    const retryAfter = retryAfterOf(window.resetInMs);
    return rateLimitRefusal(`Too many translation requests: at most ${translationRequests} per ${windowMs / 1000} s; retry in ${retryAfter} s.`, translationRequests, retryAfter);
  };
}

/** A 429 in GraphQL's form, with `Retry-After` for the answer's head. */
function rateLimitRefusal(message: string, limit: number, retryAfter: number): GraphQLError {
  return createGraphQLError(message, {
    extensions: { code: ErrorCode.RateLimited, retryAfter, limit, http: { status: 429, headers: { 'retry-after': String(retryAfter) } } },
  });
}

export type BudgetCounter = (key: string) => Promise<RateLimitWindow | undefined>;

/**
 * Counts one more use of a budget in `store`. A store that fails, throws or is slow lets the request
 * through (undefined; README "Security"): a limiter outage must not become a gateway outage.
 */
export function budgetCounter(store: RateLimitStore, windowMs: number): BudgetCounter {
  return (key) => withStoreTimeout(store, () => store.hit(key, windowMs), STORE_TIMEOUT_MS).catch(() => undefined);
}

/** Counts one GraphQL operation of `identity` against its requests budget. */
export function spendRequest(hit: BudgetCounter, identity: string): Promise<RateLimitWindow | undefined> {
  return hit(requestsKey(identity));
}

function requestsKey(identity: string): string {
  return `requests:${identity}`;
}

function retryAfterOf(resetInMs: number): number {
  return Math.max(1, Math.ceil(resetInMs / 1000));
}
