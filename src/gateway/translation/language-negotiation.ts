import type { ReaderLanguages } from '../request/reader-languages.ts';
import { likelyServiceCode, matchLanguage, parseLanguageTag } from './language-tags.ts';

/** How a text reaches the reader in the language chosen for them. */
export type Negotiated =
  /** An operator's translation, in the language its file names. */
  | { kind: 'curated'; language: string }
  /** The original already is in a language the reader wants (`from` named it). */
  | { kind: 'original'; language: string }
  /** The service translates into `language`, its own code. */
  | { kind: 'machine'; language: string };

export interface NegotiationCandidates {
  /** Languages an operator translated this text into (curated), as their files name them. */
  curated?: readonly string[];
  /** The service's code of the original's language, when the request gave `from`. */
  source?: string | null;
  /**
   * What the service translates this text into, asked only when no curated translation or the
   * original serves an earlier choice; undefined when its list cannot be had (the likely spelling
   * of the first remaining tag is then tried, and the call's own outcome stands). Given at once when
   * the list is held, so that a choice needs no promise.
   */
  offered(): readonly string[] | undefined | Promise<readonly string[] | undefined>;
}

/**
 * The reader's languages, most wanted first, then the gateway's defaults (TRANSLATION_DEFAULT_LANGUAGES)
 * unless the reader said `*;q=0`; each once, refused ones left out.
 */
export function languageChain(reader: ReaderLanguages, defaults: readonly string[]): string[] {
  const chain = reader.onlyListed ? [...reader.tags] : [...new Set([...reader.tags, ...defaults])];
  return reader.refused.length === 0 ? chain : chain.filter((tag) => !reader.refused.includes(tag));
}

/**
 * The first tag of `chain` something can serve, with the same matching as a `to:` argument
 * (language-tags.ts: `pt-BR` takes `pt`, `zh-TW` only Traditional): for each tag in turn a curated
 * translation, then the original, then the service. Undefined when none can: the reader gets the
 * original, marked as such. A code the reader refused (`es;q=0`) is never chosen. At once unless
 * the service's list has to be waited for.
 */
export function negotiateLanguage(chain: readonly string[], refused: readonly string[], candidates: NegotiationCandidates): Negotiated | undefined | Promise<Negotiated | undefined> {
  const allowed = (codes: readonly string[]) => (refused.length === 0 ? codes : codes.filter((code) => !refused.some((tag) => matchesTag(tag, code))));
  const curated = allowed(candidates.curated ?? []);
  const source = candidates.source ? allowed([candidates.source]) : [];
  /** The chain from `start` on; `offered` null until the list has been asked for. */
  const from = (start: number, offered: readonly string[] | undefined | null): Negotiated | undefined | Promise<Negotiated | undefined> => {
    for (let index = start; index < chain.length; index++) {
      const tag = parseLanguageTag(chain[index]);
      if (!tag) continue;
      const own = matchLanguage(tag, curated);
      if (own) return { kind: 'curated', language: own };
      const original = matchLanguage(tag, source);
      if (original) return { kind: 'original', language: original };
      // The list only once the cheaper choices are out, so a curated first choice costs no call at all.
      if (offered === null) {
        const list = candidates.offered();
        if (list instanceof Promise) return list.then((had) => from(index, had && allowed(had)));
        offered = list && allowed(list);
      }
      if (!offered) return { kind: 'machine', language: likelyServiceCode(tag) };
      const machine = matchLanguage(tag, offered);
      if (machine) return { kind: 'machine', language: machine };
    }
    return undefined;
  };
  return from(0, null);
}

function matchesTag(tag: string, code: string): boolean {
  const parsed = parseLanguageTag(tag);
  return parsed !== undefined && matchLanguage(parsed, [code]) === code;
}
