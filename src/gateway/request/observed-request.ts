import { randomUUID } from 'node:crypto';
import type { ServiceName } from '../errors.ts';

/**
 * What the gateway knows about one client request while it runs, shared by the request log, the
 * metrics and the traces so all three tell the same story. Carried by the request object
 * (request/gateway-request.ts): nothing outlives the request.
 */
export interface ObservedRequest {
  /** The client's `x-request-id` when it is a sane token, else a fresh UUID. */
  id: string;
  /** Whether this is a GraphQL request (not /readiness, /metrics, a preflight or the GraphiQL page). */
  graphql: boolean;
  /** `performance.now()` when the request arrived. */
  startedAt: number;
  /** Each operation of the request (several in a batched request), by its yoga context. */
  operations: Map<object, { name?: string; type?: string }>;
  /** Upstream HTTP calls made for this request (every attempt counts; cache hits do not). */
  upstreamCalls: Record<ServiceName, number>;
  /** The GraphQL result(s), once known; absent when the request was refused before parsing. */
  result?: unknown;
  /** The W3C trace id of the request's span, when tracing is on (set by the tracer). */
  traceId?: string;
  /**
   * The request's method and URL scheme, for the HTTP metrics' labels (set by them when it starts:
   * a field read back, where a WeakMap entry per request cost its own bookkeeping and garbage).
   */
  http?: { method: string; scheme: 'http' | 'https' };
  /**
   * Set when the front door answered the request itself (pipeline/front-door/):
   * `cache` for a response-cache hit, `direct` for a query forwarded whole to its source,
   * `delegated` for a plan run through Mesh's own execution.
   */
  lane?: 'cache' | 'direct' | 'delegated';
  /** Who asked, and for what, as the request log tells it (set by the log when the request starts). */
  client?: RequestClient;
}

/** The client side of a request, for a log line an operator can act on; never a header holding a secret. */
export interface RequestClient {
  method: string;
  /** The URL's path, without its query string (which may hold a query and its variables). */
  path: string;
  /** The peer of the connection, when the adapter that made the request head knew it. */
  address?: string;
  /** `X-Forwarded-For` as the client or its proxies sent it (behind proxies, the address above is theirs). */
  forwardedFor?: string;
  userAgent?: string;
}

/** `ok`: answered without errors; `error`: executed, with errors (an upstream failed, say); `rejected`: refused before or instead of executing. */
export type Outcome = 'ok' | 'error' | 'rejected';

export interface FinishedRequest {
  id: string;
  /** The operation's name; `anonymous` when it has none, `batch` for a batched request. Never longer than 100 characters. */
  operation: string;
  /** `query`, `mutation` or `subscription`, when the document was parsed. */
  operationType?: string;
  outcome: Outcome;
  /** HTTP status of the response. */
  status: number;
  durationMs: number;
  upstreamCalls: Record<ServiceName, number>;
  /** Errors in the answer (all operations of a batch together); 0 when refused before parsing. */
  errors: number;
  /** How the listener in front of yoga answered it, when it did (see ObservedRequest.lane). */
  lane?: 'cache' | 'direct' | 'delegated';
}

export interface UpstreamCallStart {
  service: ServiceName;
  method: string;
  /** Where the call goes; undefined when its URL does not parse (it will fail as a network error). */
  url?: URL;
  /** The client request the call is made for, when there is one. */
  request?: ObservedRequest;
  /** Headers to add to the call (trace propagation); the call's own headers, keys included, are not shown. */
  addHeaders: Record<string, string>;
}

export interface UpstreamCallEnd {
  /** HTTP status as a string (`"200"`), `timeout` (the call's budget ran out), `network` (no answer) or `aborted` (the client went away). */
  status: string;
  durationMs: number;
}

/** What observers read of a client request: yoga's Request, or the node:http request in front of yoga. */
export interface RequestHead {
  method: string;
  /** Absolute URL. */
  url: string;
  headers: { get(name: string): string | null };
  /** The peer of the connection, when the adapter that made this head knows it (node:http). */
  clientAddress?: string;
}

/** Something that wants to hear about requests and upstream calls: the log, the metrics, the tracer. */
export interface RequestObserver {
  /** A GraphQL request arrived; only its id is known yet. */
  requestStarted?(observed: ObservedRequest, request: RequestHead): void;
  /** A GraphQL request was answered (called once, before the body is streamed). */
  requestFinished?(finished: FinishedRequest, observed: ObservedRequest): void;
  /** An upstream HTTP call is about to go out; the returned function, if any, is called when it ends. */
  upstreamCall?(call: UpstreamCallStart): ((end: UpstreamCallEnd) => void) | void;
}

