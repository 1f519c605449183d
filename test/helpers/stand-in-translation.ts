import { dataset } from '../../src/upstreams/problems/data/index.ts';
import { createTranslator, type Translator } from '../../src/upstreams/translation/translator.ts';

let translator: Translator | undefined;

/**
 * What the translation stand-in answers for `text` (plain text, English unless `from` says otherwise):
 * the value a translated field must have, so a test checks the translation itself rather than that
 * some string came back (the source text, an error message and a wrong language are strings too).
 */
export function standInTranslation(text: string, to: string, from = 'en'): string {
  translator ??= createTranslator();
  return translator.translate(text, from, to, 'text');
}

/** A problem's title as the problems stand-in serves it. */
export function titleOf(id: string): string {
  const problem = dataset.problemById.get(id);
  if (!problem) throw new Error(`the problems stand-in has no problem ${id}`);
  return problem.title;
}

/** The title of a problem of the stand-in, translated as the translation stand-in translates it. */
export function translatedTitleOf(id: string, to: string): string {
  return standInTranslation(titleOf(id), to);
}
