import { compileForward, compileReverse, type Dictionary } from './dictionary.ts';
import { translateSegment } from './engine.ts';
import { GLOSSARIES, type LanguageGlossary } from './glossary/index.ts';
import { mapHtmlText } from './html.ts';

export interface Language {
  code: string;
  /** English name. */
  name: string;
  /** Codes it can be translated into: every other supported language. */
  targets: string[];
}

export interface Detection {
  language: string;
  /** Share of the text's words found in that language's vocabulary, in percent (0–100). */
  confidence: number;
}

export type TextFormat = 'text' | 'html';

export interface Translator {
  languages: Language[];
  supports(code: string): boolean;
  /** Any pair of supported languages; pairs without English go through English. */
  translate(text: string, source: string, target: string, format?: TextFormat): string;
  /** Candidate languages, best first; `[{ language: 'en', confidence: 0 }]` when no word is known. */
  detect(text: string, format?: TextFormat): Detection[];
}

const LETTERS = /[\p{L}\p{M}]+/gu;
const wordsOf = (text: string) => (text.normalize('NFC').toLowerCase().match(LETTERS) ?? []).filter((word) => word.length > 1 || !/[a-z]/.test(word));

/** Builds the glossary translator: compiles both directions of every glossary once, up front. */
export function createTranslator(glossaries: readonly LanguageGlossary[] = GLOSSARIES): Translator {
  const toTarget = new Map<string, Dictionary>(glossaries.map((glossary) => [glossary.code, compileForward(glossary)]));
  const toEnglish = new Map<string, Dictionary>(glossaries.map((glossary) => [glossary.code, compileReverse(glossary)]));
  const names = new Map<string, string>([['en', 'English'], ...glossaries.map((glossary): [string, string] => [glossary.code, glossary.name])]);
  const codes = [...names.keys()].sort();
  const languages = codes.map((code) => ({ code, name: names.get(code)!, targets: codes.filter((other) => other !== code) }));

  // Detection vocabulary: the words each language's side of the glossaries is made of.
  const vocabulary = new Map<string, Set<string>>(codes.map((code) => [code, new Set<string>()]));
  for (const [code, dictionary] of toTarget) {
    for (const key of dictionary.entries.keys()) for (const word of wordsOf(key)) vocabulary.get('en')!.add(word);
    for (const key of toEnglish.get(code)!.entries.keys()) for (const word of wordsOf(key)) vocabulary.get(code)!.add(word);
  }
  const sharedBy = new Map<string, number>();
  for (const words of vocabulary.values()) for (const word of words) sharedBy.set(word, (sharedBy.get(word) ?? 0) + 1);

  const plain = (text: string, format: TextFormat) => {
    if (format === 'text') return text;
    let joined = '';
    mapHtmlText(text, (segment) => ((joined += ` ${segment}`), segment));
    return joined;
  };

  const detect = (text: string, format: TextFormat = 'text'): Detection[] => {
    const words = wordsOf(plain(text, format));
    const scores = new Map<string, number>();
    for (const word of words) {
      const shared = sharedBy.get(word);
      if (!shared) continue;
      for (const code of codes) if (vocabulary.get(code)!.has(word)) scores.set(code, (scores.get(code) ?? 0) + 1 / shared);
    }
    const detections = [...scores]
      .map(([language, score]) => ({ language, confidence: Math.round((1000 * score) / words.length) / 10 }))
      .filter((detection) => detection.confidence > 0)
      .sort((a, b) => b.confidence - a.confidence || codes.indexOf(a.language) - codes.indexOf(b.language));
    return detections.length > 0 ? detections : [{ language: 'en', confidence: 0 }];
  };

  const step = (text: string, dictionary: Dictionary, format: TextFormat) =>
    format === 'html' ? mapHtmlText(text, (segment) => translateSegment(segment, dictionary, true)) : translateSegment(text, dictionary);

  return {
    languages,
    supports: (code) => names.has(code),
    detect,
    translate(text, source, target, format = 'text') {
      if (source === target) return text;
      const english = source === 'en' ? text : step(text, toEnglish.get(source)!, format);
      return target === 'en' ? english : step(english, toTarget.get(target)!, format);
    },
  };
}
