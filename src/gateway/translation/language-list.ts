import { listLanguages, type Language, type TranslationContext } from './translation-client.ts';

/** The languages the translation service offers, fetched once per `ttlMs` and shared by every request. */
export interface LanguageList {
  /** The list, fetched again when older than `maxAgeMs`; a failed fetch is not kept. */
  get(context: TranslationContext, maxAgeMs?: number): Promise<Language[]>;
  /**
   * The list to match language arguments against, or undefined without one. Without the list the
   * arguments go as the service most likely spells them, and the call's own outcome stands: a service
   * that is down fails it anyway, and one that lacks GET /languages may still translate. A failed
   * list is not asked again for a while, so an outage costs no extra calls.
   */
  forMatching(context: TranslationContext): Promise<Language[] | undefined>;
  /** Whether a list is held that was fetched at least `ms` ago. */
  olderThan(ms: number): boolean;
  /**
   * What forMatching would give now, when it can be told without waiting: the list fetched and still
   * fresh, or `languages: undefined` while a failed list is not asked again. Undefined when only
   * forMatching can tell (nothing fetched yet, a fetch on its way, a list to fetch again).
   */
  atHand(): { languages: Language[] | undefined } | undefined;
}

/** How long a failed language list is not asked again for argument matching. */
const LIST_RETRY_MS = 30_000;

const NO_LIST = Object.freeze({ languages: undefined });

export function createLanguageList(ttlMs: number): LanguageList {
  let held: { list: Promise<Language[]>; fetchedAt: number; fetched?: { languages: Language[] } } | undefined;
  let failedAt = -Infinity;
  const get = (context: TranslationContext, maxAgeMs = ttlMs): Promise<Language[]> => {
    if (!held || Date.now() - held.fetchedAt >= maxAgeMs) {
      const entry: NonNullable<typeof held> = { list: listLanguages(context), fetchedAt: Date.now() };
      held = entry;
      entry.list.then(
        (languages) => void (entry.fetched = { languages }),
        () => {
          failedAt = Date.now();
          if (held === entry) held = undefined;
        },
      );
    }
    return held.list;
  };
  return {
    get,
    forMatching: (context) => (!held && Date.now() - failedAt < LIST_RETRY_MS ? Promise.resolve(undefined) : get(context).catch(() => undefined)),
    olderThan: (ms) => held !== undefined && Date.now() - held.fetchedAt >= ms,
    atHand() {
      const now = Date.now();
      if (!held) return now - failedAt < LIST_RETRY_MS ? NO_LIST : undefined;
      return now - held.fetchedAt < ttlMs ? held.fetched : undefined;
    },
  };
}
