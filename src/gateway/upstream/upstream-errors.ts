import { ErrorCode, UpstreamError, type ServiceName } from '../errors.ts';
import type { UpstreamAnswer } from './upstream-answer.ts';
import type { UpstreamStep } from './upstream-call.ts';

/**
 * Turns every failed upstream call into one UpstreamError stamped with the service's name, at the
 * call itself, so both sources fail the same way: any non-2xx status is a failure (the upstream
 * contract), a body that is not JSON is a failure, a refused connection is "unavailable", a spent
 * time budget is "timeout" (and an answer over its size bound, read through answer-size-limit.ts,
 * fails as that step says). The messages are the gateway's own: upstream bodies, URLs and keys never
 * reach the client. The error only costs the fields that needed the call. Errors a GraphQL upstream
 * writes into an answer are disowned here (disownErrors), on the one path every answer takes.
 */
export const shapeUpstreamErrors: UpstreamStep = async (call, next) => {
  const { service } = call;
  let response: UpstreamAnswer;
  let text: string;
  try {
    response = await next(call);
    if (response.status < 200 || response.status > 299) {
      // Drain the body so the keep-alive connection can be reused.
      await response.discard();
      throw statusError(service, response);
    }
    // Read the body here, under the call's time budget, so a stalled or garbled body fails as this
    // service's error rather than as whatever the handler makes of it.
    text = await response.text();
  } catch (error) {
    throw error instanceof UpstreamError ? error : unreachable(service, error);
  }
  const unusable = () =>
    new UpstreamError(`The ${service} service answered with a body the gateway could not use.`, {
      code: ErrorCode.UpstreamError,
      service,
      status: response.status,
    });
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    throw new UpstreamError(`The ${service} service answered with a body that is not JSON.`, {
      code: ErrorCode.UpstreamError,
      service,
      status: response.status,
    });
  }
  if (service !== 'problems') return response;
  const disowned = disownErrors(service, body, text);
  if (disowned === undefined) throw unusable();
  if (disowned === text) return response;
  // The upstream's length no longer describes the text handed on.
  return response.withText(disowned, response.headers.filter(([name]) => name !== 'content-length'));
};

/**
 * Extension key on every error a GraphQL upstream wrote in its answer. Set here, on the one path
 * every upstream answer takes, after all the upstream's own extensions are dropped, so an upstream
 * can neither forge it nor avoid it; never public (use-error-masking.ts keeps only public keys).
 */
export const UPSTREAM_ANSWER_ERROR = 'gatewayUpstreamAnswerError';

/**
 * The answer's text with every upstream error reduced to what the gateway can vouch for: its message
 * (hidden in production by the error masking), locations and path (Mesh needs the path to place it),
 * and the gateway's code and mark. The upstream's own extensions go: its `code` would be taken for
 * the gateway's word, and yoga would apply its `http` (status, set-cookie, location) to the client's
 * answer. `undefined` when the answer's errors are not a list, as GraphQL requires.
 */
function disownErrors(service: ServiceName, body: unknown, text: string): string | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const answer = body as { errors?: unknown };
  if (answer.errors === undefined || answer.errors === null) return text;
  if (!Array.isArray(answer.errors)) return undefined;
  answer.errors = answer.errors.map((error: unknown) => {
    const { message, locations, path } = (error ?? {}) as { message?: unknown; locations?: unknown; path?: unknown };
    return {
      message: typeof message === 'string' ? message : `The ${service} service reported an error.`,
      ...(Array.isArray(locations) ? { locations } : {}),
      ...(Array.isArray(path) ? { path } : {}),
      extensions: { code: ErrorCode.UpstreamError, service, [UPSTREAM_ANSWER_ERROR]: service },
    };
  });
  return JSON.stringify(answer);
}

/** The service whose answer `error` (or an error it wraps) came from, if an upstream wrote it. */
export function upstreamAnswerServiceOf(error: unknown): ServiceName | undefined {
  for (let current = error, depth = 0; current && depth < 8; depth += 1) {
    const service = (current as { extensions?: Record<string, unknown> }).extensions?.[UPSTREAM_ANSWER_ERROR];
    if (service === 'problems' || service === 'translation') return service;
    current = (current as { originalError?: unknown }).originalError;
  }
  return undefined;
}

function unreachable(service: ServiceName, error: unknown): UpstreamError {
  const name = (error as Error)?.name;
  if (name === 'TimeoutError' || name === 'UpstreamTimeoutError') {
    return new UpstreamError(`The ${service} service did not answer in time.`, { code: ErrorCode.UpstreamTimeout, service }, error);
  }
  return new UpstreamError(`The ${service} service could not be reached.`, { code: ErrorCode.UpstreamUnavailable, service }, error);
}

function statusError(service: ServiceName, response: UpstreamAnswer): UpstreamError {
  const status = response.status;
  if (status === 401 || status === 403) {
    return new UpstreamError(`The ${service} service refused the gateway's API key for it (HTTP ${status}).`, {
      code: ErrorCode.UpstreamAuthRefused,
      service,
      status,
    });
  }
  if (status === 429) {
    const retryAfter = parseRetryAfter(response.header('retry-after') ?? null);
    const when = retryAfter === undefined ? 'later' : `in ${retryAfter} s`;
    return new UpstreamError(`The ${service} service is rate limiting the gateway; retry ${when}.`, {
      code: ErrorCode.UpstreamRateLimited,
      service,
      status,
      ...(retryAfter === undefined ? {} : { retryAfter }),
    });
  }
  if (status >= 400 && status < 500) {
    return new UpstreamError(`The ${service} service rejected the request (HTTP ${status}).`, {
      code: ErrorCode.UpstreamBadRequest,
      service,
      status,
    });
  }
  const retryAfter = status === 503 ? parseRetryAfter(response.header('retry-after') ?? null) : undefined;
  return new UpstreamError(`The ${service} service failed (HTTP ${status}).`, {
    code: ErrorCode.UpstreamError,
    service,
    status,
    ...(retryAfter === undefined ? {} : { retryAfter }),
  });
}

/** `Retry-After` is either whole seconds or an HTTP date; either way, report seconds from now. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}