export const REQUEST_ID_HEADER = 'x-request-id';

/** The client's request id if it is a sane token (at most 128 of `[A-Za-z0-9._-]`), else a new UUID. */
export function requestIdFrom(header: string | null | undefined): string {
  return header && /^[A-Za-z0-9._-]{1,128}$/.test(header) ? header : randomUUID();
}

/** What is known of a request when it arrives: its id (the client's, if sane) and the time. */
export function newObservedRequest(requestIdHeader: string | null | undefined, graphql: boolean, startedAt: number): ObservedRequest {
  return { id: requestIdFrom(requestIdHeader), graphql, startedAt, operations: new Map(), upstreamCalls: { problems: 0, translation: 0 } };
}

/** Tells every observer that a GraphQL request arrived. */
export function tellStarted(observers: RequestObserver[], observed: ObservedRequest, request: RequestHead): void {
  for (const observer of observers) observer.requestStarted?.(observed, request);
}

/** Tells every observer that a GraphQL request was answered with `status`. */
export function tellFinished(observers: RequestObserver[], observed: ObservedRequest, status: number): void {
  const finished = finish(observed, status);
  for (const observer of observers) {
    try {
      observer.requestFinished?.(finished, observed);
    } catch {
      // Observing must never break serving.
    }
  }
}

/** A client-supplied operation name fit for a log line or a label: a GraphQL name, at most 100 characters. */
export function operationNameOf(value: unknown): string | undefined {
  if (typeof value !== 'string' || !/^[_A-Za-z][_0-9A-Za-z]*$/.test(value)) return undefined;
  return value.slice(0, 100);
}

export function finish(observed: ObservedRequest, status: number): FinishedRequest {
  const { operations, result } = observed;
  const single = operations.size === 1 ? operations.values().next().value : undefined;
  // One result without an array made for it (every answer but a batch's), counted as resultsOf lists them.
  const tally = { errors: 0, withData: false, failed: false };
  if (Array.isArray(result)) for (const each of result) tallyResult(tally, each);
  else if (result && typeof result === 'object' && !(Symbol.asyncIterator in result)) tallyResult(tally, result);
  // Optional fields set only when known (as a spread would), without a spread's copying.
  const finished: FinishedRequest = { id: observed.id, operation: operations.size > 1 ? 'batch' : (single?.name ?? 'anonymous') } as FinishedRequest;
  if (single?.type) finished.operationType = single.type;
  finished.outcome = outcomeOf(status, tally);
  finished.status = status;
  finished.durationMs = Math.round((performance.now() - observed.startedAt) * 10) / 10;
  finished.upstreamCalls = { ...observed.upstreamCalls };
  finished.errors = tally.errors;
  if (observed.lane) finished.lane = observed.lane;
  return finished;
}

/** What finish counts of the results: their errors, and whether any failed (with data, or without). */
interface ResultTally {
  errors: number;
  /** A result with errors and data: executed, something failed. */
  withData: boolean;
  /** A result with errors. */
  failed: boolean;
}

function tallyResult(tally: ResultTally, result: { data?: unknown; errors?: readonly unknown[] } | null | undefined): void {
  const errors = result?.errors?.length ?? 0;
  if (errors === 0) return;
  tally.errors += errors;
  tally.failed = true;
  if (result!.data !== undefined) tally.withData = true;
}

/** The execution results of a request: one, several for a batch, none when refused or streamed. */
export function resultsOf(result: unknown): { data?: unknown; errors?: readonly unknown[] }[] {
  return (Array.isArray(result) ? result : result && typeof result === 'object' && !(Symbol.asyncIterator in result) ? [result] : []) as {
    data?: unknown;
    errors?: readonly unknown[];
  }[];
}

/**
 * An answer with errors and `data` was executed and something failed (`error`); errors without
 * `data` mean the request was refused (validation, limits, a rate limit) (`rejected`). With no
 * result at all the status tells: the request was refused before parsing (401, 413, 429…).
 */
function outcomeOf(status: number, { withData, failed }: ResultTally): Outcome {
  if (status >= 500) return 'error';
  if (withData) return 'error';
  if (failed || status >= 400) return 'rejected';
  return 'ok';
}
