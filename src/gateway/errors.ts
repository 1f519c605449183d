import { createGraphQLError } from 'graphql-yoga';

/** Error codes the gateway puts in `errors[].extensions.code`; clients may switch on them. */
export const ErrorCode = {
  /** The upstream refused the gateway's own key for it (401/403). */
  UpstreamAuthRefused: 'UPSTREAM_AUTH_REFUSED',
  /** The upstream asked the gateway to slow down (429). */
  UpstreamRateLimited: 'UPSTREAM_RATE_LIMITED',
  /** The upstream rejected the request as malformed (400, 404, 413, 422). */
  UpstreamBadRequest: 'UPSTREAM_BAD_REQUEST',
  /** The upstream answered 5xx, or with a body the gateway could not use. */
  UpstreamError: 'UPSTREAM_ERROR',
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
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** The upstream services, by the name clients see in `extensions.service`. */
export type ServiceName = 'problems' | 'translation';

export interface UpstreamErrorDetails {
  code: ErrorCode;
  service: ServiceName;
  /** HTTP status the upstream answered with, when it answered. */
  status?: number;
  /** Seconds the upstream asked to wait (from `Retry-After`). */
  retryAfter?: number;
}

/**
 * An error about one upstream call. The message is written by the gateway, never copied from the
 * upstream: upstream bodies may hold internal detail, and keys must never reach a client.
 */
export function createUpstreamError(message: string, details: UpstreamErrorDetails) {
  return createGraphQLError(message, { extensions: { ...details } });
}

export function createGraphQLErrorWithCode(message: string, code: ErrorCode, extensions: Record<string, unknown> = {}) {
  return createGraphQLError(message, { extensions: { code, ...extensions } });
}

export function createBadUserInputError(message: string, argumentName: string) {
  return createGraphQLErrorWithCode(message, ErrorCode.BadUserInput, { argument: argumentName });
}
