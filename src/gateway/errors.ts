import { GraphQLError } from 'graphql';
import { createGraphQLError } from 'graphql-yoga';

/** Error codes the gateway puts in `errors[].extensions.code`; clients may switch on them. */
export const ErrorCode = {
  /** The upstream refused the gateway's own key for it (401/403). */
  UpstreamAuthRefused: 'UPSTREAM_AUTH_REFUSED',
  /** The upstream asked the gateway to slow down (429). */
  UpstreamRateLimited: 'UPSTREAM_RATE_LIMITED',
  /** The upstream rejected the request as malformed (400, 404, 413, 422). */
  UpstreamBadRequest: 'UPSTREAM_BAD_REQUEST',
  /**
   * The upstream answered 5xx, or with a body the gateway could not use, or reported an error of its
   * own in its answer (whose message is hidden in production: the gateway did not write it).
   */
  UpstreamError: 'UPSTREAM_ERROR',
  /** The upstream's answer was larger than the gateway reads (`limit` in bytes); reading stopped there. */
  UpstreamResponseTooLarge: 'UPSTREAM_RESPONSE_TOO_LARGE',
  /** The upstream could not be reached at all (refused, reset, DNS, timeout). */
  UpstreamUnavailable: 'UPSTREAM_UNAVAILABLE',
  /** The upstream did not answer within the call's time budget (retries included). */
  UpstreamTimeout: 'UPSTREAM_TIMEOUT',
  /** A client argument the gateway refuses before calling any upstream. */
  BadUserInput: 'BAD_USER_INPUT',
  /** A language the translation service does not offer (`extensions.argument` names `to` or `from`). */
  UnsupportedLanguage: 'UNSUPPORTED_LANGUAGE',
  /** A text longer than the translation service accepts (`extensions.limit` says how long). */
  TextTooLong: 'TEXT_TOO_LONG',
  /** A text the translation service fails on (500) while it translates others; not sent again for a while. */
  TextNotTranslatable: 'TEXT_NOT_TRANSLATABLE',
  /** A problem statement the gateway cannot translate faithfully (over a size or nesting limit, or its structure would be lost). */
  StatementNotTranslatable: 'STATEMENT_NOT_TRANSLATABLE',
  /** No valid gateway key (401). */
  Unauthenticated: 'UNAUTHENTICATED',
  /** A path the gateway does not serve (404). */
  NotFound: 'NOT_FOUND',
  /** A request body that is not valid UTF-8 (400). */
  RequestNotUtf8: 'REQUEST_NOT_UTF8',
  /** A per-client rate limit was reached (429, `retryAfter` in seconds). */
  RateLimited: 'RATE_LIMITED',
  /** The operation is over a size, shape or cost limit (`limit`, `actual`). */
  OperationLimitExceeded: 'OPERATION_LIMIT_EXCEEDED',
  /** A browser request without the headers that prove it is not a cross-site forgery (403). */
  CsrfCheckFailed: 'CSRF_CHECK_FAILED',
  /** An APQ hash the gateway does not hold (yet): the client sends it again with the document. */
  PersistedQueryNotFound: 'PERSISTED_QUERY_NOT_FOUND',
  /** APQ is off (PERSISTED_QUERIES_TTL_SECONDS=0): the client sends the document itself. */
  PersistedQueryNotSupported: 'PERSISTED_QUERY_NOT_SUPPORTED',
  /** A document sent with an APQ hash that is not its SHA-256 (400); nothing is stored. */
  PersistedQueryHashMismatch: 'PERSISTED_QUERY_HASH_MISMATCH',
  /** Trusted documents only (TRUSTED_DOCUMENTS): a document that is not in the manifest (400). */
  PersistedQueryOnly: 'PERSISTED_QUERY_ONLY',
  /** Trusted documents only: a hash or document id that is not in the manifest (400). */
  UnknownOperation: 'UNKNOWN_OPERATION',
  /** Anything the gateway did not expect; in production its message is hidden. */
  InternalServerError: 'INTERNAL_SERVER_ERROR',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** Codes yoga and graphql-js put on request errors; their messages are written for clients too. */
export const REQUEST_ERROR_CODES = [
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'BAD_REQUEST',
  'REQUEST_ENTITY_TOO_LARGE',
  'PERSISTED_QUERY_NOT_FOUND',
  'OPERATION_RESOLUTION_FAILURE',
] as const;

/** The upstream services, by the name clients see in `extensions.service`. */
export type ServiceName = 'problems' | 'translation';

export interface UpstreamErrorDetails {
  code: ErrorCode;
  service: ServiceName;
  /** HTTP status the upstream answered with, when it answered. */
  status?: number;
  /** Seconds the upstream asked to wait (from `Retry-After`). */
  retryAfter?: number;
  /** A limit the failure is about (e.g. characters per text). */
  limit?: number;
  /** The client argument the failure is about (`to`, `from`). */
  argument?: string;
  /** The service answered 200 with nothing usable (no texts, empty ones): a failed call, counted, never cached. Not public. */
  unusableAnswer?: boolean;
}

/**
 * The one error type of a failed upstream call, from the fetch where it happens to the field that
 * needed it. A GraphQLError, so Mesh's HTTP executor passes it through unchanged; `originalError`
 * keeps the cause (the network error, the timeout). It never gets a path of its own: thrown by a
 * resolver, graphql-js places a copy at that field, so one error can be shared by every request that
 * joined the failed call. The message is written by the gateway, never
 * copied from the upstream: upstream bodies may hold internal detail, and keys must never reach a
 * client.
 */
export class UpstreamError extends GraphQLError {
  declare readonly extensions: UpstreamErrorDetails & Record<string, unknown>;

  constructor(message: string, details: UpstreamErrorDetails, cause?: unknown) {
    super(message, { extensions: { ...details }, originalError: cause instanceof Error ? cause : undefined });
  }

  get service(): ServiceName {
    return this.extensions.service;
  }

  get code(): ErrorCode {
    return this.extensions.code;
  }
}

/** The UpstreamError behind `error` (which Mesh may have wrapped on its way back), if any. */
export function upstreamErrorIn(error: unknown): UpstreamError | undefined {
  for (let current = error, depth = 0; current && depth < 8; depth += 1) {
    if (current instanceof UpstreamError) return current;
    current = (current as { originalError?: unknown }).originalError;
  }
  return undefined;
}

export function createGraphQLErrorWithCode(message: string, code: ErrorCode, extensions: Record<string, unknown> = {}) {
  return createGraphQLError(message, { extensions: { code, ...extensions } });
}

export function createBadUserInputError(message: string, argumentName: string) {
  return createGraphQLErrorWithCode(message, ErrorCode.BadUserInput, { argument: argumentName });
}

/**
 * A client argument refused before execution, for what the request itself shows (its length, its
 * range, its shape): the whole request is refused with 400, as for a variable of the wrong type,
 * and no upstream is called. `limit` and `actual` say how far off it is, when it is a measure.
 */
export function createArgumentError(message: string, argumentName: string, measure: { limit?: number; actual?: number } = {}) {
  return createGraphQLError(message, { extensions: { code: ErrorCode.BadUserInput, argument: argumentName, ...measure, http: { status: 400 } } });
}
