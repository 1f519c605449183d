import type { BatchFailure } from './batch/batch-types.ts';
import type { FailureReports } from './failure-reports.ts';
import type { LanguageList } from './language-list.ts';
import { chooseLanguages, type LanguageChoice } from './language-tags.ts';
import type { TranslationContext } from './translation-client.ts';
import { unsupported, unsupportedAny } from './unsupported-language.ts';

/** How old the list may be before a language missing from it is looked for in a fresh one. */
const LIST_RECHECK_MS = 60_000;

/** The service's own codes for a `to` and a `from` (null: detected). */
export type ResolvedLanguages = { to: string; from: string | null };

export interface LanguageResolution {
  /**
   * The service's own codes for a request's `to` and `from` (checked with languageTagProblem; `from`
   * null or `auto` is automatic detection). A language it does not offer is refused with no call: thrown once per request and
   * arguments, null for the other fields that asked.
   */
  resolveLanguages(context: TranslationContext, args: { to: string; from?: string | null }): Promise<ResolvedLanguages | null>;
  /** A `to:` list none of whose languages can be served: one error per request and arguments, as one such `to:`. */
  refuseList(context: TranslationContext, wanted: readonly string[], from: string | null | undefined, offered: () => Promise<readonly string[] | undefined>): Promise<null>;
}

/** What the service offers, matched against what a field asks, each answer (or refusal) once per request and arguments. */
export function createLanguageResolution({ list, reports }: { list: LanguageList; reports: FailureReports }): LanguageResolution {
  const chooseFor = async (context: TranslationContext, args: { to: string; from?: string | null }): Promise<LanguageChoice> => {
    const choice = chooseLanguages(await list.forMatching(context), args);
    // A language added since the list was fetched is served within a minute, not an hour.
    if (!('refused' in choice) || !list.olderThan(LIST_RECHECK_MS)) return choice;
    return chooseLanguages(await list.get(context, LIST_RECHECK_MS).catch(() => undefined), args);
  };
  const resolutions = oncePerRequest<ResolvedLanguages | BatchFailure>();
  const refusedLists = oncePerRequest<BatchFailure>();
  return {
    resolveLanguages: async (context, args) => {
      const resolved = await resolutions(context, JSON.stringify([args.to, args.from ?? null]), () =>
        chooseFor(context, args).then((choice) => ('refused' in choice ? { error: unsupported(choice.refused.argument, choice.refused.given, choice.refused.offered) } : choice)),
      );
      return 'error' in resolved ? reports.reportOnce(context, resolved) : resolved;
    },
    refuseList: async (context, wanted, from, offered) => {
      const failure = await refusedLists(context, JSON.stringify([wanted, from ?? null]), () => offered().then((codes) => ({ error: unsupportedAny('to', wanted, codes ?? []) })));
      return reports.reportOnce(context, failure);
    },
  };
}

/** `make`'s promise, made once per request (its context) and key: the other fields of the request that ask share it. */
function oncePerRequest<T>(): (context: object, key: string, make: () => Promise<T>) => Promise<T> {
  const byRequest = new WeakMap<object, Map<string, Promise<T>>>();
  return (context, key, make) => {
    let byKey = byRequest.get(context);
    if (!byKey) byRequest.set(context, (byKey = new Map()));
    let made = byKey.get(key);
    if (!made) byKey.set(key, (made = make()));
    return made;
  };
}
