import { secretForms } from '../../shared/secret-forms.ts';
import { ErrorCode, UpstreamError, type ServiceName } from '../errors.ts';
import { bearerToken } from '../../shared/bearer-token.ts';
import type { UpstreamAnswer } from './upstream-answer.ts';
import type { ServiceStep, UpstreamCall } from './upstream-call.ts';
import { plainHeaders } from './upstream-fetch.ts';

/**
 * Turns every failed upstream call into one UpstreamError stamped with the service's name, at the
 * call itself, so both sources fail the same way: any non-2xx status is a failure (the upstream
 * contract), a body that is not JSON is a failure, a refused connection is "unavailable", a spent
 * time budget is "timeout" (and an answer over its size bound, read through answer-size-limit.ts,
 * fails as that step says). The messages are the gateway's own: upstream bodies, URLs and keys never
 * reach the client. The error only costs the fields that needed the call. Errors a GraphQL upstream
 * writes into an answer are disowned here (disownErrors), on the one path every answer takes.
 */
export const shapeUpstreamErrors: ServiceStep = {
  forService: (service) => ({
    read: {
      answered: (response, call, readError) => shapedAnswer(service, response, call, readError),
      failed: (error) => (error instanceof UpstreamError ? error : unreachable(service, error)),
    },
  }),
};

/**
 * The final answer, its body read by the composed call under the call's time budget (so a stalled
 * or garbled body fails as this service's error rather than as whatever the handler makes of it):
 * the answer handed on, or a throw of the call's error.
 */
function shapedAnswer(service: ServiceName, response: UpstreamAnswer, call: UpstreamCall, readError: unknown): UpstreamAnswer {
  if (response.status < 200 || response.status > 299) {
    // Read whole (which also frees the keep-alive connection): what the service said is the cause
    // an operator needs, kept for the request log and never shown to the client.
    throw withUpstreamMessage(statusError(service, response), readError === undefined ? (response.textRead ?? '') : '', call);
  }
  if (readError !== undefined) throw readError instanceof UpstreamError ? readError : unreachable(service, readError);
  const text = response.textRead ?? '';
  let body: unknown;
  try {
    body = response.parsedJson();
  } catch {
    throw new UpstreamError(`The ${service} service answered with a body that is not JSON.`, {
      code: ErrorCode.UpstreamError,
      service,
      status: response.status,
    });
  }
  if (service === 'translation') {
    const what = translationAnswerProblem(call.url, body);
    // Seen on the raw answer: past this step, Mesh reads it by the contract's types (a number as its text).
    if (what) throw new UpstreamError(`The translation service returned ${what}.`, { code: ErrorCode.UpstreamError, service, status: response.status, unusableAnswer: true });
    return response;
  }
  const disowned = disownErrors(service, body, text, call);
  if (disowned === undefined) {
    throw new UpstreamError(`The ${service} service answered with a body the gateway could not use.`, { code: ErrorCode.UpstreamError, service, status: response.status });
  }
  if (disowned === text) return response;
  // The upstream's length no longer describes the text handed on; the value parsed is the new text's.
  return response.withText(
    disowned,
    response.headers.filter(([name]) => name !== 'content-length'),
    body,
  );
}

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
function disownErrors(service: ServiceName, body: unknown, text: string, call: UpstreamCall): string | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const answer = body as { errors?: unknown };
  if (answer.errors === undefined || answer.errors === null) return text;
  if (!Array.isArray(answer.errors)) return undefined;
  answer.errors = answer.errors.map((error: unknown) => {
    const { message, locations, path } = (error ?? {}) as { message?: unknown; locations?: unknown; path?: unknown };
    return {
      // Without the key the call carried, should the service quote it back: the message reaches the
      // request log, and the client outside production.
      message: typeof message === 'string' ? withoutKeys(message, call) : `The ${service} service reported an error.`,
      ...(Array.isArray(locations) ? { locations } : {}),
      ...(Array.isArray(path) ? { path } : {}),
      extensions: { code: ErrorCode.UpstreamError, service, [UPSTREAM_ANSWER_ERROR]: service },
    };
  });
  return JSON.stringify(answer);
}

/** The service whose answer `error` (or an error it wraps) came from, if an upstream wrote it. */
export function upstreamAnswerServiceOf(error: unknown): ServiceName | undefined {
  return upstreamAnswerErrorOf(error)?.service;
}

