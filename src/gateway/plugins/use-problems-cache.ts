import { sha256Of } from '../../shared/hash.ts';
import type { MeshPlugin } from '@graphql-mesh/types';
import { createLruCache } from '../cache/lru-cache.ts';
import { isWriteOperationBody, serviceOfFetch } from './upstream-service.ts';

export interface ProblemsCacheOptions {
  /** How long an answer is reused; 0 turns caching off (in-flight sharing stays). */
  ttlMs: number;
  /** @default 32 MiB */
  maxBytes?: number;
}

interface StoredAnswer {
  status: number;
  headers: [string, string][];
  text: string;
}

/**
 * Reuses problems answers for a short time, and shares one upstream call between identical requests
 * in flight. The key holds the client's credential (its `Authorization` header, hashed), the upstream
 * URL and the exact request body, so clients with different credentials never see each other's data.
 * Only queries are cached, and only answers without errors: a mutation or a failure is never reused.
 */
export function useProblemsCache({ ttlMs, maxBytes = 32 * 1024 * 1024 }: ProblemsCacheOptions): MeshPlugin<object> {
  const answers = createLruCache<StoredAnswer>({
    maxBytes,
    ttlMs,
    sizeOf: (key, answer) => 2 * (key.length + answer.text.length) + 256,
  });
  const inFlight = new Map<string, Promise<StoredAnswer>>();

  return {
    onFetch({ url, options, info, context, fetchFn, setFetchFn }) {
      if (serviceOfFetch(info, url) !== 'problems' || typeof options.body !== 'string' || isWriteOperationBody(options.body)) return;
      const key = sha256Of(clientCredential(context), url, options.body as string);
      setFetchFn(async (callUrl, callOptions, callContext, callInfo) => {
        const cached = answers.get(key);
        if (cached) return toResponse(cached);
        let pending = inFlight.get(key);
        if (!pending) {
          pending = (async () => {
            const response = await fetchFn(callUrl, callOptions, callContext, callInfo);
            const answer = { status: response.status, headers: [...response.headers], text: await response.text() };
            if (response.ok && !hasErrors(answer.text)) answers.set(key, answer);
            return answer;
          })();
          inFlight.set(key, pending);
          pending.then(
            () => inFlight.delete(key),
            () => inFlight.delete(key),
          );
        }
        return toResponse(await pending);
      });
    },
  };
}

function toResponse({ status, headers, text }: StoredAnswer): Response {
  return new Response(text, { status, headers });
}

function clientCredential(context: unknown): string {
  const request = (context as { request?: Request } | undefined)?.request;
  return request?.headers?.get('authorization') ?? '';
}


function hasErrors(text: string): boolean {
  try {
    const errors = (JSON.parse(text) as { errors?: unknown[] }).errors;
    return Array.isArray(errors) && errors.length > 0;
  } catch {
    return true;
  }
}
