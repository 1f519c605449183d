import { MAX_TAG_LENGTH, readLanguageTag, type LanguageTag } from '../../shared/language-tag.ts';
import type { Language } from './translation-client.ts';
import { memoized } from '../../shared/memoized.ts';

export type { LanguageTag };

/**
 * Language tags as people type them, BCP 47 in any case and with `_` for `-` (`ES`, `pt_br`,
 * `zh-hant`), matched to the codes the translation service offers (its GET /languages). Services
 * spell the same languages their own ways: LibreTranslate has offered `pt` with `pb` or `pt-BR`, and
 * `zh` with `zt` or `zh-Hans`/`zh-Hant`; the code that reaches the service is always one it listed.
 */

/**
 * Tags read lately, by the value as given. Every link of a page asks for the same one or two tags
 * (twenty reads of `es` for a page of twenty); reading one costs a split, four regular expressions
 * and an object. A pure function's memo: bounded, emptied when full.
 */
const readTags = new Map<string, Readonly<LanguageTag> | undefined>();
const MAX_READ_TAGS = 1000;

/** The tag in `value`, or undefined when it is not shaped like one. */
export function parseLanguageTag(value: string): Readonly<LanguageTag> | undefined {
  // Before the memo: a long value would only fill it.
  if (value.length > MAX_TAG_LENGTH) return undefined;
  if (readTags.has(value)) return readTags.get(value);
  const tag = readLanguageTag(value);
  if (readTags.size >= MAX_READ_TAGS) readTags.clear();
  readTags.set(value, tag && Object.freeze(tag));
  return tag;
}

/** `from: "auto"` (any case) asks the service to detect the language, as omitting `from` does. */
export function isAutomatic(value: string): boolean {
  return value.toLowerCase() === 'auto';
}

/**
 * Why `value` cannot be a language argument, in words for the client; undefined when it can.
 * The value is quoted cut short: a refused argument may be long.
 */
export function languageTagProblem(argument: string, value: string): string | undefined {
  if (argument === 'from' && isAutomatic(value)) return undefined;
  if (parseLanguageTag(value)) return undefined;
  const shown = JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  const auto = isAutomatic(value) ? ' ("auto", automatic detection, is for `from` only)' : '';
  return `Argument "${argument}" must be a language tag such as "es", "pt-BR" or "zh-Hant" (BCP 47, in any case); got ${shown}${auto}.`;
}

/**
 * Codes of the same language written another way: deprecated ISO 639 codes and macrolanguages
 * people use for their main member (`no` for Norwegian Bokmål), as BCP 47's registry maps them.
 */
const LANGUAGE_ALIASES: Record<string, string> = { iw: 'he', in: 'id', ji: 'yi', jw: 'jv', mo: 'ro', no: 'nb', fil: 'tl', cmn: 'zh' };
/** Whole codes LibreTranslate once used instead of a tag with a script or region. */
const CODE_ALIASES: Record<string, string> = { zt: 'zh-Hant', pb: 'pt-BR' };

/** What a tag means for matching: aliases resolved, and Chinese's script implied by its region (`zh-TW` is `zh-Hant`). */
function meaningOf(tag: LanguageTag): LanguageTag {
  const aliased = CODE_ALIASES[tag.canonical.toLowerCase()];
  const base = aliased ? parseLanguageTag(aliased)! : tag;
  const language = LANGUAGE_ALIASES[base.language] ?? base.language;
  const script = base.script ?? (language === 'zh' ? (['TW', 'HK', 'MO'].includes(base.region ?? '') ? 'Hant' : 'Hans') : undefined);
  return { ...base, language, ...(script ? { script } : {}) };
}

/**
 * The offered code that best serves `tag`: the same code in any case first; else one of the same
 * language whose script and region do not contradict the tag's, preferring the same region, then
 * none (`pt-BR` → `pt`, `es-419` → `es`, `zh-CN` → `zh` or `zh-Hans`), then another when the tag
 * named none (`pt` → `pt-BR`). Undefined when no offered code is that language.
 */
