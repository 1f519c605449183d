import type { Declension, FormKey, Forms, Gender, Phonetic } from './glossary/types.ts';

/** Gender and number of the noun a word goes with. */
export interface Agreement {
  gender: Gender;
  plural: boolean;
}

/** `none`: a German adjective used before its determiner ("Gegeben ein Array") keeps its base form. */
export type AdjectiveDeclension = Declension | 'none';

/** The little each target language needs beyond its glossary: word order, plurals, endings, elision. */
export interface Grammar {
  /** Where adjectives go by default; single adjectives may override (French "premier" goes before). */
  adjectivePlacement: 'before' | 'after';
  /** Sound class of a word, for the form of the word before it (l', lo, an). */
  phonetic(word: string): Phonetic;
  /** Regular plural of a noun (its head word); glossaries spell out the irregular ones. */
  plural(noun: string, gender: Gender): string;
  /** Adjective form for a noun's agreement; multi-word adjectives inflect their last word. */
  inflect(base: string, agreement: Agreement, declension: AdjectiveDeclension): string;
  /** English noun-noun compounds ("test cases") become head + this + modifier ("casos de prueba"). */
  compound?: Forms;
  /** "to find" → the language's to-infinitive (German zu finden), when the glossary gives none. */
  toInfinitive(infinitive: string): string;
}

/** Small words that stay lower case inside Title Case. */
export const MINOR_WORDS = new Set(
  (
    'a an the of and or to in on at for by with from as ' +
    'de del la las los el y o en un una con para por al une ' +
    'le les des du et ou à au aux dans sur pour avec par ' +
    'der die das dem den und oder von zu im mit für auf ein eine einem einer eines ' +
    'di da il lo gli i e della dello dei delle degli nel nella per su ' +
    'do dos das no na nos nas em um uma ao os as'
  ).split(' '),
);

/** Picks the form of a word for the noun it goes with and the sound after it; `undefined` agreement: no noun. */
export function pickForm(forms: Forms, agreement: Agreement | undefined, phonetic: Phonetic, fallback = true): string | undefined {
  const keys: FormKey[] =
    agreement === undefined
      ? ['*', 'm']
      : agreement.plural
        ? [`${agreement.gender}p` as FormKey, 'p', '*']
        : [agreement.gender, '*'];
  if (fallback && agreement) keys.push(agreement.gender, 'm');
  for (const key of keys) {
    const value = (phonetic && forms[`${key}${phonetic}`]) || forms[key];
    if (value !== undefined) return value;
  }
  return fallback ? Object.values(forms).find((value): value is string => typeof value === 'string') : undefined;
}

const lastWord = (text: string, change: (word: string) => string): string => {
  const at = text.lastIndexOf(' ') + 1;
  return text.slice(0, at) + change(text.slice(at));
};

const firstWord = (text: string, change: (word: string) => string): string => {
  const at = text.indexOf(' ');
  return at < 0 ? change(text) : change(text.slice(0, at)) + text.slice(at);
};

const UNACCENT: Record<string, string> = { á: 'a', é: 'e', í: 'i', ó: 'o', ú: 'u' };
const hasAccent = (word: string) => /[áéíóúâêôàèìòù]/.test(word);

/** Builds a Romance-language grammar from its feminine and plural rules. */
function romance(options: {
  feminine(word: string): string;
  plural(word: string, gender: Gender): string;
  phonetic?(word: string): Phonetic;
  compound: Forms;
}): Grammar {
  return {
    adjectivePlacement: 'after',
    phonetic: options.phonetic ?? (() => ''),
    plural: (noun, gender) => firstWord(noun, (word) => options.plural(word, gender)),
    inflect: (base, { gender, plural }) =>
      lastWord(base, (word) => {
        const agreeing = gender === 'f' ? options.feminine(word) : word;
        return plural ? options.plural(agreeing, gender) : agreeing;
      }),
    compound: options.compound,
    toInfinitive: (infinitive) => infinitive,
  };
}

