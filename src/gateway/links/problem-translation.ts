import { ErrorCode, createGraphQLErrorWithCode } from '../errors.ts';
import { decodeHtmlText, escapeHtmlText } from '../statement/html-placeholders.ts';
import { curatedProvenance, machineProvenance, originalProvenance, UNDETERMINED, type Provenance } from '../translation/provenance.ts';
import { checkLanguageArguments, checkProblemTextLength, notingAnswer, noteDecision } from '../translation/resolvers.ts';
import type { LanguageArgument } from '../translation/language-choice.ts';
import { sameLanguage } from '../translation/language-tags.ts';
import type { TranslationContext } from '../translation/translation-client.ts';
import { translationRuntimeOf, type LanguageDecision } from '../translation/translation-runtime.ts';
import type { AssembledFrom, AssembledTranslation } from '../translation/assembled-translation-cache.ts';
import type { ServableCurated } from '../translation/curated/curated-translations.ts';

interface ProblemTexts {
  id?: string;
  title?: string;
  statement?: string;
}

/** The slice of Mesh's context this link may need: the in-context SDK of the source "Problems". */
interface ProblemsContext {
  Problems?: { Query?: { problem?: (options: { root: unknown; args: { id: string }; context: unknown; selectionSet: string }) => Promise<unknown> } };
}

/**
 * The title and statement the link translates. Mesh fetches them with the problem (`selectionSet`),
 * except when the link sits in a deferred fragment (`... @defer`): Mesh then delegates the fragment
 * without them, and they are fetched here by the problem's id.
 */
export async function textsOf(problem: ProblemTexts, context: ProblemsContext): Promise<{ title: string; statement: string }> {
  const texts = textsFetched(problem);
  if (texts) return texts;
  // Fetched with the problem, but not texts (null, say): the service's answer, not the request, is at fault.
  if (problem.title !== undefined || problem.statement !== undefined) throw noTexts();
  const fetchProblem = context.Problems?.Query?.problem;
  if (typeof problem.id !== 'string' || !fetchProblem) {
    throw createGraphQLErrorWithCode('The problem\'s title and statement could not be fetched for its translation; select the problem\'s `id` outside a deferred fragment.', ErrorCode.BadUserInput);
  }
  const fetched = (await fetchProblem({ root: {}, args: { id: problem.id }, context, selectionSet: '{ title statement }' })) as ProblemTexts | Error | null;
  if (fetched instanceof Error) throw fetched;
  if (typeof fetched?.title !== 'string' || typeof fetched.statement !== 'string') throw noTexts();
  return { title: fetched.title, statement: fetched.statement };
}

/** The title and statement as fetched with the problem; undefined when they are still to be fetched (textsOf). */
function textsFetched(problem: ProblemTexts): { title: string; statement: string } | undefined {
  if (typeof problem.title === 'string' && typeof problem.statement === 'string') return { title: problem.title, statement: problem.statement };
  return undefined;
}

function noTexts() {
  return createGraphQLErrorWithCode('The problems service returned no title or statement for this problem.', ErrorCode.UpstreamError, { service: 'problems' });
}

interface ProblemTranslation {
  language: string;
  title: string;
  statement: string;
  provenance: Provenance;
  /** Where the statement's prose stayed in the source language (offsets in `statement`), for statementHtml. */
  sourceRanges?: [number, number][];
}

/**
 * `lang` of a machine translation's HTML: the language served, with the source language as a BCP 47
 * private-use subtag (`es-x-mtfrom-en`), the convention Google's Cloud Translation attribution
 * guidance gives for marking machine output: the primary tag stays `es` for browsers and screen
 * readers, and the suffix says it was machine-translated and from what. Plain `es` when the source is not known.
 */
function htmlLanguageOf({ language, provenance }: ProblemTranslation): string {
  if (provenance.kind !== 'MACHINE' || !provenance.sourceLanguage) return language;
  return `${language}-x-mtfrom-${provenance.sourceLanguage}`;
}

