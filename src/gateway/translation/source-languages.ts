import { textDigest } from '../../shared/hash.ts';
import { createLruCache } from '../stores/lru-cache.ts';

/**
 * The language a problem's statement is written in, when the request does not say it (`from`):
 * declared by the operator (TRANSLATION_SOURCE_LANGUAGE), else as the service detected it the last
 * time it translated that statement. Knowing it, a reader who wants that language gets the original
 * with no call; without it, the first such reader's page costs the one batched call that detects it.
 * Kept by the statement's digest (a changed statement is learned again), per process.
 */
export interface SourceLanguages {
  /** The statement's language as declared or last detected; null when not known. */
  of(statement: string): string | null;
  /** Notes what the service detected for this statement. */
  learn(statement: string, language: string | null): void;
}

export interface SourceLanguagesOptions {
  /** TRANSLATION_SOURCE_LANGUAGE: every statement's language, never asked of the service. */
  declared?: string;
  /** How long a detection is kept (TRANSLATION_CACHE_TTL_SECONDS); 0 keeps none. */
  ttlMs: number;
  /** Most statements kept. @default 100,000 (some 10 MB) */
  maxEntries?: number;
}

const ENTRY_BYTES = 100;

export function createSourceLanguages({ declared, ttlMs, maxEntries = 100_000 }: SourceLanguagesOptions): SourceLanguages {
  if (declared) return { of: () => declared, learn: () => undefined };
  const detected = createLruCache<string>({ maxBytes: maxEntries * ENTRY_BYTES, ttlMs, sizeOf: () => ENTRY_BYTES });
  return {
    of: (statement) => detected.get(textDigest(statement)) ?? null,
    learn(statement, language) {
      if (language) detected.set(textDigest(statement), language);
    },
  };
}
