import { textDigest } from '../../shared/hash.ts';
import { createLruCache } from '../stores/lru-cache.ts';
import type { Provenance } from './provenance.ts';

/** A problem's title and statement in one language, as the Problem.translation link put them together. */
export interface AssembledTranslation {
  title: string;
  statement: string;
  /** Machine output, when it was made (its oldest part), from which language, and how much of it is translated. */
  provenance: Provenance;
  /** Offsets in `statement` of prose left in the source language (segment-statement.ts' `sourceRanges`). */
  sourceRanges?: [number, number][];
}

/** The texts a translation was made from, and the languages. */
export interface AssembledFrom {
  /** The problem's id, when known: it finds the entry without hashing the texts. */
  id?: string;
  /** The service's code of the source language; null when the service detects it. */
  from: string | null;
  to: string;
  title: string;
  statement: string;
}

/** An entry: the translation, and the texts it was made from (a problem's texts can change). */
interface Kept {
  title: string;
  statement: string;
  translation: AssembledTranslation;
}

export interface AssembledTranslationCacheOptions {
  /** Memory bound. @default 32 MiB */
  maxBytes?: number;
  /** How long an assembled translation is reused: the translation cache's TTL (TRANSLATION_CACHE_TTL_SECONDS); 0 keeps nothing. */
  ttlMs: number;
  /** Told how many translations were reused, once per tick (summed), for metrics. */
  onReused?: (translations: number) => void;
}

export interface AssembledTranslationCache {
  /** The translation assembled lately from exactly these texts and languages, if any. */
  find(from: AssembledFrom): AssembledTranslation | undefined;
  keep(from: AssembledFrom, translation: AssembledTranslation): void;
}

/**
 * The link's whole result per problem and language pair, reused while the translations it was made
 * of would be: a warm page then costs no segmenting, batching, cache lookup per text or reassembly
 * (some 200 texts for 20 problems), only one lookup per problem. Found by the problem's id and the
 * languages, and given back only for the exact title and statement it was made from (compared as
 * strings), so a problem whose text changes simply misses, and its new translation replaces the old.
 * Looking a page's fresh texts up by their digests instead hashed every title and statement again,
 * about a fortieth of a warm page's CPU; without an id, the digests key the entry. Like the translation
 * cache, an entry lives TRANSLATION_CACHE_TTL_SECONDS from when it was made; each process holds its
 * own (a translation made again elsewhere within that time may read differently, as two replicas'
 * whole answers may).
 */
export function createAssembledTranslationCache({ maxBytes = 32 * 1024 * 1024, ttlMs, onReused }: AssembledTranslationCacheOptions): AssembledTranslationCache {
  const kept = createLruCache<Kept>({
    maxBytes,
    ttlMs,
    sizeOf: (key, { title, statement, translation }) => 2 * (key.length + title.length + statement.length + translation.title.length + translation.statement.length) + 128,
  });
  const keyOf = ({ id, from, to, title, statement }: AssembledFrom) =>
    `${from ?? 'auto'}:${to}:${typeof id === 'string' ? `id:${id}` : `texts:${textDigest(title)}:${textDigest(statement)}`}`;
  let reused = 0;
  const report = () => {
    const translations = reused;
    reused = 0;
    try {
      onReused?.(translations);
    } catch {
      // Metrics must never cost a translation.
    }
  };
  return {
    find(from) {
      const found = kept.get(keyOf(from));
      if (!found || found.title !== from.title || found.statement !== from.statement) return undefined;
      if (onReused && reused++ === 0) setImmediate(report);
      return found.translation;
    },
    keep(from, translation) {
      kept.set(keyOf(from), { title: from.title, statement: from.statement, translation });
    },
  };
}