/** What Problem.translations lists of a machine translation. */
function madeOf({ sourceLanguage, madeAt, partial }: Provenance) {
  return { sourceLanguage, madeAt: madeAt === null ? null : Date.parse(madeAt), partial };
}

type TranslationArgs = { to?: LanguageArgument; from?: string | null };
type LinkContext = TranslationContext & ProblemsContext;

const NONE_CURATED: readonly ServableCurated[] = Object.freeze([]);
const NO_LANGUAGES: readonly string[] = Object.freeze([]);

/**
 * The link's value for a problem whose title and statement are known: at once, with no promise,
 * when the language is decided without waiting (by `to:`, `@inContext` or the reader's languages)
 * and what it serves is in memory (curated, the original, or an assembled translation: a warm
 * page); else when the decision or the translation comes. The arguments are checked once, here
 * (as decideLanguage checks them for the other translation fields).
 */
function translationOf(parent: ProblemTexts, problem: { title: string; statement: string }, args: TranslationArgs, context: LinkContext): ProblemTranslation | null | Promise<ProblemTranslation | null> {
  const runtime = translationRuntimeOf(context);
  const curated = runtime.curated?.servable(parent.id, problem.statement) ?? NONE_CURATED;
  // The statement's language when known (declared, or detected before): a reader wanting it gets the original, no call.
  const known = runtime.sources.of(problem.statement, parent.id);
  const languages = curated.length === 0 ? NO_LANGUAGES : curated.map(({ entry }) => entry.language);
  checkLanguageArguments(args);
  const decided = runtime.decide(context, args, languages, known);
  const served = (decision: LanguageDecision | null) => (decision ? translationServed({ parent, problem, context, curated, known }, decision) : null);
  return decided instanceof Promise ? decided.then(served) : served(decided);
}

/** What a decided link serves from: the problem, its curated translations and its statement's known language. */
interface ServedFrom {
  parent: ProblemTexts;
  problem: { title: string; statement: string };
  context: LinkContext;
  curated: readonly ServableCurated[];
  known: string | null;
}

/** The link's value once its language is decided: at once unless a machine translation has to be made. */
function translationServed({ parent, problem, context, curated, known }: ServedFrom, decision: LanguageDecision): ProblemTranslation | Promise<ProblemTranslation | null> {
  const runtime = translationRuntimeOf(context);
  // Noted before any call: an answer the header chose says so even when its translation fails.
  noteDecision(context, decision);
  if (decision.serve === 'curated') {
    const chosen = curated.find(({ entry }) => entry.language === decision.language)!;
    runtime.curated?.served(chosen);
    return { language: decision.language, title: chosen.entry.title, statement: chosen.entry.statement, provenance: curatedProvenance(chosen.entry, chosen.stale) };
  }
  if (decision.serve === 'original') {
    return { language: decision.language ?? UNDETERMINED, ...problem, provenance: originalProvenance(decision.language) };
  }
  // What a whole translation is reused by: the problem, the languages as resolved, the texts as they are now.
  const source = { id: parent.id, to: decision.to, from: decision.from, title: problem.title, statement: problem.statement };
  const reused = runtime.assembled.find(source);
  if (!reused) return machineTranslation(source, problem, context);
  // Learned again only when forgotten (a detection kept as long as the translation made with it): no digest of the statement otherwise.
  if (known !== reused.provenance.sourceLanguage) runtime.sources.learn(problem.statement, reused.provenance.sourceLanguage);
  return keptTranslation(reused, decision.to);
}

/**
 * The link's value for each kept translation, made once and frozen: the same value every time the
 * translation is served, which the shaper writes as the text it wrote the first time
 * (answer-writer.ts). Held as long as the translation is.
 */
const servedKept = new WeakMap<AssembledTranslation, ProblemTranslation>();

function keptTranslation(reused: AssembledTranslation, language: string): ProblemTranslation {
  let served = servedKept.get(reused);
  if (served?.language !== language) servedKept.set(reused, (served = Object.freeze({ language, ...reused })));
  return served;
}

