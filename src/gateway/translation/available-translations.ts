import { matchLanguage, parseLanguageTag, sameLanguage, targetsOf } from './language-tags.ts';
import type { MadeFor } from './made-translations.ts';
import { UNDETERMINED } from './provenance.ts';
import type { TranslationContext } from './translation-client.ts';
import type { TranslationRuntime } from './translation-runtime.ts';

/** How a language of a problem can be had (the `TranslationAvailability` GraphQL enum). */
export type Availability = 'ORIGINAL' | 'CURATED' | 'CACHED' | 'ON_REQUEST';

/** One language of a problem's menu (the `ProblemTranslationAvailability` GraphQL type). */
export interface AvailableTranslation {
  language: string;
  availability: Availability;
  kind: 'ORIGINAL' | 'CURATED' | 'MACHINE';
  madeAt: string | null;
  stale: boolean;
  partial: boolean;
  prewarmed: boolean;
}

const ORDER: readonly Availability[] = ['ORIGINAL', 'CURATED', 'CACHED', 'ON_REQUEST'];
const ALL: ReadonlySet<Availability> = new Set(ORDER);

const iso = (epochMs: number | null) => (epochMs === null ? null : new Date(epochMs).toISOString());

/**
 * The languages `problem` can be read in, each as `translation(to: <language>)` would serve it now:
 * an operator's curated translation first, then the original in its own language, then a machine
 * translation the cache holds, then one the service would make on request; each language once,
 * listed original first, then curated, cached and on request, each by code. What is asked of the stores costs no translation call: the
 * curated set and the languages learned are in memory, the made translations one shared read per
 * page (made-translations.ts), and the service's languages the list the gateway holds (fetched once
 * an hour for the whole gateway, and only when `ON_REQUEST` is wanted). Without that list, the
 * languages served with no call are listed alone. `only` keeps the entries of those kinds.
 */
export async function availableTranslations(
  runtime: Pick<TranslationRuntime, 'curated' | 'sources' | 'made' | 'offered' | 'prewarmLanguages'>,
  context: TranslationContext,
  problem: MadeFor,
  only: ReadonlySet<Availability> = ALL,
): Promise<AvailableTranslation[]> {
  const wants = (availability: Availability) => only.has(availability);
  const curated = runtime.curated?.servable(problem.id, problem.statement) ?? [];
  const curatedLanguages = curated.map(({ entry }) => entry.language);
  const [made, offered] = await Promise.all([
    // Asked even when CACHED is not wanted: a cached language is never listed as ON_REQUEST.
    runtime.made.lookup(problem),
    wants('ON_REQUEST') ? runtime.offered(context) : undefined,
  ]);
  // Declared or learned here, else as a replica's service detected it when it translated the problem.
  const source = runtime.sources.of(problem.statement, problem.id) ?? made.find((entry) => entry.sourceLanguage)?.sourceLanguage ?? null;
  // What `translation(to: language)` would serve instead of a machine translation: a curated one, or the original.
  const servedOtherwise = (language: string) => {
    const tag = parseLanguageTag(language);
    return (tag !== undefined && matchLanguage(tag, curatedLanguages) !== undefined) || sameLanguage(source, language);
  };
  const entries: AvailableTranslation[] = [];
  const listed = new Set<string>();
  const add = (entry: Omit<AvailableTranslation, 'prewarmed' | 'stale' | 'partial'> & Partial<AvailableTranslation>) => {
    if (listed.has(entry.language)) return;
    listed.add(entry.language);
    if (wants(entry.availability)) entries.push({ stale: false, partial: false, prewarmed: false, ...entry });
  };
  for (const { entry, stale } of curated) add({ language: entry.language, availability: 'CURATED', kind: 'CURATED', madeAt: iso(entry.madeAt), stale });
  if (!source || !curatedLanguages.some((language) => sameLanguage(language, source))) {
    add({ language: source ?? UNDETERMINED, availability: 'ORIGINAL', kind: 'ORIGINAL', madeAt: null });
  }
  for (const entry of made) {
    if (!servedOtherwise(entry.language)) add({ language: entry.language, availability: 'CACHED', kind: 'MACHINE', madeAt: iso(entry.madeAt), partial: entry.partial });
  }
  if (offered) {
    const from = source ? offered.find(({ code }) => sameLanguage(code, source)) : undefined;
    for (const language of targetsOf(offered, from)) {
      if (!servedOtherwise(language)) add({ language, availability: 'ON_REQUEST', kind: 'MACHINE', madeAt: null });
    }
  }
  markPrewarmed(entries, runtime.prewarmLanguages);
  return entries.sort((a, b) => ORDER.indexOf(a.availability) - ORDER.indexOf(b.availability) || (a.language < b.language ? -1 : a.language > b.language ? 1 : 0));
}

/** Machine languages that TRANSLATION_PREWARM names, matched as a `to:` argument is among those listed. */
function markPrewarmed(entries: AvailableTranslation[], prewarmLanguages: readonly string[]): void {
  if (prewarmLanguages.length === 0) return;
  const machine = entries.filter((entry) => entry.kind === 'MACHINE');
  const codes = machine.map((entry) => entry.language);
  const prewarmed = new Set<string>();
  for (const listed of prewarmLanguages) {
    const tag = parseLanguageTag(listed);
    const code = tag && matchLanguage(tag, codes);
    if (code) prewarmed.add(code);
  }
  for (const entry of machine) entry.prewarmed = prewarmed.has(entry.language);
}
