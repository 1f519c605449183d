import { gatewayRequestOf } from '../request/gateway-request.ts';
import { NO_PREFERENCE } from './accept-language.ts';
import type { FailureReports } from './failure-reports.ts';
import { languageChain, negotiateLanguage, type Negotiated, type NegotiationCandidates } from './language-negotiation.ts';
import { operationLanguageOf } from './in-context.ts';
import type { LanguageList } from './language-list.ts';
import { createLanguageResolution, type LanguageResolution } from './language-resolution.ts';
import { chooseLanguages, isAutomatic, matchLanguage, parseLanguageTag, sameLanguage, targetsOf, type LanguageTag } from './language-tags.ts';
import type { Language, TranslationContext } from './translation-client.ts';
import type { ReaderLanguages } from '../request/reader-languages.ts';

/**
 * What a translation field serves: the service's translation, an operator's (curated), or the
 * original (nothing the reader wants is offered, or the original is in a language they want).
 * `negotiated`: chosen from the reader's languages (no `to:`).
 */
export type LanguageDecision =
  | { serve: 'machine'; to: string; from: string | null; negotiated: boolean }
  | { serve: 'curated'; language: string; negotiated: boolean }
  /** `fallback`: nothing the reader wants can be served; else the original is in a language they want (`from`). */
  | { serve: 'original'; language: string | null; negotiated: boolean; fallback: boolean };

export interface LanguageChoiceOptions {
  list: LanguageList;
  /** TRANSLATION_DEFAULT_LANGUAGES: tried after the reader's own languages, before the original. */
  defaultLanguages: readonly string[];
  reports: FailureReports;
}

export interface LanguageChoiceOfRequests extends Pick<LanguageResolution, 'resolveLanguages'> {
  /**
   * What a field with these arguments serves. An explicit `to` wins: a curated translation in that
   * language (`curated` lists the languages one exists in), else the service's (resolveLanguages); a
   * `to` list is tried left to right as the header's languages are, and when none of it can be
   * served that is the field's error, as for one such `to`. Without `to`, the operation's
   * `@inContext` language (in-context.ts) when it can be served, else the request's
   * `Accept-Language` and then TRANSLATION_DEFAULT_LANGUAGES in turn; when none can be served, the
   * original. The original is served too, with no call, when it is in the language chosen: `from`, else `source` (the statement's language, declared or detected
   * before: source-languages.ts), matched as `to` is (`en-US` takes an `en` original). Null as
   * resolveLanguages.
   *
   * Given at once, with no promise, when it can be told now (the choice is curated or the original,
   * or the service's language list is held): a page whose translations are all in memory is then
   * answered without one. A promise when the list is still to fetch or a language is refused (the
   * refusal is reported once per request, by resolveLanguages).
   */
  decide(
    context: TranslationContext,
    args: { to?: LanguageArgument; from?: string | null },
    curated?: readonly string[],
    source?: string | null,
  ): LanguageDecision | null | Promise<LanguageDecision | null>;
}

/** A `to:` argument as execution gives it: a list, or one tag (a `String` variable, which GraphQL does not wrap). */
export type LanguageArgument = string | readonly string[] | null;

/** The languages a `to:` argument names, most wanted first; none when omitted. */
export function wantedLanguages(to: LanguageArgument | undefined): readonly string[] {
  if (to == null) return [];
  return typeof to === 'string' ? [to] : to;
}

/**
 * Where the reader's language is decided: a field's explicit `to:` first (one language or a list),
 * else the operation's `@inContext`, else the reader's `Accept-Language` and then
 * TRANSLATION_DEFAULT_LANGUAGES (language-negotiation.ts), each matched against what the service and
 * the operators' curated translations offer (language-resolution.ts).
 */