const SPANISH_STRESSED_A = new Set(['agua', 'alma', 'arma', 'aula', 'ala', 'hambre', 'hacha', 'ancla', 'arca', 'alga']);

const spanish = romance({
  feminine: (word) => (word.endsWith('o') ? `${word.slice(0, -1)}a` : word.endsWith('ón') ? `${word.slice(0, -2)}ona` : word),
  plural: (word) => {
    if (/[aeiouáéó]$/.test(word)) return `${word}s`;
    if (word.endsWith('z')) return `${word.slice(0, -1)}ces`;
    if (/[áéíóú][ns]$/.test(word)) return `${word.slice(0, -2)}${UNACCENT[word.at(-2)!]}${word.at(-1)}es`;
    if (/[sx]$/.test(word)) return word;
    return `${word}es`;
  },
  // "el área", "un agua": feminine nouns starting with a stressed a take the masculine article.
  phonetic: (word) => (/^h?á/i.test(word) || SPANISH_STRESSED_A.has(word.toLowerCase()) ? '+v' : ''),
  compound: { '*': 'de' },
});

const portuguese = romance({
  feminine: (word) => (word.endsWith('o') ? `${word.slice(0, -1)}a` : word.endsWith('ês') ? `${word.slice(0, -2)}esa` : word),
  plural: (word) => {
    if (word.endsWith('ão')) return `${word.slice(0, -2)}ões`;
    if (word.endsWith('m')) return `${word.slice(0, -1)}ns`;
    if (/[aou]l$/.test(word)) return `${word.slice(0, -1)}is`;
    if (word.endsWith('el')) return `${word.slice(0, -2)}${hasAccent(word) ? 'eis' : 'éis'}`;
    if (word.endsWith('il')) return hasAccent(word) ? `${word.slice(0, -2)}eis` : `${word.slice(0, -1)}s`;
    if (word.endsWith('ês')) return `${word.slice(0, -2)}eses`;
    if (/[rz]$/.test(word)) return `${word}es`;
    if (/[sx]$/.test(word)) return word;
    return `${word}s`;
  },
  compound: { '*': 'de' },
});

const FRENCH_ASPIRATED_H = /^(hauteur|haut|hasard|huit|héros|hors|honte|hache|hiérarchie)/i;

const french = romance({
  feminine: (word) => {
    if (word.endsWith('e')) return word;
    if (word.endsWith('er')) return `${word.slice(0, -2)}ère`;
    if (word.endsWith('if')) return `${word.slice(0, -2)}ive`;
    if (word.endsWith('eux')) return `${word.slice(0, -3)}euse`;
    if (/(el|eil|en|on)$/.test(word)) return `${word}${word.at(-1)}e`;
    if (word.endsWith('c')) return `${word.slice(0, -1)}que`;
    if (word.endsWith('g')) return `${word}ue`;
    return `${word}e`;
  },
  plural: (word) => {
    if (/[sxz]$/.test(word)) return word;
    if (word.endsWith('al')) return `${word.slice(0, -2)}aux`;
    if (/(eau|au|eu)$/.test(word)) return `${word}x`;
    return `${word}s`;
  },
  phonetic: (word) => (/^[aeiouàâäéèêëîïôöùûüœæ]/i.test(word) || (/^h/i.test(word) && !FRENCH_ASPIRATED_H.test(word)) ? '+v' : ''),
  compound: { '*': 'de', '*+v': "d'" },
});

