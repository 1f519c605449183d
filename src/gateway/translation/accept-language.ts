import { memoized } from '../../shared/memoized.ts';
import type { ReaderLanguages } from '../request/reader-languages.ts';
import { parseLanguageTag } from './language-tags.ts';

/** How much of the header is read: real browsers send well under 200 characters. */
export const MAX_HEADER_CHARS = 1024;
/** How many tags of it are read. */
export const MAX_TAGS = 32;

/** A weight as RFC 9110 writes it: 0 to 1 with at most three decimals. */
const WEIGHT = /^q=(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/i;

export const NO_PREFERENCE: ReaderLanguages = Object.freeze({ tags: [], refused: [], onlyListed: false, key: '' });

/** The reader's languages in `header` (absent, empty or unreadable: no preference). */
export function readAcceptLanguage(header: string | null | undefined): ReaderLanguages {
  if (!header) return NO_PREFERENCE;
  // Cut first, so the memo below and the work after it never see more than the bound.
  return readBounded(header.length > MAX_HEADER_CHARS ? header.slice(0, header.lastIndexOf(',', MAX_HEADER_CHARS) + 1 || MAX_HEADER_CHARS) : header);
}

/** Clients send the same few headers, each read once. */
const readBounded = memoized((header): ReaderLanguages => {
  const wanted: { tag: string; weight: number; order: number }[] = [];
  const refused = new Set<string>();
  let onlyListed = false;
  let entries = 0;
  for (const entry of header.split(',')) {
    if (entries >= MAX_TAGS) break;
    const [range, ...parameters] = entry.split(';').map((part) => part.trim());
    if (!range) continue;
    entries += 1;
    const weightParameter = parameters.find((parameter) => /^q=/i.test(parameter));
    if (weightParameter !== undefined && !WEIGHT.test(weightParameter)) continue;
    const weight = weightParameter === undefined ? 1 : Number(weightParameter.slice(2));
    if (range === '*') {
      onlyListed = weight === 0;
      continue;
    }
    const tag = parseLanguageTag(range)?.canonical;
    if (!tag) continue;
    if (weight === 0) refused.add(tag);
    else wanted.push({ tag, weight, order: wanted.length });
  }
  wanted.sort((a, b) => b.weight - a.weight || a.order - b.order);
  const tags = [...new Set(wanted.map(({ tag }) => tag))].filter((tag) => !refused.has(tag));
  if (tags.length === 0 && refused.size === 0 && !onlyListed) return NO_PREFERENCE;
  const key = `${tags.join(',')}${[...refused].map((tag) => `!${tag}`).join('')}${onlyListed ? '*' : ''}`;
  return Object.freeze({ tags: Object.freeze(tags), refused: Object.freeze([...refused]), onlyListed, key });
});
