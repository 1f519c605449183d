import { textDigest } from '../../shared/hash.ts';
import { LRUCache } from 'lru-cache';
import { createLruCache } from '../stores/lru-cache.ts';

/**
 * The language a problem's statement is written in, when the request does not say it (`from`):
 * declared by the operator (TRANSLATION_SOURCE_LANGUAGE), else as the service detected it the last
 * time it translated that statement. Knowing it, a reader who wants that language gets the original
 * with no call; without it, the first such reader's page costs the one batched call that detects it.
 * Kept by the statement's digest (a changed statement is learned again), per process; a client's
 * texts translated without `from` are kept the same way.
 */
export interface SourceLanguages {
  /**
   * The statement's language as declared or last detected; null when not known. `id`: the
   * problem's, when known: a statement looked up lately for the same problem is then found by the
   * id and compared as a string, not hashed again (a page's twenty statements, every request).
   */
  of(statement: string, id?: string): string | null;
  /**
   * The language the service last detected for this text, whatever is declared: what a client's own
   * text (`translation.translate`) is known to be in. The declaration is the problems' language only.
   */
  detected(text: string): string | null;
  /** Notes what the service detected for this statement or text. */
  learn(statement: string, language: string | null): void;
}

export interface SourceLanguagesOptions {
  /** TRANSLATION_SOURCE_LANGUAGE: every statement's language, never asked of the service. */
  declared?: string;
  /** How long a detection is kept (TRANSLATION_CACHE_TTL_SECONDS); 0 keeps none. */
  ttlMs: number;
  /** Most statements kept. @default 100,000 (some 10 MB) */
  maxEntries?: number;
  /** What a statement is kept by. @default textDigest (SHA-256, memoised) */
  digest?: (text: string) => string;
}

const ENTRY_BYTES = 100;

/** Most characters of statements kept by problem id, to find their digests again without hashing (8 Mi characters). */
const STATEMENTS_BY_ID_MAX_SIZE = 8 * 1024 * 1024;

export function createSourceLanguages({ declared, ttlMs, maxEntries = 100_000, digest: digestOfText = textDigest }: SourceLanguagesOptions): SourceLanguages {
  const detections = createLruCache<string>({ maxBytes: maxEntries * ENTRY_BYTES, ttlMs, sizeOf: () => ENTRY_BYTES });
  const detected = (text: string) => detections.get(digestOfText(text)) ?? null;
  // A pure function's memo (a statement and its digest), so it needs no TTL; bounded by size.
  const byProblem = new LRUCache<string, { statement: string; digest: string }>({
    maxSize: STATEMENTS_BY_ID_MAX_SIZE,
    sizeCalculation: ({ statement }, id) => id.length + statement.length + 64,
  });
  const digestOf = (statement: string, id: string | undefined): string => {
    if (id === undefined) return digestOfText(statement);
    const seen = byProblem.get(id);
    if (seen?.statement === statement) return seen.digest;
    const digest = digestOfText(statement);
    if (statement.length <= STATEMENTS_BY_ID_MAX_SIZE / 16) byProblem.set(id, { statement, digest });
    return digest;
  };
  return {
    of: declared ? () => declared : (statement, id) => detections.get(digestOf(statement, id)) ?? null,
    detected,
    learn(statement, language) {
      if (language) detections.set(digestOfText(statement), language);
    },
  };
}
