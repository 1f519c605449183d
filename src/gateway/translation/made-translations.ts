import { sha256Of, textDigest } from '../../shared/hash.ts';
import { createLruCache } from '../stores/lru-cache.ts';

/** A problem as its translations are noted: its id, when the problems service gives one, and its texts. */
export interface MadeFor {
  id?: string;
  title: string;
  statement: string;
}

/** A whole machine translation of a problem that the translation cache holds the parts of. */
export interface MadeTranslation {
  /** The service's code of the language translated into. */
  language: string;
  /** The original's language, as given or detected; null when not known. */
  sourceLanguage: string | null;
  /** When its oldest part was made (ms since the epoch); null when the cache did not keep it. */
  madeAt: number | null;
  /** Part of its prose stayed in the source language. */
  partial: boolean;
  /** Until when its parts are cached (ms since the epoch): the oldest part's time plus the cache's TTL. */
  until: number;
}

/**
 * Where a problem's made translations are kept: under `key` (the problem), for the texts whose
 * digest is `digest` (a problem whose texts change starts afresh).
 */
export interface MadeTranslationsStore {
  read(key: string, digest: string): Promise<MadeTranslation[]> | MadeTranslation[];
  write(key: string, digest: string, made: MadeTranslation): void;
}

export interface MadeTranslations {
  /** Notes a whole translation of `problem`, as the Problem.translation link assembled it. */
  note(problem: MadeFor, made: Omit<MadeTranslation, 'until'>): void;
  /** The languages `problem`, as its texts are now, was translated into lately and is still cached in; one per language. */
  lookup(problem: MadeFor): Promise<MadeTranslation[]>;
}

export interface MadeTranslationsOptions {
  /** The translation cache's TTL (TRANSLATION_CACHE_TTL_SECONDS); 0 keeps nothing, as that cache does. */
  ttlMs: number;
  /** Shared by the replicas (Redis), read beside this process's own. @default none */
  shared?: MadeTranslationsStore;
  /** Memory bound of this process's own. @default 8 MiB */
  maxBytes?: number;
  now?: () => number;
}

/**
 * An index of the translation cache by problem: which languages each problem was translated into
 * lately, so that `Problem.translations` can list them without segmenting a statement and looking up
 * each of its texts (some ten a problem, times every language). Noted when the link assembles a
 * translation (readers' and prewarming's alike); an entry lasts as long as the oldest of the
 * translation's parts does in the cache. It says what the cache was given, not what it still holds:
 * a part the cache dropped early to stay within its bytes costs a call when the translation is asked
 * for, as any miss does.
 */
export function createMadeTranslations({ ttlMs, shared, maxBytes = 8 * 1024 * 1024, now = Date.now }: MadeTranslationsOptions): MadeTranslations {
  if (ttlMs <= 0) return { note: () => undefined, lookup: async () => [] };
  const own: ReturnType<typeof createMemoryMadeTranslations> = createMemoryMadeTranslations({ ttlMs, maxBytes, now });
  return {
    note(problem, made) {
      const until = (made.madeAt ?? now()) + ttlMs;
      // A part made longer ago than the TTL is gone from the cache already.
      if (until <= now()) return;
      const { key, digest } = madeKeyOf(problem);
      const entry = { ...made, until };
      own.write(key, digest, entry);
      shared?.write(key, digest, entry);
    },
    async lookup(problem) {
      const { key, digest } = madeKeyOf(problem);
      const mine = own.read(key, digest);
      if (!shared) return mine;
      // A store that fails is no translation made: this process's own still count.
      const theirs = await Promise.resolve(shared.read(key, digest)).catch(() => []);
      return latestPerLanguage([...mine, ...theirs], now());
    },
  };
}

/** What a problem's translations are kept under: its id when it has one, else its texts; and its texts' digest. */
export function madeKeyOf({ id, title, statement }: MadeFor): { key: string; digest: string } {
  const digest = sha256Of(textDigest(title), textDigest(statement));
  return { key: typeof id === 'string' ? `id:${id}` : `texts:${digest}`, digest };
}

/** The live entries, the one lasting longest for each language. */
export function latestPerLanguage(entries: readonly MadeTranslation[], now: number): MadeTranslation[] {
  const byLanguage = new Map<string, MadeTranslation>();
  for (const entry of entries) {
    if (entry.until <= now) continue;
    const held = byLanguage.get(entry.language);
    if (!held || entry.until > held.until) byLanguage.set(entry.language, entry);
  }
  return [...byLanguage.values()];
}

interface Kept {
  digest: string;
  languages: Map<string, MadeTranslation>;
}

/** This process's own, by problem: LRU within `maxBytes`, each language's entry until its own `until`. */
function createMemoryMadeTranslations({ ttlMs, maxBytes, now }: { ttlMs: number; maxBytes: number; now: () => number }): {
  read(key: string, digest: string): MadeTranslation[];
  write: MadeTranslationsStore['write'];
} {
  // A few languages a problem: sized for the usual, and re-counted when a language is added (set again).
  const kept = createLruCache<Kept>({ maxBytes, ttlMs, sizeOf: (key, { languages }) => 2 * key.length + 160 + 120 * languages.size });
  return {
    read(key, digest) {
      const found = kept.get(key);
      return found && found.digest === digest ? latestPerLanguage([...found.languages.values()], now()) : [];
    },
    write(key, digest, made) {
      const found = kept.get(key);
      const languages = new Map<string, MadeTranslation>();
      if (found && found.digest === digest) for (const [language, entry] of found.languages) if (entry.until > now()) languages.set(language, entry);
      languages.set(made.language, made);
      kept.set(key, { digest, languages });
    },
  };
}
