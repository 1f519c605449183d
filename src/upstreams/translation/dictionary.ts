import { englishPlural, englishThirdPerson, GRAMMARS, type Agreement, type Grammar } from './grammar.ts';
import type { AdjectiveEntry, Declension, Forms, LanguageGlossary } from './glossary/types.ts';

export interface VerbForms {
  imperative: string;
  infinitive: string;
  third: string;
  /** After "is to", "in order to": German "zu finden"; the infinitive elsewhere. */
  to: string;
}

/** A compiled glossary entry: what one source word or phrase becomes, and how it behaves in a noun phrase. */
export type Entry =
  | { kind: 'word'; key: string; forms: Forms }
  /** `prepositional` ("of the", "del"): starts a noun phrase, never continues one. */
  | { kind: 'det'; key: string; forms: Forms; decl?: Declension; prepositional: boolean }
  | { kind: 'num'; key: string; forms: Forms }
  | { kind: 'noun'; key: string; text: string; agreement: Agreement; verb?: VerbForms }
  | {
      kind: 'adj';
      key: string;
      base: string;
      forms?: Forms;
      /** Where the adjective goes in the target language. */
      placement: 'before' | 'after';
      /** The adjective follows its noun in the source text (Romance → English). */
      sourcePost: boolean;
      /** Form before an article ("Étant donné un arbre"); agreeing base form otherwise. */
      leading?: string;
      /** Read as a noun when no noun follows ("the minimum"). */
      noun?: Extract<Entry, { kind: 'noun' }>;
    }
  | { kind: 'verb'; key: string; verb: VerbForms };

/** Everything needed to translate from one language into another, in one direction. */
export interface Dictionary {
  source: string;
  target: string;
  grammar: Grammar;
  /** Normalised source word or phrase → entry. */
  entries: Map<string, Entry>;
  /** First words of multi-word keys, so "n'est" in "n'est pas" is not split as an elision. */
  phraseStarts: Set<string>;
  /** Longest key, in words. */
  maxWords: number;
}

/** Lower case, composed accents, straight apostrophes: how keys and looked-up text are compared. */
export function normalizeKey(text: string): string {
  return text.normalize('NFC').toLowerCase().replace(/’/g, "'");
}

