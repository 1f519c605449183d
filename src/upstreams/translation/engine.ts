import { normalizeKey, type Dictionary, type Entry } from './dictionary.ts';
import { MINOR_WORDS, pickForm, type AdjectiveDeclension, type Agreement, type Grammar } from './grammar.ts';
import type { Forms } from './glossary/types.ts';

/**
 * Glossary translation of one text: tokens → longest glossary matches → noun phrases (agreement,
 * adjective order, English noun compounds) → words in the target language with the source's
 * capitalisation. Everything that is not a word (spaces, line breaks, punctuation, numbers, HTML
 * entities) is copied unchanged, and so are words the glossary does not know.
 */

/** `letter`: a lone capital letter such as "A", capitalised or part of an all-caps run. */
type Casing = 'lower' | 'capital' | 'upper' | 'title' | 'letter';

interface Unit {
  source: string;
  entry?: Entry;
  casing: Casing;
  /** Separator after the unit in the source: ' ' or '' (after a split elision) links it to the next. */
  sepAfter: string;
  /** A noun that also is a verb ("output", "count"), read as the verb here. */
  asVerb?: boolean;
  verbForm?: 'imperative' | 'infinitive' | 'third' | 'to';
}

interface Piece {
  unit?: Unit;
  /** Inserted by the grammar (the "de" of "casos de prueba"). */
  inserted?: Forms;
  agreement?: Agreement;
  declension?: AdjectiveDeclension;
  /** An adjective standing for its noun ("the minimum"). */
  asNoun?: boolean;
  /** An adjective before the article, opening a clause ("Given a tree"). */
  leading?: boolean;
  casing: Casing | 'title-first';
  sepAfter: string;
  text?: string;
}

