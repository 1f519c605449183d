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
}

/** The language of an original served as it is when the request does not say it (`from`): BCP 47's "undetermined". */
export const UNDETERMINED = 'und';

const iso = (epochMs: number | undefined) => (epochMs === undefined ? null : new Date(epochMs).toISOString());

/**
 * Machine output put together from `results` (a problem's title and statement segments, or one
 * text): made when its oldest part was, from `from` or else the language the service detected with
 * the most confidence over all the parts (a short title alone is easily taken for another language).
 */
export function machineProvenance(from: string | null, results: readonly TranslatedText[]): Provenance {
  return { kind: 'MACHINE', sourceLanguage: from ?? detectedOver(results), madeAt: iso(oldestMadeAt(results).madeAt), stale: false };
}

function detectedOver(results: readonly TranslatedText[]): string | null {
  const weights = new Map<string, number>();
  for (const { detectedLanguage } of results) {
    if (detectedLanguage) weights.set(detectedLanguage.code, (weights.get(detectedLanguage.code) ?? 0) + detectedLanguage.confidence);
  }
  let best: string | null = null;
  for (const [code, weight] of weights) if (best === null || weight > weights.get(best)!) best = code;
  return best;
}

export function curatedProvenance(entry: { sourceLanguage?: string; madeAt: number }, stale: boolean): Provenance {
  return { kind: 'CURATED', sourceLanguage: entry.sourceLanguage ?? null, madeAt: iso(entry.madeAt), stale };
}

export function originalProvenance(sourceLanguage: string | null): Provenance {
  return { kind: 'ORIGINAL', sourceLanguage, madeAt: null, stale: false };
}