const ONE_WORD = /[\p{L}\p{M}\p{N}_]+(?:['’][\p{L}\p{M}\p{N}_]+)*'?/gu;

function finish(source: string, target: string, entries: Map<string, Entry>): Dictionary {
  const phraseStarts = new Set<string>();
  let maxWords = 1;
  for (const key of entries.keys()) {
    const words: string[] = key.match(ONE_WORD) ?? [];
    maxWords = Math.max(maxWords, words.length);
    if (words.length > 1) phraseStarts.add(words[0]);
  }
  return { source, target, grammar: GRAMMARS[target], entries, phraseStarts, maxWords };
}

const asForms = (value: string | Forms): Forms => (typeof value === 'string' ? { '*': value } : value);
const adjective = (entry: AdjectiveEntry) => (typeof entry === 'string' ? { base: entry } : entry);

/** English → `glossary.code`. Explicit keys win over derived ones (plurals, "finds", "to find"). */
export function compileForward(glossary: LanguageGlossary): Dictionary {
  const grammar = GRAMMARS[glossary.code];
  const entries = new Map<string, Entry>();
  const add = (key: string, entry: Entry) => {
    const normalized = normalizeKey(key);
    if (!entries.has(normalized)) entries.set(normalized, entry);
  };
  const verbOf = (key: string): VerbForms | undefined => {
    const verb = glossary.verbs[key];
    return verb && { imperative: verb[0], infinitive: verb[1], third: verb[2], to: verb[3] ?? grammar.toInfinitive(verb[1]) };
  };

  for (const [key, forms] of Object.entries(glossary.determiners)) {
    const { decl, ...rest } = forms;
    add(key, { kind: 'det', key, forms: rest, decl, prepositional: key.includes(' ') });
  }
  for (const [key, [singular, gender]] of Object.entries(glossary.nouns)) {
    const noun = { kind: 'noun', key, text: singular, agreement: { gender, plural: false }, verb: verbOf(key) } as const;
    const adj = glossary.adjectives[key];
    // "minimum", "integer": adjective before a noun, noun otherwise.
    if (adj !== undefined) add(key, { kind: 'adj', key, ...adjective(adj), placement: placementOf(adj, grammar), sourcePost: false, noun });
    else add(key, noun);
  }
  for (const [key, entry] of Object.entries(glossary.adjectives)) {
    add(key, { kind: 'adj', key, ...adjective(entry), placement: placementOf(entry, grammar), sourcePost: false });
  }
  for (const [key, value] of Object.entries(glossary.numerals)) add(key, { kind: 'num', key, forms: asForms(value) });
  for (const key of Object.keys(glossary.verbs)) add(key, { kind: 'verb', key, verb: verbOf(key)! });
  for (const [key, value] of Object.entries(glossary.words)) add(key, { kind: 'word', key, forms: asForms(value) });

  for (const [key, [singular, gender, plural]] of Object.entries(glossary.nouns)) {
    const text = plural ?? grammar.plural(singular, gender);
    add(englishPlural(key), { kind: 'noun', key: englishPlural(key), text, agreement: { gender, plural: true } });
  }
  for (const [key, [, infinitive, third, to]] of Object.entries(glossary.verbs)) {
    add(englishThirdPerson(key), { kind: 'word', key: englishThirdPerson(key), forms: { '*': third } });
    add(`to ${key}`, { kind: 'word', key: `to ${key}`, forms: { '*': to ?? grammar.toInfinitive(infinitive) } });
  }
  return finish('en', glossary.code, entries);
}

function placementOf(entry: AdjectiveEntry, grammar: Grammar): 'before' | 'after' {
  return typeof entry !== 'string' && entry.before ? 'before' : grammar.adjectivePlacement;
}

/** English adjectives that keep a capital whatever the source language does ("letras inglesas"). */
const PROPER_ADJECTIVES: Record<string, string> = { english: 'English', latin: 'Latin' };

/** Every agreement a noun can have, to enumerate the inflected forms of an adjective. */
const AGREEMENTS: Agreement[] = (['m', 'f', 'n'] as const).flatMap((gender) => [
  { gender, plural: false },
  { gender, plural: true },
]);
const DECLENSIONS = ['none', 'weak', 'mixed', 'strong', 'oblique'] as const;

/**
 * `glossary.code` → English, derived from the same glossary: every form the glossary can produce
 * (plurals, inflected adjectives, verb forms, determiner forms) maps back to its English key.
 */
export function compileReverse(glossary: LanguageGlossary): Dictionary {
  const grammar = GRAMMARS[glossary.code];
  const entries = new Map<string, Entry>();
  const add = (form: string | undefined, entry: Entry) => {
    if (!form) return;
    const key = normalizeKey(form);
    const existing = entries.get(key);
    if (!existing) entries.set(key, entry);
    // Spanish "mínimo" is both the noun and the adjective: keep both readings.
    else if (existing.kind === 'noun' && entry.kind === 'adj' && !entry.noun) entries.set(key, { ...entry, noun: existing });
  };

  for (const [key, forms] of Object.entries(glossary.determiners)) {
    const english: Forms = key === 'a' || key === 'an' ? { '*': 'a', '*+v': 'an' } : { '*': key };
    for (const [slot, form] of Object.entries(forms)) {
      if (slot !== 'decl') add(form, { kind: 'det', key: form, forms: english, prepositional: key.includes(' ') });
    }
  }
  for (const [key, [singular, gender, plural]] of Object.entries(glossary.nouns)) {
    add(singular, { kind: 'noun', key: singular, text: key, agreement: { gender, plural: false } });
    const pluralForm = plural ?? grammar.plural(singular, gender);
    add(pluralForm, { kind: 'noun', key: pluralForm, text: englishPlural(key), agreement: { gender, plural: true } });
  }
  for (const [key, entry] of Object.entries(glossary.adjectives)) {
    const { base, forms, leading } = adjective(entry);
    const sourcePost = placementOf(entry, grammar) === 'after';
    const text = PROPER_ADJECTIVES[key] ?? key;
    const english = { kind: 'adj', base: text, forms: { '*': text }, placement: 'before', sourcePost } as const;
    add(base, { ...english, key: base });
    for (const form of [...Object.values(forms ?? {}), leading]) add(form, { ...english, key: form ?? '' });
    for (const agreement of AGREEMENTS) {
      for (const declension of DECLENSIONS) {
        const form = grammar.inflect(base, agreement, declension);
        add(form, { ...english, key: form });
      }
    }
  }
  for (const [key, value] of Object.entries(glossary.numerals)) {
    for (const form of Object.values(asForms(value))) add(form, { kind: 'num', key: form, forms: { '*': key } });
  }
  for (const [key, [imperative, infinitive, third, to]] of Object.entries(glossary.verbs)) {
    const word = (english: string) => ({ kind: 'word', key, forms: { '*': english } }) as const;
    add(imperative, word(key));
    add(infinitive, word(key));
    add(third, word(englishThirdPerson(key)));
    add(to ?? grammar.toInfinitive(infinitive), word(`to ${key}`));
  }
  for (const [key, value] of Object.entries(glossary.words)) {
    for (const form of Object.values(asForms(value))) add(form, { kind: 'word', key: form, forms: { '*': key } });
  }
  return finish(glossary.code, 'en', entries);
}
