import { textDigest } from '../../shared/hash.ts';
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
  /** The statement's language as declared or last detected; null when not known. */
  of(statement: string): string | null;
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
}

const ENTRY_BYTES = 100;

export function createSourceLanguages({ declared, ttlMs, maxEntries = 100_000 }: SourceLanguagesOptions): SourceLanguages {
  const detections = createLruCache<string>({ maxBytes: maxEntries * ENTRY_BYTES, ttlMs, sizeOf: () => ENTRY_BYTES });
  const detected = (text: string) => detections.get(textDigest(text)) ?? null;
  return {
    of: declared ? () => declared : detected,
    detected,
    learn(statement, language) {
      if (language) detections.set(textDigest(statement), language);
    },
  };
}
