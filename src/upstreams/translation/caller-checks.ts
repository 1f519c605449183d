import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { fail, type Reply } from './replies.ts';
import type { Body } from './request-body.ts';
import type { ResolvedTranslationServiceOptions } from './service-options.ts';

/** The 403 for a caller without the key (`Authorization: Bearer` or `api_key` in the body), if any. */
export function unauthorized(options: Pick<ResolvedTranslationServiceOptions, 'apiKey'>, req: IncomingMessage, body: Body | undefined): Reply | undefined {
  const expected = options.apiKey;
  if (expected === undefined) return undefined;
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
  const fromBody = body?.ok ? body.value.api_key : undefined;
  if (bearer !== undefined && sameKey(bearer, expected)) return undefined;
  if (fromBody !== undefined && sameKey(fromBody, expected)) return undefined;
  return fail(403, bearer === undefined && fromBody === undefined ? 'Missing API key: send Authorization: Bearer <key> or api_key' : 'Invalid API key');
}

/** Compares keys in constant time (hashing first makes the lengths equal). */
function sameKey(presented: unknown, expected: string): boolean {
  if (typeof presented !== 'string') return false;
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(presented), digest(expected));
}

/** Sliding-window limit over the requests admitted, counted over all callers (`options.rateLimit`, read at each request). */
export function createRateLimit(options: Pick<ResolvedTranslationServiceOptions, 'rateLimit' | 'now'>): { check(): Reply | undefined; reset(): void } {
  /** Times of the requests admitted in the current window, oldest first. */
  const admitted: number[] = [];
  return {
    /** The 429 to send, if any; else the request is admitted. */
    check: () => {
      const limit = options.rateLimit;
      if (!limit) return undefined;
      const now = options.now();
      while (admitted.length > 0 && admitted[0] <= now - limit.windowMs) admitted.shift();
      if (admitted.length < limit.requests) {
        admitted.push(now);
        return undefined;
      }
      const retryAfter = Math.max(1, Math.ceil((admitted[0] + limit.windowMs - now) / 1000));
      return fail(429, `Too many requests: at most ${limit.requests} per ${limit.windowMs} ms; retry after ${retryAfter} s`, {
        'Retry-After': String(retryAfter),
      });
    },
    reset: () => {
      admitted.length = 0;
    },
  };
}
