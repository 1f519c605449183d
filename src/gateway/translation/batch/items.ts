import type { TextFormat, TranslatedText } from '../translation-client.ts';
import type { CallCaps, CallShape } from '../translation-limits.ts';
import { characters, joinParts, splitText } from '../text-parts.ts';
import type { BatchFailure, TranslationOutcome } from './batch-types.ts';

/** One whole text of the request; its parts, if cut, answer to it. */
export interface Root {
  text: string;
  outcome?: TranslationOutcome;
}

/** What goes into a call: a whole text or a part of one. */
export interface Item {
  root: Root;
  text: string;
  chars: number;
  done(result: TranslatedText): void;
  fail(failure: BatchFailure): void;
}

export function wholeItem(root: Root): Item {
  return {
    root,
    text: root.text,
    chars: characters(root.text),
    done: (result) => {
      root.outcome ??= { result };
    },
    fail: (failure) => {
      root.outcome ??= { failure };
    },
  };
}

/** Cuts an item into parts of at most `maxChars`; their translations, joined, answer for it. */
export function splitItem(item: Item, maxChars: number, format: TextFormat): Item[] | undefined {
  const cut = splitText(item.text, maxChars, format);
  if (!cut || cut.parts.length < 2) return undefined;
  const results: TranslatedText[] = [];
  let left = cut.parts.length;
  return cut.parts.map((text, index) => ({
    root: item.root,
    text,
    chars: characters(text),
    done: (result: TranslatedText) => {
      results[index] = result;
      left -= 1;
      if (left === 0) item.done({ text: joinParts(results.map((part) => part.text), cut.separators), detectedLanguage: results[0].detectedLanguage, ...oldestMadeAt(results) });
    },
    fail: item.fail,
  }));
}

/** When the oldest of `parts` was made, when every one says: what a text put together from them was made at. */
export function oldestMadeAt(parts: readonly Pick<TranslatedText, 'madeAt'>[]): { madeAt?: number } {
  let oldest = Infinity;
  for (const { madeAt } of parts) {
    if (madeAt === undefined) return {};
    oldest = Math.min(oldest, madeAt);
  }
  return Number.isFinite(oldest) ? { madeAt: oldest } : {};
}

/** The measures of one call of these items, as the service's limits are learned in. */
export function shapeOf(items: Item[]): CallShape {
  return {
    texts: items.length,
    chars: items.reduce((sum, item) => sum + item.chars, 0),
    longest: items.reduce((max, item) => Math.max(max, item.chars), 0),
  };
}