const WORD = /[\p{L}\p{M}\p{N}_]+(?:['’][\p{L}\p{M}\p{N}_]+)*/gu;
const WORD_OR_ENTITY = /&(?:#\d+|#x[0-9a-f]+|[a-z][a-z0-9]*);|[\p{L}\p{M}\p{N}_]+(?:['’][\p{L}\p{M}\p{N}_]+)*/giu;
const HAS_LETTER = /\p{L}/u;
const APOSTROPHE = /['’]/;
/** Separators that keep words in one phrase; anything else (commas, two spaces, a line break) ends it. */
const PHRASE_JOINERS = new Set([' ', '-', '']);
const NOMINAL = new Set(['det', 'adj', 'num', 'noun']);

/** English words after which a verb is an infinitive ("can find", "need to print", "do not print"). */
const INFINITIVE_AFTER = new Set([
  'to', 'can', 'cannot', "can't", 'could', 'should', 'must', 'may', 'might', 'will', 'would', 'shall',
  'do not', "don't", 'you must', 'let', 'please',
]);
/** English words after which a verb is in the third person ("does not exceed"). */
const THIRD_PERSON_AFTER = new Set(['does not', "doesn't", 'does']);
/** English words after which a verb takes the to-infinitive (German "ist es, zu finden"). */
const TO_INFINITIVE_AFTER = new Set(['to', 'is to', 'are to', 'your task is to', 'in order to']);
/** What may precede the first word of a text, and of any later sentence. */
const TEXT_START = /^[\s"'“‘(\[¿¡*#>-]*$/;
const SENTENCE_START = /([.!?]["'”’)\]]*\s|\n)[\s"'“‘(\[¿¡*#>-]*$/;
const OBJECT_PRONOUNS = new Set(['it', 'them', 'this', 'these', 'all', 'both', 'each', 'every', 'any', 'some', 'your', 'its', 'their']);

/** Splits text into words and the separators around them: `seps[i]` precedes `words[i]`, one extra at the end. */
function tokenize(text: string, html: boolean): { words: string[]; seps: string[] } {
  const words: string[] = [];
  const seps: string[] = [];
  let last = 0;
  for (const match of text.matchAll(html ? WORD_OR_ENTITY : WORD)) {
    // Entities and bare numbers stay inside the separator.
    if (match[0].startsWith('&') || !HAS_LETTER.test(match[0])) continue;
    seps.push(text.slice(last, match.index));
    words.push(match[0]);
    last = match.index + match[0].length;
  }
  seps.push(text.slice(last));
  return { words, seps };
}

/** "l'arbre" → "l'" + "arbre" when the glossary knows the elided article but not the whole token. */
function splitElisions(words: string[], seps: string[], dictionary: Dictionary): void {
  for (let i = 0; i < words.length; i++) {
    const at = words[i].search(APOSTROPHE);
    if (at < 0) continue;
    const whole = normalizeKey(words[i]);
    if (dictionary.entries.has(whole) || dictionary.phraseStarts.has(whole)) continue;
    const prefix = words[i].slice(0, at + 1);
    if (!dictionary.entries.has(normalizeKey(prefix))) continue;
    words.splice(i, 1, prefix, words[i].slice(at + 1));
    seps.splice(i + 1, 0, '');
  }
}

const isCapitalized = (word: string) => word[0] !== word[0].toLowerCase();
const isUpper = (word: string) => word === word.toUpperCase() && word !== word.toLowerCase();

function casingOf(words: string[]): Casing {
  if (words.length === 1 && words[0].match(/\p{L}/gu)!.length === 1 && isCapitalized(words[0])) return 'letter';
  if (words.every(isUpper)) return 'upper';
  if (!isCapitalized(words[0])) return 'lower';
  const title =
    words.filter(isCapitalized).length > 1 && words.every((word) => isCapitalized(word) || MINOR_WORDS.has(word.toLowerCase()));
  return title ? 'title' : 'capital';
}

/** Longest-match of glossary keys over words joined by spaces or hyphens. */
function matchUnits(words: string[], seps: string[], dictionary: Dictionary): Unit[] {
  const units: Unit[] = [];
  for (let i = 0; i < words.length; ) {
    let length = 1;
    let entry: Entry | undefined;
    for (let candidate = Math.min(dictionary.maxWords, words.length - i); candidate >= 1 && !entry; candidate--) {
      let key = normalizeKey(words[i]);
      let joined = true;
      for (let j = 1; j < candidate && joined; j++) {
        joined = PHRASE_JOINERS.has(seps[i + j]);
        key += seps[i + j] + normalizeKey(words[i + j]);
      }
      if (!joined) continue;
      entry = dictionary.entries.get(key);
      if (entry) length = candidate;
    }
    let source = words[i];
    for (let j = 1; j < length; j++) source += seps[i + j] + words[i + j];
    let casing = casingOf(words.slice(i, i + length));
    // German capitalises every noun: only a sentence's first word says anything about case.
    if (dictionary.source === 'de' && casing === 'capital' && entry?.kind === 'noun' && !(i === 0 ? TEXT_START : SENTENCE_START).test(seps[i])) {
      casing = 'lower';
    }
    units.push({ source, entry, casing, sepAfter: seps[i + length] });
    i += length;
  }
  return units;
}

const kindOf = (unit: Unit | undefined) => (unit?.asVerb ? 'verb' : unit?.entry?.kind);
const nounOf = (entry: Entry | undefined) => (entry?.kind === 'noun' ? entry : entry?.kind === 'adj' ? entry.noun : undefined);
/** An adjective that followed its noun in the source (Romance → English). */
const followsNoun = (unit: Unit | undefined) => unit?.entry?.kind === 'adj' && unit.entry.sourcePost;

/** English source only: noun or verb ("Output the answer" / "the output"), and the verb's form. */
function resolveVerbs(units: Unit[]): void {
  const linked = (i: number) => i >= 0 && i < units.length - 1 && (units[i].sepAfter === ' ' || units[i].sepAfter === '');
  units.forEach((unit, i) => {
    const previous = linked(i - 1) ? units[i - 1] : undefined;
    const next = linked(i) ? units[i + 1] : undefined;
    const previousKey = previous?.entry?.key ?? '';
    const entry = unit.entry;
    if (entry?.kind === 'noun' && entry.verb) {
      if (previous && NOMINAL.has(kindOf(previous)!)) return;
      const verbAfter = INFINITIVE_AFTER.has(previousKey) || THIRD_PERSON_AFTER.has(previousKey) || previousKey.endsWith(' to');
      const objectNext =
        next && (!next.entry || next.entry.kind === 'det' || next.entry.kind === 'num' || OBJECT_PRONOUNS.has(next.entry.key) || /^(the|a|an) /.test(next.entry.key));
      if (!verbAfter && !objectNext) return;
      unit.asVerb = true;
    } else if (entry?.kind !== 'verb') return;
    unit.verbForm = TO_INFINITIVE_AFTER.has(previousKey)
      ? 'to'
      : INFINITIVE_AFTER.has(previousKey) || previousKey.endsWith(' to')
        ? 'infinitive'
        : THIRD_PERSON_AFTER.has(previousKey)
          ? 'third'
          : 'imperative';
  });
}

/** Groups noun phrases and puts their words in target order, with agreement and casing decided. */
function arrange(units: Unit[], dictionary: Dictionary): Piece[] {
  const pieces: Piece[] = [];
  for (let i = 0; i < units.length; ) {
    if (!NOMINAL.has(kindOf(units[i])!)) {
      pieces.push(single(units[i]));
      i++;
      continue;
    }
    const phrase = nounPhraseAt(units, i, dictionary.source === 'en');
    // A lone "a" that leads nowhere is a name ("the array a is sorted"), not an article.
    if (phrase.head === undefined && phrase.end === i && units[i].entry?.kind === 'det' && units[i].source.length === 1) {
      const next = linked(units, i) ? units[i + 1] : undefined;
      if (!next || next.entry) {
        pieces.push({ unit: { ...units[i], entry: undefined }, casing: 'lower', sepAfter: units[i].sepAfter });
        i++;
        continue;
      }
    }
    pieces.push(...phrasePieces(units, phrase, dictionary.grammar));
    i = phrase.end + 1;
  }
  return pieces;
}

/** A noun phrase of the source: its first and last units, and where its head, compound modifier and post-nominal adjectives stand. */
interface NounPhrase {
  start: number;
  end: number;
  head: number | undefined;
  /** The first noun of an English compound ("test" of "test case"). */
  modifier: number | undefined;
  /** Adjectives the source puts after the noun. */
  post: number[];
}

/** Whether unit `i` runs on into the next, with a space or nothing between them. */
const linked = (units: Unit[], i: number) => i < units.length - 1 && (units[i].sepAfter === ' ' || units[i].sepAfter === '');

/** A word outside any noun phrase, as it comes. */
const single = (unit: Unit): Piece => ({ unit, casing: unit.entry ? (unit.casing === 'letter' ? 'capital' : unit.casing) : 'lower', sepAfter: unit.sepAfter });

/** The noun phrase that starts at unit `start` (a nominal one). */
function nounPhraseAt(units: Unit[], start: number, englishSource: boolean): NounPhrase {
  // A prepositional determiner ("of the") starts a new phrase, and so does any determiner after a
  // word that can be a noun: "the minimum | of the array".
  const continues = (k: number) => {
    const next = units[k + 1]?.entry;
    return linked(units, k) && NOMINAL.has(kindOf(units[k + 1])!) && !(next?.kind === 'det' && (next.prepositional || nounOf(units[k].entry)));
  };
  let k = start;
  while (kindOf(units[k]) !== 'noun' && continues(k)) k++;
  let head: number | undefined = kindOf(units[k]) === 'noun' || nounOf(units[k].entry) ? k : undefined;
  let modifier: number | undefined;
  // English "test case", "edge weights": the second noun is the head.
  if (head !== undefined && englishSource && linked(units, k) && kindOf(units[k + 1]) === 'noun' && !(linked(units, k + 1) && kindOf(units[k + 2]) === 'noun')) {
    modifier = head;
    head = ++k;
  }
  const post: number[] = [];
  while (head !== undefined && linked(units, k) && followsNoun(units[k + 1])) post.push(++k);
  return { start, end: k, head, modifier, post };
}

/**
 * The target order of a phrase's units (`compound`: the grammar's joining word): what precedes the
 * head as it came, but adjectives the target puts after the noun, which follow it; the source's
 * post-nominal adjectives before the head; a compound turned round where the grammar says so.
 */
function targetOrder(units: Unit[], { start, head, modifier, post, end }: NounPhrase, grammar: Grammar): { order: Array<number | 'compound'>; lastDeterminer: number } {
  const firstOfHead = modifier ?? head ?? end + 1;
  const order: Array<number | 'compound'> = [];
  const after: number[] = [];
  let lastDeterminer = -1;
  for (let m = start; m < firstOfHead; m++) if (units[m].entry!.kind === 'det') lastDeterminer = m;
  for (let m = start; m < firstOfHead; m++) {
    const entry = units[m].entry!;
    if (head !== undefined && entry.kind === 'adj' && entry.placement === 'after' && m > lastDeterminer) after.unshift(m);
    else order.push(m);
  }
  order.push(...[...post].reverse());
  if (modifier !== undefined && head !== undefined) order.push(...(grammar.compound ? [head, 'compound' as const, modifier] : [modifier, head]));
  else if (head !== undefined) order.push(head);
  order.push(...after);
  return { order, lastDeterminer };
}

/**
 * The casing of each word of a phrase in its target place: all capitals kept, a Title Case phrase
 * kept title-cased, else each word its own case, except that a capital opening the phrase stays in front.
 */
function phraseCasing(units: Unit[], { start, end }: NounPhrase): (m: number | 'compound', position: number) => Piece['casing'] {
  const members = units.slice(start, end + 1);
  const casings = members.map((unit) => unit.casing);
  const upper = casings.every((c) => c === 'upper' || c === 'letter') && casings.includes('upper');
  const content = members.filter((unit) => unit.entry?.kind !== 'det');
  const title = !upper && members.length > 1 && content.length > 0 && content.every((unit) => unit.casing !== 'lower' && unit.casing !== 'upper');
  const opensWithCapital = casings[0] === 'capital' || casings[0] === 'letter';
  const own = (m: number | 'compound', position: number): Piece['casing'] => {
    const casing = m === 'compound' ? 'lower' : units[m].casing === 'letter' ? 'capital' : units[m].casing;
    if (!opensWithCapital || casing === 'upper' || casing === 'title') return casing;
    return position === 0 ? 'capital' : m === start ? 'lower' : casing;
  };
  return (m, position) => (upper ? 'upper' : title ? (position === 0 && casings[0] !== 'lower' ? 'title-first' : 'title') : own(m, position));
}

/** A noun phrase's pieces in target order, each word with its agreement, declension and casing. */
function phrasePieces(units: Unit[], phrase: NounPhrase, grammar: Grammar): Piece[] {
  const { head, end } = phrase;
  const { order, lastDeterminer } = targetOrder(units, phrase, grammar);
  const casingAt = phraseCasing(units, phrase);
  const agreement = head === undefined ? undefined : nounOf(units[head].entry)!.agreement;
  const hasDeterminer = order.some((m) => m !== 'compound' && units[m].entry?.kind === 'det');
  let declension: AdjectiveDeclension = hasDeterminer ? 'none' : head === undefined ? 'none' : 'strong';
  const pieces: Piece[] = [];
  order.forEach((m, position) => {
    const casing = casingAt(m, position);
    const sepAfter = position === order.length - 1 ? units[end].sepAfter : ' ';
    if (m === 'compound') {
      pieces.push({ inserted: grammar.compound, casing, sepAfter });
      return;
    }
    const entry = units[m].entry!;
    if (entry.kind === 'det') declension = entry.decl ?? 'weak';
    pieces.push({
      unit: units[m],
      agreement: agreement ?? (entry.kind === 'adj' && declension !== 'none' ? { gender: 'm', plural: false } : undefined),
      declension,
      asNoun: m === head && entry.kind === 'adj',
      leading: entry.kind === 'adj' && m < lastDeterminer,
      casing,
      sepAfter,
    });
  });
  return pieces;
}

function render(piece: Piece, nextText: string | undefined, dictionary: Dictionary): string {
  const phonetic = nextText === undefined ? '' : dictionary.grammar.phonetic(nextText);
  if (piece.inserted) return pickForm(piece.inserted, undefined, phonetic)!;
  const unit = piece.unit!;
  const entry = unit.entry;
  if (!entry) return unit.source;
  if (entry.kind === 'noun' && unit.asVerb && entry.verb) return entry.verb[unit.verbForm ?? 'imperative'];
  switch (entry.kind) {
    case 'verb':
      return entry.verb[unit.verbForm ?? 'imperative'];
    case 'word':
      return pickForm(entry.forms, undefined, phonetic)!;
    case 'det':
    case 'num':
      return pickForm(entry.forms, piece.agreement, phonetic)!;
    case 'noun':
      return entry.text;
    case 'adj': {
      if (piece.asNoun && entry.noun) return entry.noun.text;
      if (piece.leading && entry.leading) return entry.leading;
      if (!piece.agreement) return entry.forms?.['*'] ?? entry.base;
      const explicit = entry.forms && pickForm(entry.forms, piece.agreement, phonetic, false);
      return explicit ?? dictionary.grammar.inflect(entry.base, piece.agreement, piece.declension ?? 'strong');
    }
  }
}

const capitalize = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/** Title Case for one word: small words stay small, and "d'entrée" becomes "d'Entrée". */
function titleWord(word: string, first: boolean): string {
  const at = word.search(APOSTROPHE);
  if (at > 0 && at < 6 && at < word.length - 1) {
    const prefix = word.slice(0, at + 1);
    const rest = word.slice(at + 1);
    return (first ? capitalize(prefix) : prefix) + (MINOR_WORDS.has(rest.toLowerCase()) ? rest : capitalize(rest));
  }
  return first || !MINOR_WORDS.has(word.toLowerCase()) ? capitalize(word) : word;
}

function applyCasing(text: string, casing: Piece['casing']): string {
  switch (casing) {
    case 'upper':
      return text.toUpperCase();
    case 'capital':
    case 'letter':
      return capitalize(text);
    case 'title':
    case 'title-first':
      return text
        .split(' ')
        .map((word, index) => titleWord(word, index === 0 && casing === 'title-first'))
        .join(' ');
    default:
      return text;
  }
}

/** Translates plain text (or one HTML text node, with `html` keeping entities intact). */
export function translateSegment(text: string, dictionary: Dictionary, html = false): string {
  const { words, seps } = tokenize(text, html);
  if (words.length === 0) return text;
  splitElisions(words, seps, dictionary);
  const units = matchUnits(words, seps, dictionary);
  if (dictionary.source === 'en') resolveVerbs(units);
  const pieces = arrange(units, dictionary);

  for (let p = pieces.length - 1; p >= 0; p--) {
    const piece = pieces[p];
    const next = p + 1 < pieces.length && (piece.sepAfter === ' ' || piece.sepAfter === '') ? pieces[p + 1].text : undefined;
    piece.text = piece.unit && !piece.unit.entry ? piece.unit.source : applyCasing(render(piece, next, dictionary), piece.casing);
  }

  let out = seps[0];
  pieces.forEach((piece, p) => {
    const last = p === pieces.length - 1;
    let sep = piece.sepAfter;
    // Elision joins words ("l'arbre"); undoing one ("the tree") needs the space back.
    if (!last && (sep === ' ' || sep === '') && APOSTROPHE.test(piece.text!.slice(-1))) sep = '';
    else if (!last && sep === '') sep = ' ';
    out += piece.text + sep;
  });
  return out;
}