/** The problem's texts translated by the service (batched with the rest of the request), assembled and kept. */
async function machineTranslation(source: AssembledFrom, problem: { title: string; statement: string }, context: LinkContext): Promise<ProblemTranslation | null> {
  const runtime = translationRuntimeOf(context);
  const languages = { to: source.to, from: source.from };
  // Off the event loop; a statement over the limits fails the field here, before any call.
  const segments = await runtime.statements.segment(problem.statement);
  // The service refuses an empty text; an empty title has nothing to translate anyway.
  const titles = problem.title.trim() ? [escapeHtmlText(problem.title)] : [];
  const texts = [...titles, ...segments];
  checkProblemTextLength(texts, runtime.maxTextLength);
  const outcomes = await runtime.translate(context, texts, { ...languages, format: 'html' });
  const results = runtime.settle(context, outcomes);
  if (!results) return null;
  const sourceLanguage = machineProvenance(languages.from, results).sourceLanguage;
  runtime.sources.learn(problem.statement, sourceLanguage);
  // Nothing translated: the original was already in the language asked for (detected only now),
  // or the service gave every text back as it was. Served as the original, and so marked.
  if (sameLanguage(sourceLanguage, languages.to) || results.every((result, index) => result.text === texts[index])) {
    return { language: sourceLanguage ?? languages.to, ...problem, provenance: originalProvenance(sourceLanguage) };
  }
  const title = titles.length > 0 ? decodeHtmlText(results[0].text) : problem.title;
  const translated = results.slice(titles.length).map((result) => result.text);
  const reassembled = await runtime.statements.reassemble(problem.statement, translated);
  // The title is put back whole; its characters count with the statement's prose.
  const titleCharacters = titles.length > 0 ? problem.title.length : 0;
  const assembled = {
    title,
    statement: reassembled.statement,
    provenance: machineProvenance(languages.from, results, {
      characters: titleCharacters + reassembled.characters,
      translatedCharacters: titleCharacters + reassembled.translatedCharacters,
    }),
    sourceRanges: reassembled.sourceRanges,
  };
  runtime.assembled.keep(source, assembled);
  // For Problem.translations: this problem is now cached in this language.
  runtime.made.note(source, { language: languages.to, ...madeOf(assembled.provenance) });
  return { language: languages.to, ...assembled };
}

/**
 * `Problem.translation(to, from)`: the problem's title and statement in the reader's language (`to`,
 * else negotiated from the request's Accept-Language: TranslationRuntime.decide). An operator's
 * curated translation comes first and costs no call; the original is served, marked so, when no
 * language the reader wants can be. `selectionSet` makes the gateway fetch `title` and `statement` from the problems service even when
 * the client did not ask for them. Only the statement's prose is translated: it goes as HTML segments
 * with math, code and URLs held in placeholders (src/gateway/statement/), and the title goes as HTML
 * too, so that every text of the link is in one batch group. Every problem of a page queues its texts
 * into the request's batch, so a page costs the fewest translation calls (none when cached).
 */
export const resolvers = {
  Problem: {
    translation: {
      selectionSet: /* GraphQL */ `{ id title statement }`,
      // Noting what it answered for `@inContext`'s extensions (in-context.ts).
      resolve: notingAnswer((parent: ProblemTexts, args: TranslationArgs, context: LinkContext): ProblemTranslation | null | Promise<ProblemTranslation | null> => {
        // Fetched with the problem (as on every page): no promise to wait on for them.
        const texts = textsFetched(parent);
        return texts ? translationOf(parent, texts, args, context) : textsOf(parent, context).then((fetched) => translationOf(parent, fetched, args, context));
      }),
    },
  },
  ProblemTranslation: {
    // Rendered only when asked for; a translation says its language, and where it kept the source's.
    statementHtml: (translation: ProblemTranslation, _args: unknown, context: TranslationContext) =>
      translationRuntimeOf(context).statements.renderHtml(
        translation.statement,
        translation.provenance.kind === 'ORIGINAL'
          ? undefined
          : { language: htmlLanguageOf(translation), sourceLanguage: translation.provenance.sourceLanguage, sourceRanges: translation.sourceRanges ?? [] },
      ),
  },
};
