import { LRUCache } from 'lru-cache';
import { sha256Of } from '../../shared/hash.ts';
import type { CallGate } from './translation-call-gate.ts';
import { detectLanguage, type Detection, type TranslationContext } from './translation-client.ts';

export interface LanguageDetectionOptions {
  /** Every detection call goes through it, counted against the request's call bound. */
  gate: CallGate;
  /** How long a detection is reused; 0 keeps none. */
  cacheTtlMs: number;
  /** The translation key, to send in the body too (TRANSLATION_KEY_IN_BODY). */
  bodyApiKey?: string;
}

/** The service's guesses at a text's language, best first; equal texts once, cached, within the request's call bound. */
export function createLanguageDetection({ gate, cacheTtlMs, bodyApiKey }: LanguageDetectionOptions) {
  const detections = new LRUCache<string, Detection[]>({ max: 10_000, ttl: Math.max(1, cacheTtlMs) });
  const detecting = new Map<string, Promise<Detection[]>>();
  return (context: TranslationContext, text: string): Promise<Detection[]> => {
    const key = sha256Of(text);
    const hit = cacheTtlMs > 0 ? detections.get(key) : undefined;
    if (hit) return Promise.resolve(hit);
    // Equal texts in flight, from this request or another, share one call.
    let pending = detecting.get(key);
    if (!pending) {
      pending = gate.of(context).run(() => detectLanguage(context, text, bodyApiKey));
      detecting.set(key, pending);
      pending.then(
        (result) => {
          if (cacheTtlMs > 0) detections.set(key, result);
        },
        () => undefined,
      ).finally(() => detecting.delete(key));
    }
    return pending;
  };
}
