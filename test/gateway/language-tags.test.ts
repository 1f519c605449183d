import { describe, expect, it } from 'vitest';
import { chooseLanguages, languageTagProblem, matchLanguage, parseLanguageTag } from '../../src/gateway/translation/language-tags.ts';
import type { Language } from '../../src/gateway/translation/translation-client.ts';

/** Every code offered as a source and a target of every other, as LibreTranslate lists them. */
const offering = (...codes: string[]): Language[] => codes.map((code) => ({ code, name: code, targets: codes.filter((other) => other !== code) }));

const match = (tag: string, offered: string[]) => matchLanguage(parseLanguageTag(tag)!, offered);

describe('language tags as people type them', () => {
  it('reads BCP 47 tags in any case and with `_`, into the usual case', () => {
    expect(
      ['ES', 'Es', 'es', 'pt-br', 'PT_BR', 'zh-hant', 'ZH-HANT-tw', 'es-419', 'sr-latn-rs', 'de-CH-1996', 'zh-yue'].map((tag) => parseLanguageTag(tag)?.canonical),
    ).toEqual(['es', 'es', 'es', 'pt-BR', 'pt-BR', 'zh-Hant', 'zh-Hant-TW', 'es-419', 'sr-Latn-RS', 'de-CH-1996', 'zh-yue']);
    expect(parseLanguageTag('zh-yue')).toMatchObject({ language: 'yue' });
  });

  it('refuses what is not shaped like a tag, naming the argument and quoting it cut short', () => {
    for (const value of ['', 'e', 'e s', 'english!!', 'english', 'es-', '-es', 'es--ES', '12', 'es\u0000', 'x-klingon', 'es-toolongsubtag']) {
      expect(languageTagProblem('to', value), JSON.stringify(value)).toMatch(/^Argument "to" must be a language tag such as "es", "pt-BR" or "zh-Hant"/);
    }
    expect(languageTagProblem('to', 'e'.repeat(10_000))).toContain(`"${'e'.repeat(40)}…"`);
    expect(languageTagProblem('to', 'auto')).toMatch(/"auto", automatic detection, is for `from` only/);
    expect(languageTagProblem('from', 'AUTO')).toBeUndefined();
    expect(languageTagProblem('from', 'pt_BR')).toBeUndefined();
  });

  it('maps each spelling to the code the service offers: the same code first, whatever its case', () => {
    const modern = ['en', 'es', 'pt', 'pt-BR', 'zh-Hans', 'zh-Hant'];
    const cases: [string, string | undefined][] = [
      ['ES', 'es'],
      ['eS', 'es'],
      ['es-419', 'es'],
      ['es_ES', 'es'],
      ['pt-BR', 'pt-BR'],
      ['PT-br', 'pt-BR'],
      ['pt_BR', 'pt-BR'],
      ['pt', 'pt'],
      ['pt-PT', 'pt'],
      ['zh-hans', 'zh-Hans'],
      ['zh-hant', 'zh-Hant'],
      ['zh', 'zh-Hans'],
      ['zh-CN', 'zh-Hans'],
      ['zh-TW', 'zh-Hant'],
      ['zh-Hant-HK', 'zh-Hant'],
      ['en-US', 'en'],
      ['EN-gb', 'en'],
      ['de', undefined],
      ['tlh', undefined],
    ];
    for (const [tag, code] of cases) expect(match(tag, modern), tag).toBe(code);
  });

  it('understands the codes older LibreTranslate versions use (zt, pb) and regional or deprecated spellings', () => {
    const older = ['en', 'zh', 'zt', 'pt', 'pb', 'he', 'nb'];
    const cases: [string, string | undefined][] = [
      ['zh-Hans', 'zh'],
      ['zh-CN', 'zh'],
      ['zh-Hant', 'zt'],
      ['zh-TW', 'zt'],
      ['pt-BR', 'pb'],
      ['pt-PT', 'pt'],
      ['iw', 'he'],
      ['no', 'nb'],
      ['NB-no', 'nb'],
    ];
    for (const [tag, code] of cases) expect(match(tag, older), tag).toBe(code);
    // Only a region's or script's own variety stands in for it: no Simplified for Traditional.
    expect(match('zh-TW', ['en', 'zh'])).toBeUndefined();
    expect(match('pt-PT', ['en', 'pt-BR'])).toBeUndefined();
    // A tag without a region takes any region of its language.
    expect(match('pt', ['en', 'pt-BR'])).toBe('pt-BR');
  });

  it('chooses `from` among the languages translated from, and `to` among that language\'s targets', () => {
    const languages: Language[] = [
      { code: 'en', name: 'English', targets: ['es', 'pt-BR'] },
      { code: 'es', name: 'Spanish', targets: ['en'] },
      { code: 'pt-BR', name: 'Portuguese (Brazil)', targets: ['en'] },
    ];
    expect(chooseLanguages(languages, { to: 'PT', from: 'EN-us' })).toEqual({ to: 'pt-BR', from: 'en' });
    expect(chooseLanguages(languages, { to: 'es', from: 'Auto' })).toEqual({ to: 'es', from: null });
    expect(chooseLanguages(languages, { to: 'ES', from: null })).toEqual({ to: 'es', from: null });
    expect(chooseLanguages(languages, { to: 'en', from: 'fr' })).toEqual({ refused: { argument: 'from', given: 'fr', offered: ['en', 'es', 'pt-BR'] } });
    expect(chooseLanguages(languages, { to: 'ES', from: 'pt' })).toEqual({ refused: { argument: 'to', given: 'ES', offered: ['en'] } });
    // Without the service's list, the likely spelling: LibreTranslate's own case, no variants.
    expect(chooseLanguages(undefined, { to: 'PT_br', from: 'ZH-hant-tw-x-private' })).toEqual({ to: 'pt-BR', from: 'zh-Hant-TW' });
    expect(chooseLanguages(offering('en', 'es'), { to: 'ES' })).toEqual({ to: 'es', from: null });
  });
});