/** The error an upstream wrote in its answer behind `error`: its service and its own message. */
export function upstreamAnswerErrorOf(error: unknown): { service: ServiceName; message: string } | undefined {
  for (let current = error, depth = 0; current && depth < 8; depth += 1) {
    const service = (current as { extensions?: Record<string, unknown> }).extensions?.[UPSTREAM_ANSWER_ERROR];
    if (service === 'problems' || service === 'translation') return { service, message: String((current as { message?: unknown }).message) };
    current = (current as { originalError?: unknown }).originalError;
  }
  return undefined;
}

/** Where an UpstreamError keeps what the service said: a symbol, so no serializer ever sends it to a client. */
const UPSTREAM_MESSAGE = Symbol('what the upstream said');
/** Longest upstream message kept: a line of a log, not a page. */
const MAX_UPSTREAM_MESSAGE = 300;

/**
 * Why an upstream call failed, in the service's own words when it gave any (the `error` of a
 * LibreTranslate answer, the `message` of others, the first GraphQL error, or its text), else the
 * network's code (`ECONNREFUSED`, `UND_ERR_SOCKET`) or `timeout`. For operators' logs only: the
 * gateway's keys are cut out, but the text is the service's, so clients never get it.
 */
export function upstreamCauseOf(error: UpstreamError): string | undefined {
  const said = (error as unknown as { [UPSTREAM_MESSAGE]?: string })[UPSTREAM_MESSAGE];
  if (said !== undefined) return said;
  for (let current: unknown = error.originalError, depth = 0; current && depth < 8; depth += 1) {
    const { code, name } = current as { code?: unknown; name?: unknown };
    if (typeof code === 'string' && /^[A-Z][A-Z0-9_]*$/.test(code)) return code;
    if (name === 'TimeoutError' || name === 'UpstreamTimeoutError') return 'timeout';
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function withUpstreamMessage(error: UpstreamError, text: string, call: UpstreamCall): UpstreamError {
  const message = upstreamMessageIn(text);
  if (message === undefined) return error;
  const line = withoutKeys(message, call);
  (error as unknown as Record<symbol, string>)[UPSTREAM_MESSAGE] = line.length > MAX_UPSTREAM_MESSAGE ? `${line.slice(0, MAX_UPSTREAM_MESSAGE)}…` : line;
  return error;
}

/** `text` without the key the call carried, in case the service quotes it back ("Invalid API key: …"), encoded or not (secretForms). */
function withoutKeys(text: string, call: UpstreamCall): string {
  const authorization = plainHeaders(call.init.headers as HeadersInit | undefined).authorization;
  let line = text;
  for (const secret of [authorization, bearerToken(authorization ?? null)]) if (secret) for (const form of secretForms(secret)) line = line.replaceAll(form, '[redacted]');
  return line;
}

/** The message in an error answer's body, as one line without markup; undefined when it says nothing. */
function upstreamMessageIn(whole: string): string | undefined {
  // Its head is enough for a line, and bounds the work an error page of megabytes costs.
  const text = whole.length > 65_536 ? whole.slice(0, 65_536) : whole;
  let message: unknown = text;
  try {
    const body = JSON.parse(text) as { error?: unknown; message?: unknown; errors?: { message?: unknown }[] } | null;
    const error = body?.error as { message?: unknown } | string | undefined;
    message = typeof error === 'string' ? error : (error?.message ?? body?.message ?? (Array.isArray(body?.errors) ? body.errors[0]?.message : undefined));
  } catch {
    // Not JSON: the text itself (an HTML error page from a proxy, say), without its tags.
    message = text.replace(/<[^>]*>/g, ' ');
  }
  if (typeof message !== 'string') return undefined;
  const line = message.replace(/\s+/g, ' ').trim();
  return line === '' ? undefined : line;
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

/**
 * What is wrong with a translation service's answer to `POST /translate` that only its raw JSON
 * shows: `translatedText` that is neither a text nor a list of texts (`[1, 2]` would otherwise
 * become the texts "1" and "2"). Undefined for any other route, and for answers without it (an
 * error body is judged by its status).
 */
function translationAnswerProblem(url: string, body: unknown): string | undefined {
  if (!/\/translate\/?(?:\?|$)/.test(url) || !body || typeof body !== 'object') return undefined;
  const { translatedText } = body as { translatedText?: unknown };
  if (translatedText === undefined || typeof translatedText === 'string') return undefined;
  if (Array.isArray(translatedText) && translatedText.every((item) => typeof item === 'string')) return undefined;
  return 'a translation that is not a list of texts';
}
