import { gatewayRequestOf } from '../request/gateway-request.ts';
import { NO_PREFERENCE } from './accept-language.ts';
import type { FailureReports } from './failure-reports.ts';
import { languageChain, negotiateLanguage, type Negotiated } from './language-negotiation.ts';
import { operationLanguageOf } from './in-context.ts';
import type { LanguageList } from './language-list.ts';
import { createLanguageResolution, type LanguageResolution } from './language-resolution.ts';
import { chooseLanguages, isAutomatic, matchLanguage, parseLanguageTag, sameLanguage, targetsOf, type LanguageTag } from './language-tags.ts';
import type { TranslationContext } from './translation-client.ts';

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
   */
  decide(
    context: TranslationContext,
    args: { to?: LanguageArgument; from?: string | null },
    curated?: readonly string[],
    source?: string | null,
  ): Promise<LanguageDecision | null>;
  /**
   * What decide() answers, when that can be told now with no promise (so that a page whose
   * translations are all in memory is answered without one): a single `to` served curated or as the
   * original, or one the language list held now resolves. Undefined when only decide() can tell (a
   * list or none, the list still to fetch, a language refused: decide() reports the refusal once).
   */
  decideAtHand(context: TranslationContext, args: { to?: LanguageArgument; from?: string | null }, curated?: readonly string[], source?: string | null): LanguageDecision | undefined;
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

  /** A decision for what negotiation chose; `negotiated`: chosen by the reader's header (Vary). */
  const decisionOf = async (context: TranslationContext, chosen: Negotiated, from: string | null | undefined, negotiated: boolean): Promise<LanguageDecision | null> => {
    if (chosen.kind === 'original') return { serve: 'original', language: chosen.language, negotiated, fallback: false };
    if (chosen.kind === 'curated') return { serve: 'curated', language: chosen.language, negotiated };
    const languages = await resolveLanguages(context, { to: chosen.language, from });
    return languages && { serve: 'machine', ...languages, negotiated };
  };

  /** One explicit `to:`: its curated translation, else the original when it is in that language, else the service's. */
  const decideOne = async (context: TranslationContext, to: string, from: string | null | undefined, curatedLanguages: readonly string[], original: string | undefined): Promise<LanguageDecision | null> => {
    const served = curatedOrOriginal(to, curatedLanguages, original);
    if (served) return served;
    const languages = await resolveLanguages(context, { to, from });
    return languages && { serve: 'machine', ...languages, negotiated: false };
  };

  const decide: LanguageChoiceOfRequests['decide'] = async (context, args, curatedLanguages = [], knownSource = null) => {
    const fromTag = fromTagOf(args.from);
    const original = fromTag?.canonical ?? knownSource ?? undefined;
    const wanted = wantedLanguages(args.to);
    if (wanted.length === 1) return decideOne(context, wanted[0], args.from, curatedLanguages, original);
    const offered = () => offeredTargets(list, context, fromTag);
    const candidates = { curated: curatedLanguages, source: original, offered };
    if (wanted.length > 1) {
      // Left to right, as the header's languages: the first a curated translation, the original or the service serves.
      const chosen = await negotiateLanguage(wanted, [], candidates);
      return chosen ? decisionOf(context, chosen, args.from, false) : refuseList(context, wanted, args.from, offered);
    }
    // The operation's @inContext, before the header: its language when it can be served, else the header's as without it.
    const operationLanguage = operationLanguageOf(context)?.language;
    if (operationLanguage) {
      const chosen = await negotiateLanguage([operationLanguage], [], candidates);
      if (chosen) return decisionOf(context, chosen, args.from, false);
    }
    const reader = gatewayRequestOf(context)?.readerLanguages ?? NO_PREFERENCE;
    const negotiated = await negotiateLanguage(languageChain(reader, defaultLanguages), reader.refused, candidates);
    if (!negotiated) return { serve: 'original', language: original ?? null, negotiated: true, fallback: true };
    return decisionOf(context, negotiated, args.from, true);
  };

  /** The service's translation each `to` and `from` resolve to against a list held (null: refused), worked out once per list rather than for every link of a page. */
  const machineDecisions = new WeakMap<object, Map<string, LanguageDecision | null>>();
  const machineDecisionAtHand = (to: string, from: string | null | undefined): LanguageDecision | undefined => {
    const held = list.atHand();
    if (!held) return undefined;
    let byArgs = machineDecisions.get(held);
    // Bounded: the arguments are the clients'; a list seldom sees more than a few languages.
    if (!byArgs || byArgs.size >= 256) machineDecisions.set(held, (byArgs = new Map()));
    const key = from == null ? to : `${to}\u0000${from}`;
    let decision = byArgs.get(key);
    if (decision === undefined) {
      const choice = chooseLanguages(held.languages, { to, from });
      decision = 'refused' in choice ? null : { serve: 'machine', ...choice, negotiated: false };
      byArgs.set(key, decision);
    }
    return decision ?? undefined;
  };

  const decideAtHand: LanguageChoiceOfRequests['decideAtHand'] = (_context, args, curatedLanguages = [], knownSource = null) => {
    const wanted = wantedLanguages(args.to);
    if (wanted.length !== 1) return undefined;
    const [to] = wanted;
    return curatedOrOriginal(to, curatedLanguages, fromTagOf(args.from)?.canonical ?? knownSource ?? undefined) ?? machineDecisionAtHand(to, args.from);
  };

  return { resolveLanguages, decide, decideAtHand };
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

/** The service's target languages for a text in `from` (all of them when it is detected), as codes; none when the list cannot be had. */
async function offeredTargets(list: LanguageList, context: TranslationContext, fromTag: Readonly<LanguageTag> | undefined): Promise<readonly string[] | undefined> {
  const offered = await list.forMatching(context);
  if (!offered) return undefined;
  const source = fromTag ? offered.find((language) => language.code === matchLanguage(fromTag, offered.map(({ code }) => code))) : undefined;
  return targetsOf(offered, source);
}
