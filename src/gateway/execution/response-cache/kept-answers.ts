import { LRUCache } from 'lru-cache';
import { withTimeout } from '../../../shared/with-timeout.ts';
import type { CachedAnswer } from '../../request/cached-answer.ts';
import type { KeyValueStore } from '../../stores/key-value-store.ts';
import { cachingHeaders } from './caching-headers.ts';

export interface KeptAnswersOptions {
  /** Where replicas share answers (Redis); without it, answers are kept in this process only. */
  sharedStore?: KeyValueStore;
  /** Memory bound of the answers kept in this process, counting two bytes a character. */
  maxLocalBytes: number;
  /** How long the shared store may take before the request goes on without it. */
  storeTimeoutMs: number;
}

/** An answer as a shared store holds it (JSON): the body as text, no headers. */
export type StoredAnswer = Omit<CachedAnswer, 'body' | 'headers'> & { body: string };

/**
 * Where the response cache's answers are kept: in this process, parsed and ready to write
 * (cached-answer.ts), and in the shared store when there is one, in front of which the answers read
 * or kept lately stay here too. A hit held here costs a map lookup; reading the store costs a timer,
 * a promise and a JSON parse of the entry (and a round trip, for Redis). A store that fails or is
 * slow is a miss.
 */
export function createKeptAnswers({ sharedStore, maxLocalBytes, storeTimeoutMs }: KeptAnswersOptions) {
  const local = new LRUCache<string, CachedAnswer>({
    maxSize: maxLocalBytes,
    sizeCalculation: (answer, key) => answer.body.byteLength + 2 * (key.length + answer.etag.length + (answer.operationName?.length ?? 0)) + 256,
  });
  const live = (answer: CachedAnswer | undefined): answer is CachedAnswer => answer !== undefined && answer.expiresAt > Date.now();
  const peek = (key: string): CachedAnswer | undefined => {
    const held = local.get(key);
    if (live(held)) return held;
    if (held) local.delete(key);
    return undefined;
  };
  return {
    peek,
    read(key: string): Promise<CachedAnswer | undefined> {
      const held = peek(key);
      if (held) return Promise.resolve(held);
      if (!sharedStore) return Promise.resolve(undefined);
      return withTimeout(() => sharedStore.get(key), storeTimeoutMs).then(
        (stored) => {
          const answer = stored ? parseAnswer(stored) : undefined;
          if (!live(answer)) return undefined;
          local.set(key, answer);
          return answer;
        },
        () => undefined,
      );
    },
    /** Keeps `stored` under `key` for `ttlMs`, here and (in the background) in the shared store; returns it ready to write. */
    keep(key: string, stored: StoredAnswer, ttlMs: number): CachedAnswer {
      const answer = readyAnswer(stored);
      local.set(key, answer);
      if (sharedStore) void withTimeout(() => sharedStore.set(key, JSON.stringify(stored), ttlMs), storeTimeoutMs).catch(() => undefined);
      return answer;
    },
  };
}

/** The answer ready to write: its bytes, and the headers that depend on it alone (in cachingHeaders' words). */
function readyAnswer({ body, ...rest }: StoredAnswer): CachedAnswer {
  const bytes = Buffer.from(body);
  const { 'cache-control': _perRequest, ...fixed } = cachingHeaders(rest.etag, 0, rest);
  const headers = [...Object.entries(fixed).flat(), 'content-length', String(bytes.byteLength)];
  return { ...rest, body: bytes, headers };
}

function parseAnswer(text: string): CachedAnswer | undefined {
  try {
    const answer = JSON.parse(text) as StoredAnswer;
    if (typeof answer?.expiresAt !== 'number' || typeof answer.body !== 'string' || typeof answer.etag !== 'string') return undefined;
    // A language header is written as kept: only a plain tag may become one.
    if (answer.contentLanguage !== undefined && !/^[A-Za-z0-9-]{1,35}$/.test(answer.contentLanguage)) return undefined;
    return readyAnswer(answer);
  } catch {
    return undefined;
  }
}
