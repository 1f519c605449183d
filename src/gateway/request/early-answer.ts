import { ErrorCode } from '../errors.ts';

/**
 * An answer given before any GraphQL processing: a refusal (401, 403, 404, 413, 429…) or a route's
 * own answer (/healthcheck). Plain data, so each adapter writes it its own way (node:http directly,
 * yoga as a web Response).
 */
export interface EarlyAnswer {
  status: number;
  headers: Record<string, string>;
  /** The body; null for none (HEAD, 405). */
  body: string | null;
}

/**
 * A GraphQL-shaped error answered before any GraphQL processing (auth, rate limits, sizes): the body
 * clients already parse, with the status the situation calls for.
 */
export function gatewayError(status: number, message: string, code: string, headers: Record<string, string> = {}, extensions: Record<string, unknown> = {}): EarlyAnswer {
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
    body: JSON.stringify({ errors: [{ message, extensions: { code, ...extensions } }] }),
  };
}

/** An early answer as a web Response (for yoga), with the length the node:http adapter gives it too. */
export function responseOf({ status, headers, body }: EarlyAnswer): Response {
  return new Response(body, { status, headers: body === null ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) } });
}

/** The answer to a request the gateway failed on its own (a guard that threw): a 500 that says nothing of the cause. */
export const UNEXPECTED_ERROR: EarlyAnswer = Object.freeze(gatewayError(500, 'Unexpected error.', ErrorCode.InternalServerError));

/** UNEXPECTED_ERROR's body as a result, for the request log and metrics. */
export const UNEXPECTED_RESULT: unknown = Object.freeze(JSON.parse(UNEXPECTED_ERROR.body!) as object);
