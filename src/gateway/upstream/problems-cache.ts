import { LRUCache } from 'lru-cache';
import { sha256Of } from '../../shared/hash.ts';
import { clientRequestOf, type UpstreamStep } from './upstream-call.ts';

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
 * Only read-only calls are cached, and only answers without errors: a mutation or a failure is never
 * reused. Other services' calls pass through.
 */
export function cacheProblemsAnswers({ ttlMs, maxBytes = 32 * 1024 * 1024 }: ProblemsCacheOptions): UpstreamStep {
  const answers =
    ttlMs > 0
      ? new LRUCache<string, StoredAnswer>({
          maxSize: maxBytes,
          // JS strings are UTF-16: two bytes a character, plus a little for the entry itself.
          sizeCalculation: (answer, key) => 2 * (key.length + answer.text.length) + 256,
          ttl: ttlMs,
        })
      : undefined;
  const inFlight = new Map<string, Promise<StoredAnswer>>();

  return async (call, next) => {
    if (call.service !== 'problems' || !call.readOnly || typeof call.init.body !== 'string') return next(call);
    const key = sha256Of(clientRequestOf(call)?.headers.get('authorization') ?? '', call.url, call.init.body);
    const cached = answers?.get(key);
    if (cached) return toResponse(cached);
    let pending = inFlight.get(key);
    if (!pending) {
      pending = (async () => {
        const response = await next(call);
        const answer = { status: response.status, headers: [...response.headers], text: await response.text() };
        if (response.ok && !hasErrors(answer.text)) answers?.set(key, answer);
        return answer;
      })();
      inFlight.set(key, pending);
      const forget = () => inFlight.delete(key);
      pending.then(forget, forget);
    }
    return toResponse(await pending);
  };
}

function toResponse({ status, headers, text }: StoredAnswer): Response {
  return new Response(text, { status, headers });
}

function hasErrors(text: string): boolean {
  try {
    const errors = (JSON.parse(text) as { errors?: unknown[] }).errors;
    return Array.isArray(errors) && errors.length > 0;
  } catch {
    return true;
  }
}