export function matchLanguage(tag: LanguageTag, offered: readonly string[]): string | undefined {
  const exact = offered.find((code) => code.replace(/_/g, '-').toLowerCase() === tag.canonical.toLowerCase());
  if (exact) return exact;
  const wanted = meaningOf(tag);
  let best: { code: string; rank: number } | undefined;
  for (const code of offered) {
    const parsed = parseLanguageTag(code);
    if (!parsed) continue;
    const have = meaningOf(parsed);
    if (have.language !== wanted.language) continue;
    if (have.script && wanted.script && have.script !== wanted.script) continue;
    if (have.region && wanted.region && have.region !== wanted.region) continue;
    const regionRank = have.region === wanted.region ? 2 : have.region ? 0 : 1;
    const rank = regionRank * 2 + (have.script === wanted.script ? 1 : 0);
    if (!best || rank > best.rank) best = { code, rank };
  }
  return best?.code;
}

/** Whether a text in `language` serves a reader who wants `wanted`, matched as `to:` is (`en-US` takes `en`). */
export function sameLanguage(language: string | null | undefined, wanted: string): boolean {
  // A language with a NUL in it is no tag, and serves nobody; without one, the pair splits at its first NUL.
  return Boolean(language) && !language!.includes('\u0000') && sameLanguagePair(`${language}\u0000${wanted}`);
}

/** Asked for every link of a page with the same few pairs: matched once per pair rather than parsed again. */
const sameLanguagePair = memoized((pair: string): boolean => {
  const at = pair.indexOf('\u0000');
  const language = pair.slice(0, at);
  const tag = parseLanguageTag(pair.slice(at + 1));
  return Boolean(tag && matchLanguage(tag, [language]));
});

/** The spelling to send when the service's list is not to be had: the tag without variants, as LibreTranslate writes its codes. */
export function likelyServiceCode(tag: LanguageTag): string {
  return [tag.language, tag.script, tag.region].filter(Boolean).join('-');
}

/** The codes chosen for one request's `to` and `from` (null: automatic detection). */
export type LanguageChoice =
  | { to: string; from: string | null }
  /** Nothing offered serves the argument: `offered` is what the service offers in its place. */
  | { refused: { argument: 'to' | 'from'; given: string; offered: readonly string[] } };

/**
 * The service's codes for `to` and `from` (both already checked with languageTagProblem), among
 * `languages`: `from` among the languages it translates from, `to` among the targets of that
 * language (of any language when `from` is automatic). Without a list, the likely spellings.
 */
export function chooseLanguages(languages: readonly Language[] | undefined, args: { to: string; from?: string | null }): LanguageChoice {
  const toTag = parseLanguageTag(args.to)!;
  const fromTag = args.from == null || isAutomatic(args.from) ? undefined : parseLanguageTag(args.from)!;
  if (!languages) return { to: likelyServiceCode(toTag), from: fromTag ? likelyServiceCode(fromTag) : null };
  let source: Language | undefined;
  if (fromTag) {
    const code = matchLanguage(
      fromTag,
      languages.map((language) => language.code),
    );
    source = languages.find((language) => language.code === code);
    if (!source) return { refused: { argument: 'from', given: args.from!, offered: languages.map((language) => language.code) } };
  }
  const targets = targetsOf(languages, source);
  const to = matchLanguage(toTag, targets);
  if (!to) return { refused: { argument: 'to', given: args.to, offered: targets } };
  return { to, from: source?.code ?? null };
}

/** What a text may be translated into: the targets of its language, or of any language when it is to be detected. */
export function targetsOf(languages: readonly Language[], source: Language | undefined): readonly string[] {
  if (source) return source.targets;
  // Asked for every translation whose source is detected, so worked out once per list fetched.
  let targets = anyLanguageTargets.get(languages);
  if (!targets) {
    targets = [...new Set(languages.flatMap((language) => [language.code, ...language.targets]))];
    anyLanguageTargets.set(languages, targets);
  }
  return targets;
}

const anyLanguageTargets = new WeakMap<readonly Language[], string[]>();
