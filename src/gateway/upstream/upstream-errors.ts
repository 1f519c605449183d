import { ErrorCode, UpstreamError, type ServiceName } from '../errors.ts';
import type { UpstreamStep } from './upstream-call.ts';

/**
 * Turns every failed upstream call into one UpstreamError stamped with the service's name, at the
 * call itself, so both sources fail the same way: any non-2xx status is a failure (the upstream
 * contract), a body that is not JSON is a failure, a refused connection is "unavailable", a spent
 * time budget is "timeout". The messages are the gateway's own: upstream bodies, URLs and keys never
 * reach the client. The error only costs the fields that needed the call.
 */
export const shapeUpstreamErrors: UpstreamStep = async (call, next) => {
  const { service } = call;
  let response: Response;
  let text: string;
  try {
    response = await next(call);
    if (response.status < 200 || response.status > 299) {
      // Drain the body so the keep-alive connection can be reused.
      await response.arrayBuffer().catch(() => undefined);
      throw statusError(service, response);
    }
    // Read the body here, under the call's time budget, so a stalled or garbled body fails as this
    // service's error rather than as whatever the handler makes of it.
    text = await response.text();
  } catch (error) {
    throw error instanceof UpstreamError ? error : unreachable(service, error);
  }
  if (!isJson(text)) {
    throw new UpstreamError(`The ${service} service answered with a body that is not JSON.`, {
      code: ErrorCode.UpstreamError,
      service,
      status: response.status,
    });
  }
  return new Response(text, { status: response.status, statusText: response.statusText, headers: response.headers });
};

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function unreachable(service: ServiceName, error: unknown): UpstreamError {
  const name = (error as Error)?.name;
  if (name === 'TimeoutError' || name === 'UpstreamTimeoutError') {
    return new UpstreamError(`The ${service} service did not answer in time.`, { code: ErrorCode.UpstreamTimeout, service }, error);
  }
  return new UpstreamError(`The ${service} service could not be reached.`, { code: ErrorCode.UpstreamUnavailable, service }, error);
}

function statusError(service: ServiceName, response: Response): UpstreamError {
  const status = response.status;
  if (status === 401 || status === 403) {
    return new UpstreamError(`The ${service} service refused the gateway's API key for it (HTTP ${status}).`, {
      code: ErrorCode.UpstreamAuthRefused,
      service,
      status,
    });
  }
  if (status === 429) {
    const retryAfter = parseRetryAfter(response.headers.get('retry-after'));
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
  const retryAfter = status === 503 ? parseRetryAfter(response.headers.get('retry-after')) : undefined;
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
