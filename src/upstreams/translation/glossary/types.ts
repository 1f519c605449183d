/**
 * Shape of one language's glossary: English words and phrases (lower case) mapped to that language.
 * The engine derives the rest: English plurals and verb forms, plurals and agreement in the target
 * language (grammar.ts), and the reverse direction for translating into English.
 */

export type Gender = 'm' | 'f' | 'n';

/** Agreement slot of a form: gender, `p` for any plural, or `*` when nothing better matches. */
export type FormKey = 'm' | 'f' | 'n' | 'p' | 'mp' | 'fp' | 'np' | '*';

/** What the next word starts with, for elision and article choice: `+v` vowel (l'), `+s` impure s (Italian lo). */
export type Phonetic = '' | '+v' | '+s';

/** Forms of a word chosen by the noun it goes with and the sound that follows, e.g. `{ m: 'le', f: 'la', 'm+v': "l'" }`. */
export type Forms = { [K in `${FormKey}${Phonetic}`]?: string };

/** German adjective endings after this determiner: weak (der), mixed (ein), oblique (dem, des: always -en). */
export type Declension = 'weak' | 'mixed' | 'oblique' | 'strong';

export type Determiner = Forms & { decl?: Declension };

/** `[singular, gender, plural]`; the plural may be left out when the language's regular rule gets it right. */
export type NounEntry = readonly [singular: string, gender: Gender, plural?: string];

/**
 * Base (masculine singular) form, or `{ base, before, forms, leading }` for adjectives that go before the
 * noun in a language that normally puts them after, with irregular forms (`'*'` makes every form the
 * same), or with another word when they open a clause before the article ("Given a tree" → "Étant donné").
 */
export type AdjectiveEntry = string | { base: string; before?: boolean; forms?: Forms; leading?: string };

/** `[imperative, infinitive, third person singular, "to" infinitive]`; the last defaults by language. */
export type VerbEntry = readonly [imperative: string, infinitive: string, third: string, toInfinitive?: string];

export interface LanguageGlossary {
  /** ISO 639-1 code. */
  code: string;
  /** English name, as `GET /languages` reports it. */
  name: string;
  /** Words whose form depends on the noun that follows (articles, demonstratives, "of the"). */
  determiners: Record<string, Determiner>;
  /** English singular → noun; the English plural is derived. */
  nouns: Record<string, NounEntry>;
  adjectives: Record<string, AdjectiveEntry>;
  /** Number words: invariant strings, or forms when they agree (Portuguese dois/duas). */
  numerals: Record<string, string | Forms>;
  /** English base form → verb; "finds" and "to find" are derived. */
  verbs: Record<string, VerbEntry>;
  /** Everything else, words and fixed phrases, taken as they are (or by sound, French de/d'). */
  words: Record<string, string | Forms>;
}
