import { oldestMadeAt } from './batch/items.ts';
import type { TranslatedText } from './translation-client.ts';

/** Where a translated text comes from (the `TranslationProvenance` GraphQL type). */
export interface Provenance {
  kind: 'MACHINE' | 'CURATED' | 'ORIGINAL';
  /** The original's language: `from` as given, else as the service detected it; null when not known. */
  sourceLanguage: string | null;
  /** When it was made, ISO 8601; null for the original, and for machine output cached before the gateway kept the time. */
  madeAt: string | null;
  /** A curated translation made from another version of the original. */
  stale: boolean;
  /** Part of the text stayed in its source language (the gateway could not put the service's translation back there). */
  partial: boolean;
  /** Characters of prose in the language served over all of the text's prose, 0 to 1 (TranslatedShare). */
  translatedShare: number;
}

/** What of a text's prose the service's translation was put back for, in characters (its title and statement segments). */
export interface TranslatedShare {
  characters: number;
  translatedCharacters: number;
}

/** The language of an original served as it is when the request does not say it (`from`): BCP 47's "undetermined". */
export const UNDETERMINED = 'und';

const iso = (epochMs: number | undefined) => (epochMs === undefined ? null : new Date(epochMs).toISOString());

/**
 * Machine output put together from `results` (a problem's title and statement segments, or one
 * text): made when its oldest part was, from `from` or else the language the service detected with
 * the most confidence over all the parts (a short title alone is easily taken for another language).
 */
export function machineProvenance(from: string | null, results: readonly TranslatedText[], share?: TranslatedShare): Provenance {
  const translatedShare = share && share.characters > 0 ? roundedShare(share.translatedCharacters / share.characters) : 1;
  return { kind: 'MACHINE', sourceLanguage: from ?? detectedOver(results), madeAt: iso(oldestMadeAt(results).madeAt), stale: false, partial: translatedShare < 1, translatedShare };
}

/** Three decimals, never rounded up to a whole translation nor down to none. */
function roundedShare(share: number): number {
  if (share >= 1 || share <= 0) return Math.min(1, Math.max(0, share));
  return Math.min(0.999, Math.max(0.001, Math.round(share * 1000) / 1000));
}

export function detectedOver(results: readonly TranslatedText[]): string | null {
  const weights = new Map<string, number>();
  for (const { detectedLanguage } of results) {
    if (detectedLanguage) weights.set(detectedLanguage.code, (weights.get(detectedLanguage.code) ?? 0) + detectedLanguage.confidence);
  }
  let best: string | null = null;
  for (const [code, weight] of weights) if (best === null || weight > weights.get(best)!) best = code;
  return best;
}

export function curatedProvenance(entry: { sourceLanguage?: string; madeAt: number }, stale: boolean): Provenance {
  return { kind: 'CURATED', sourceLanguage: entry.sourceLanguage ?? null, madeAt: iso(entry.madeAt), stale, partial: false, translatedShare: 1 };
}

export function originalProvenance(sourceLanguage: string | null): Provenance {
  return { kind: 'ORIGINAL', sourceLanguage, madeAt: null, stale: false, partial: false, translatedShare: 0 };
}