const italian = romance({
  feminine: (word) => (word.endsWith('o') ? `${word.slice(0, -1)}a` : word),
  plural: (word, gender) => {
    if (/[àèéìòùi]$/.test(word) || !/[aeo]$/.test(word)) return word;
    if (gender === 'f' && !word.endsWith('e')) {
      if (word.endsWith('ca')) return `${word.slice(0, -2)}che`;
      if (word.endsWith('ga')) return `${word.slice(0, -2)}ghe`;
      if (/[^aeiou][cg]ia$/.test(word)) return `${word.slice(0, -2)}e`;
      return word.endsWith('a') ? `${word.slice(0, -1)}e` : `${word.slice(0, -1)}i`;
    }
    if (word.endsWith('io')) return word.slice(0, -1);
    if (word.endsWith('ico')) return `${word.slice(0, -3)}ici`;
    if (word.endsWith('co')) return `${word.slice(0, -2)}chi`;
    if (word.endsWith('go')) return `${word.slice(0, -2)}ghi`;
    return `${word.slice(0, -1)}i`;
  },
  phonetic: (word) =>
    /^[aeiouàèéìòùh]/i.test(word) ? '+v' : /^(s[^aeiouàèéìòù]|z|gn|ps|pn|x|y)/i.test(word) ? '+s' : '',
  compound: { '*': 'di' },
});

const GERMAN_ENDINGS: Record<Declension, Record<Gender | 'p', string>> = {
  weak: { m: 'e', f: 'e', n: 'e', p: 'en' },
  mixed: { m: 'er', f: 'e', n: 'es', p: 'en' },
  strong: { m: 'er', f: 'e', n: 'es', p: 'e' },
  oblique: { m: 'en', f: 'en', n: 'en', p: 'en' },
};

const german: Grammar = {
  adjectivePlacement: 'before',
  phonetic: () => '',
  plural: (noun) => noun,
  inflect: (base, { gender, plural }, declension) => {
    if (declension === 'none') return base;
    const ending = GERMAN_ENDINGS[declension][plural ? 'p' : gender];
    return lastWord(base, (word) => (word.endsWith('e') ? word + ending.slice(1) : word + ending));
  },
  toInfinitive: (infinitive) => `zu ${infinitive}`,
};

const IRREGULAR_PLURALS: Record<string, string> = {
  vertex: 'vertices',
  index: 'indices',
  matrix: 'matrices',
  child: 'children',
  leaf: 'leaves',
  half: 'halves',
  person: 'people',
  man: 'men',
  woman: 'women',
  mouse: 'mice',
  axis: 'axes',
  parenthesis: 'parentheses',
  analysis: 'analyses',
  datum: 'data',
  criterion: 'criteria',
  series: 'series',
  money: 'money',
  memory: 'memory',
  complexity: 'complexity',
};

/** English plural of a noun or of the last word of a noun phrase ("test case" → "test cases"). */
export function englishPlural(noun: string): string {
  return lastWord(noun, (word) => {
    if (IRREGULAR_PLURALS[word]) return IRREGULAR_PLURALS[word];
    if (/(s|x|z|ch|sh)$/.test(word)) return `${word}es`;
    if (/[^aeiou]y$/.test(word)) return `${word.slice(0, -1)}ies`;
    return `${word}s`;
  });
}

/** English third person singular: find → finds, go → goes, apply → applies. */
export function englishThirdPerson(verb: string): string {
  if (/(s|x|z|ch|sh|o)$/.test(verb)) return `${verb}es`;
  if (/[^aeiou]y$/.test(verb)) return `${verb.slice(0, -1)}ies`;
  return `${verb}s`;
}

const english: Grammar = {
  adjectivePlacement: 'before',
  // "an array", "a unique", "an hour": the sound, roughly, not the letter.
  phonetic: (word) => (/^(hour|honest|heir)/i.test(word) || (/^[aeiou]/i.test(word) && !/^(one|once|uni|use|usu|eu)/i.test(word)) ? '+v' : ''),
  plural: englishPlural,
  inflect: (base) => base,
  toInfinitive: (infinitive) => `to ${infinitive}`,
};

export const GRAMMARS: Record<string, Grammar> = {
  en: english,
  es: spanish,
  fr: french,
  de: german,
  it: italian,
  pt: portuguese,
};
