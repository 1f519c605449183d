import type { MeshPlugin } from '@graphql-mesh/types';
import { ErrorCode, createUpstreamError, type ServiceName } from '../errors.ts';
import { serviceOfFetch } from './upstream-service.ts';

/**
 * Turns every failed upstream call into one clear GraphQL error stamped with the service's name,
 * at the fetch itself, so both sources fail the same way: any non-2xx status is a failure (the
 * upstream contract), and a refused connection is "unavailable". The messages are the gateway's own:
 * upstream bodies, URLs and keys never reach the client. The error only costs the fields that
 * needed the call; the rest of the response stands.
 */
export function useUpstreamErrors(): MeshPlugin<object> {
  return {
    onFetch({ url, info, fetchFn, setFetchFn }) {
      const service = serviceOfFetch(info, url);
      if (!service) return;
      setFetchFn(async (url, options, context, fetchInfo) => {
        let response: Response;
        try {
          response = await fetchFn(url, options, context, fetchInfo);
        } catch (error) {
          throw unreachable(service, error);
        }
        if (response.status < 200 || response.status > 299) {
          // Drain the body so the keep-alive connection can be reused.
          await response.arrayBuffer().catch(() => undefined);
          throw statusError(service, response);
        }
        return response;
      });
    },
  };
}

function unreachable(service: ServiceName, error: unknown) {
  const timedOut = (error as Error)?.name === 'TimeoutError' || (error as Error)?.name === 'AbortError';
  return createUpstreamError(
    timedOut ? `The ${service} service did not answer in time.` : `The ${service} service could not be reached.`,
    { code: ErrorCode.UpstreamUnavailable, service },
  );
}

function statusError(service: ServiceName, response: Response) {
  const status = response.status;
  if (status === 401 || status === 403) {
    return createUpstreamError(`The ${service} service refused the gateway's API key for it (HTTP ${status}).`, {
      code: ErrorCode.UpstreamAuthRefused,
      service,
      status,
    });
  }
  if (status === 429) {
    const retryAfter = parseRetryAfter(response.headers.get('retry-after'));
    const when = retryAfter === undefined ? 'later' : `in ${retryAfter} s`;
    return createUpstreamError(`The ${service} service is rate limiting the gateway; retry ${when}.`, {
      code: ErrorCode.UpstreamRateLimited,
      service,
      status,
      ...(retryAfter === undefined ? {} : { retryAfter }),
    });
  }
  if (status >= 400 && status < 500) {
    return createUpstreamError(`The ${service} service rejected the request (HTTP ${status}).`, {
      code: ErrorCode.UpstreamBadRequest,
      service,
      status,
    });
  }
  return createUpstreamError(`The ${service} service failed (HTTP ${status}).`, { code: ErrorCode.UpstreamError, service, status });
}

/** `Retry-After` is either whole seconds or an HTTP date; either way, report seconds from now. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}