export function createLanguageChoice({ list, defaultLanguages, reports }: LanguageChoiceOptions): LanguageChoiceOfRequests {
  const { resolveLanguages, refuseList } = createLanguageResolution({ list, reports });

  /** The service's translation each `to` and `from` resolve to against a list held (null: refused), worked out once per list rather than for every link of a page. */
  const machineDecisions = new WeakMap<object, Map<string, LanguageDecision | null>>();
  const machineDecisionAtHand = (to: string, from: string | null | undefined, negotiated: boolean): LanguageDecision | undefined => {
    const held = list.atHand();
    if (!held) return undefined;
    let byArgs = machineDecisions.get(held);
    // Bounded: the arguments are the clients'; a list seldom sees more than a few languages.
    if (!byArgs || byArgs.size >= 256) machineDecisions.set(held, (byArgs = new Map()));
    const key = `${negotiated ? '+' : '-'}${to}\u0000${from ?? ''}`;
    let decision = byArgs.get(key);
    if (decision === undefined) {
      const choice = chooseLanguages(held.languages, { to, from });
      decision = 'refused' in choice ? null : { serve: 'machine', ...choice, negotiated };
      byArgs.set(key, decision);
    }
    return decision ?? undefined;
  };

  /** The service's translation into `to`: at once when the list held resolves it, else once the list is had (a refusal is reported there). */
  const machineDecision = (context: TranslationContext, to: string, from: string | null | undefined, negotiated: boolean): LanguageDecision | null | Promise<LanguageDecision | null> =>
    machineDecisionAtHand(to, from, negotiated) ?? resolveLanguages(context, { to, from }).then((languages) => languages && { serve: 'machine', ...languages, negotiated });

  /** A decision for what negotiation chose; `negotiated`: chosen by the reader's header (Vary). */
  const decisionOf = (context: TranslationContext, chosen: Negotiated, from: string | null | undefined, negotiated: boolean): LanguageDecision | null | Promise<LanguageDecision | null> => {
    if (chosen.kind === 'original') return { serve: 'original', language: chosen.language, negotiated, fallback: false };
    if (chosen.kind === 'curated') return { serve: 'curated', language: chosen.language, negotiated };
    return machineDecision(context, chosen.language, from, negotiated);
  };

  /** The reader's languages then the defaults, worked out once per request rather than for every link of a page. */
  const chains = new WeakMap<ReaderLanguages, string[]>();
  const chainOf = (reader: ReaderLanguages): string[] => {
    let chain = chains.get(reader);
    if (!chain) chains.set(reader, (chain = languageChain(reader, defaultLanguages)));
    return chain;
  };

  const decide: LanguageChoiceOfRequests['decide'] = (context, args, curatedLanguages = NONE, knownSource = null) => {
    const fromTag = fromTagOf(args.from);
    const original = fromTag?.canonical ?? knownSource ?? undefined;
    const wanted = wantedLanguages(args.to);
    // One explicit `to:`: its curated translation, else the original when it is in that language, else the service's.
    if (wanted.length === 1) return curatedOrOriginal(wanted[0], curatedLanguages, original) ?? machineDecision(context, wanted[0], args.from, false);
    const candidates: NegotiationCandidates = { curated: curatedLanguages, source: original, offered: () => offeredTargets(list, context, fromTag) };
    if (wanted.length > 1) {
      // Left to right, as the header's languages: the first a curated translation, the original or the service serves.
      return whenKnown(negotiateLanguage(wanted, [], candidates), (chosen) =>
        chosen ? decisionOf(context, chosen, args.from, false) : refuseList(context, wanted, args.from, async () => candidates.offered()),
      );
    }
    const byReader = () => {
      const reader = gatewayRequestOf(context)?.readerLanguages ?? NO_PREFERENCE;
      return whenKnown(negotiateLanguage(chainOf(reader), reader.refused, candidates), (negotiated) =>
        negotiated ? decisionOf(context, negotiated, args.from, true) : { serve: 'original' as const, language: original ?? null, negotiated: true, fallback: true },
      );
    };
    // The operation's @inContext, before the header: its language when it can be served, else the header's as without it.
    const operationLanguage = operationLanguageOf(context)?.language;
    if (!operationLanguage) return byReader();
    return whenKnown(negotiateLanguage([operationLanguage], [], candidates), (chosen) => (chosen ? decisionOf(context, chosen, args.from, false) : byReader()));
  };

  return { resolveLanguages, decide };
}

const NONE: readonly string[] = Object.freeze([]);

/** `next` of a value known now, at once; of a promised one, when it comes. */
function whenKnown<T, R>(value: T | Promise<T>, next: (value: T) => R | Promise<R>): R | Promise<R> {
  return value instanceof Promise ? value.then(next) : next(value);
}

/** `from:` as a tag; undefined when the service is to detect the language. */
function fromTagOf(from: string | null | undefined) {
  return from == null || isAutomatic(from) ? undefined : parseLanguageTag(from)!;
}

/** What one `to:` is served by with no call: an operator's translation in that language, else the original when it is in it. */
function curatedOrOriginal(to: string, curatedLanguages: readonly string[], original: string | undefined): LanguageDecision | undefined {
  const own = curatedLanguages.length > 0 ? matchLanguage(parseLanguageTag(to)!, curatedLanguages) : undefined;
  if (own) return { serve: 'curated', language: own, negotiated: false };
  if (original && sameLanguage(original, to)) return { serve: 'original', language: original, negotiated: false, fallback: false };
  return undefined;
}

/**
 * The service's target languages for a text in `from` (all of them when it is detected), as codes;
 * none when the list cannot be had. At once when the list is held.
 */
function offeredTargets(list: LanguageList, context: TranslationContext, fromTag: Readonly<LanguageTag> | undefined): readonly string[] | undefined | Promise<readonly string[] | undefined> {
  const held = list.atHand();
  if (held) return targetsFor(held.languages, fromTag);
  return list.forMatching(context).then((offered) => targetsFor(offered, fromTag));
}

function targetsFor(offered: readonly Language[] | undefined, fromTag: Readonly<LanguageTag> | undefined): readonly string[] | undefined {
  if (!offered) return undefined;
  const source = fromTag ? offered.find((language) => language.code === matchLanguage(fromTag, offered.map(({ code }) => code))) : undefined;
  return targetsOf(offered, source);
}
