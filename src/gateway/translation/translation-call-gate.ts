import pLimit, { type LimitFunction } from 'p-limit';
import type { GraphQLError } from 'graphql';
import { ErrorCode, createGraphQLErrorWithCode } from '../errors.ts';

export interface CallGateOptions {
  /** Most translation calls in flight for one client request (TRANSLATION_CONCURRENCY). */
  concurrency: number;
  /** Most translation calls one client request may cause (TRANSLATION_MAX_CALLS_PER_REQUEST). @default Infinity */
  maxCallsPerRequest?: number;
  /** Most translation calls in flight for the whole gateway, all requests together. @default Infinity */
  gatewayConcurrency?: number;
  /** The clock `lastSettledAt` is read on: background work measures readers' quiet by its own clock. @default Date.now */
  now?: () => number;
}

/** The one way out to the translation service for a client request: translate and detect alike. */
export interface RequestCalls {
  /** Runs `call` within the request's concurrency and call budget; over the budget it throws, uncalled. */
  run<T>(call: () => Promise<T>): Promise<T>;
  /** Calls made so far for this request. */
  readonly made: number;
}

export interface CallGate {
  of(context: object): RequestCalls;
  /** Calls admitted and not settled yet, all requests together (running, or waiting for a turn): read by background work that yields to readers. */
  readonly inFlight: number;
  /** When the last call settled (ms since the epoch; 0 before any): how long the gate has been quiet. */
  readonly lastSettledAt: number;
}

/**
 * Per client request, not per operation: the operations of a batched request (a JSON array) each get a
 * context of their own, but share the HTTP request, and the bound is about what one client request costs.
 */
export function requestKeyOf(context: object): object {
  const request = (context as { request?: unknown }).request;
  return typeof request === 'object' && request !== null ? request : context;
}

export function createCallGate({ concurrency, maxCallsPerRequest = Infinity, gatewayConcurrency = Infinity, now = Date.now }: CallGateOptions): CallGate {
  const perRequest = new WeakMap<object, RequestCalls>();
  const gateway: LimitFunction | undefined = Number.isFinite(gatewayConcurrency) ? pLimit(gatewayConcurrency) : undefined;
  let inFlight = 0;
  let lastSettledAt = 0;
  const settled = () => {
    inFlight -= 1;
    lastSettledAt = now();
  };
  // Counted beside the call, not chained after it: the caller must see the call settle at the same
  // turn as without the count, or a queued call of the same request would start before the caller
  // has recorded a failure that makes it pointless (translation-batcher.ts).
  const counted = <T>(call: () => Promise<T>): Promise<T> => {
    inFlight += 1;
    const running = call();
    running.then(settled, settled);
    return running;
  };
  return {
    get inFlight() {
      return inFlight;
    },
    get lastSettledAt() {
      return lastSettledAt;
    },
    of(context) {
      const key = requestKeyOf(context);
      let calls = perRequest.get(key);
      if (!calls) {
        const limit = pLimit(concurrency);
        let made = 0;
        calls = {
          run(call) {
            if (made >= maxCallsPerRequest) return Promise.reject(budgetSpent(maxCallsPerRequest));
            made += 1;
            return counted(() => limit(() => (gateway ? gateway(call) : call())));
          },
          get made() {
            return made;
          },
        };
        perRequest.set(key, calls);
      }
      return calls;
    },
  };
}

export function budgetSpent(limit: number): GraphQLError {
  return createGraphQLErrorWithCode(
    `This request needed more than ${limit} translation calls, the most one request may cause (TRANSLATION_MAX_CALLS_PER_REQUEST); the rest of its texts were not translated.`,
    ErrorCode.OperationLimitExceeded,
    { service: 'translation', limit },
  );
}

export function isBudgetError(error: unknown): boolean {
  return (error as { extensions?: { code?: unknown } } | undefined)?.extensions?.code === ErrorCode.OperationLimitExceeded;
}

/** A read-only view of the gateway-wide gate, for background work that runs only in spare capacity. */
export function readOnlyCalls(gate: CallGate): { readonly inFlight: number; readonly lastSettledAt: number; madeFor(context: object): number } {
  return {
    get inFlight() {
      return gate.inFlight;
    },
    get lastSettledAt() {
      return gate.lastSettledAt;
    },
    madeFor: (context) => gate.of(context).made,
  };
}
