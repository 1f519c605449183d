import { ErrorCode, UpstreamError, type ServiceName } from '../errors.ts';
import type { UpstreamAnswer } from './upstream-answer.ts';
import type { ServiceStep } from './upstream-call.ts';

export interface AnswerSizeLimitOptions {
  /** Largest answer body read from each service, in bytes (PROBLEMS_ / TRANSLATION_MAX_RESPONSE_BYTES). */
  maxBytes: Record<ServiceName, number>;
}

/**
 * Bounds every upstream answer's body while it streams: an answer that declares a larger
 * `Content-Length` is refused before its body is read, and one that grows past the bound fails the
 * read the moment it does, cancelling the rest, so at most `maxBytes` of it is ever held. The error
 * step (upstream-errors.ts), which reads the body under the call's time budget, passes the
 * UpstreamError on. Not retried: the same call would get the same answer.
 */
export function limitAnswerSize({ maxBytes }: AnswerSizeLimitOptions): ServiceStep {
  return {
    forService(service) {
      const limit = maxBytes[service];
      const tooLarge = (status: number) =>
        new UpstreamError(`The ${service} service answered with more than ${limit} bytes.`, { code: ErrorCode.UpstreamResponseTooLarge, service, status, limit });
      const bound = (response: UpstreamAnswer): UpstreamAnswer | Promise<never> => {
        const declared = Number(response.header('content-length') ?? Number.NaN);
        if (declared > limit) {
          return response.cancel().then(() => {
            throw tooLarge(response.status);
          });
        }
        // A declared length within the bound is the body's length (HTTP framing): nothing to count. Only
        // an answer of unknown length has its bytes counted as they are read.
        if (declared <= limit) return response;
        return response.limitedTo(limit, () => tooLarge(response.status));
      };
      return { bound };
    },
  };
}
