import { ErrorCode, createBadUserInputError, createGraphQLErrorWithCode } from '../errors.ts';
import { isAutomatic, languageTagProblem, parseLanguageTag, sameLanguage } from './language-tags.ts';
import { languageListProblem } from './argument-refusal.ts';
import { wantedLanguages, type LanguageArgument } from './language-choice.ts';
import { noteAnswerKind, type AnswerKind } from './in-context.ts';
import { noteLanguageServed } from '../request/languages-served.ts';
import { machineProvenance, originalProvenance, UNDETERMINED, type Provenance } from './provenance.ts';
import { characters } from './text-parts.ts';
import type { TextFormat, TranslatedText, TranslationContext } from './translation-client.ts';
import { translationRuntimeOf, type LanguageDecision } from './translation-runtime.ts';

/** Resolvers of the public `translation` namespace (translation/namespace.graphql). */

const FORMATS: Record<string, TextFormat> = { TEXT: 'text', HTML: 'html' };

interface TranslateArgs {
  /** One language or a list, most wanted first; omitted: the operation's @inContext, else the request's Accept-Language (TranslationRuntime.decide). */
  to?: LanguageArgument;
  from?: string | null;
  format?: keyof typeof FORMATS | null;
}

/**
 * What a field with these language arguments serves (TranslationRuntime.decide), or null when the
 * request already carries the refusal. The arguments' shape is checked before execution
 * (guards/translation-arguments.ts); checked again here so that a resolver never sends what that
 * check would refuse, however it is reached.
 */
export async function decideLanguage(
  context: TranslationContext,
  args: { to?: LanguageArgument; from?: string | null },
  curated?: readonly string[],
  source?: string | null,
): Promise<LanguageDecision | null> {
  checkLanguageArguments(args);
  return translationRuntimeOf(context).decide(context, args, curated, source);
}

/** Refuses language arguments of the wrong shape (thrown, as a field's error), before any decision. */
export function checkLanguageArguments(args: { to?: LanguageArgument; from?: string | null }): void {
  const problem = languageListProblem(args.to);
  if (problem) throw createBadUserInputError(problem, 'to');
  const fromProblem = args.from == null ? undefined : languageTagProblem('from', args.from);
  if (fromProblem) throw createBadUserInputError(fromProblem, 'from');
}

/**
 * A translation field's resolver that notes what it answered (its kind and language) for the
 * operation's `extensions.context` under `@inContext` (in-context.ts).
 */
export function notingAnswer<Parent, Args, Answer extends { language: string; provenance: { kind: AnswerKind } }>(
  resolve: (parent: Parent, args: Args, context: TranslationContext, info?: unknown) => Answer | null | Promise<Answer | null>,
): (parent: Parent, args: Args, context: TranslationContext, info?: unknown) => Answer | null | Promise<Answer | null> {
  return (parent, args, context, info) => {
    const noted = (answer: Answer | null) => {
      if (answer) noteAnswerKind(context, answer.provenance.kind, answer.language);
      return answer;
    };
    const answer = resolve(parent, args, context, info);
    // An answer at hand is noted and given back as it is: no promise for it.
    return answer instanceof Promise ? answer.then(noted) : noted(answer);
  };
}

/** Notes on the request what the field answered in (Content-Language, Vary: languages-served.ts). */
export function noteDecision(context: unknown, decision: LanguageDecision): void {
  const language = decision.serve === 'machine' ? decision.to : decision.serve === 'curated' ? decision.language : decision.fallback ? undefined : (decision.language ?? undefined);
  noteLanguageServed(context, decision.negotiated, language);
}

/** A problem's own text longer than the service accepts: a property of the problem, not of the request. */
export function checkProblemTextLength(texts: string[], maxLength: number): void {
  // A text has no more characters than UTF-16 units: only a text longer in units needs counting.
  if (texts.every((text) => text.length <= maxLength)) return;
  const longest = texts.reduce((max, text) => Math.max(max, characters(text)), 0);
  if (longest <= maxLength) return;
  throw createGraphQLErrorWithCode(
    `This problem's text is ${longest} characters long; the translation service accepts at most ${maxLength}.`,
    ErrorCode.TextTooLong,
    { service: 'translation', limit: maxLength },
  );
}

/** Nothing to translate or detect: such a text is answered by the gateway, without a call. */
export function isBlank(text: string): boolean {
  return text.trim() === '';
}

/** One `TranslationResult`. */
interface TranslationAnswer extends TranslatedText {
  language: string;
  provenance: Provenance;
}

/**
 * Translates through the request's batch; null (with the batch's error reported once) when it
 * failed. Blank texts come back as they are (marked ORIGINAL), and when every text is blank nothing
 * is asked of the service, not even its languages; so are all texts when no language the reader
 * wants is offered. Without `from`, a text whose language the service detected before (kept per
 * text: source-languages.ts) comes back as it is, with no call, when that is the language chosen;
 * and a text the service gave back unchanged is the original, never MACHINE. The answer's language
 * (Content-Language) is noted once the texts are known: what was translated, or the originals'.
 */
async function translateBatched(context: TranslationContext, texts: string[], args: TranslateArgs): Promise<TranslationAnswer[] | null> {
  const original = (text: string, language: string | null, source: string | null): TranslationAnswer => ({
    text,
    detectedLanguage: null,
    language: language ?? UNDETERMINED,
    provenance: originalProvenance(source),
  });
  const pending = texts.filter((text) => !isBlank(text));
  if (pending.length === 0) {
    const first = wantedLanguages(args.to)[0];
    const language = first === undefined ? null : (parseLanguageTag(first)?.canonical ?? null);
    return texts.map((text) => original(text, language, null));
  }
  const runtime = translationRuntimeOf(context);
  const automatic = args.from == null || isAutomatic(args.from);
  const known = automatic ? pending.map((text) => runtime.sources.detected(text)) : [];
  // One language known for every text: the choice itself may be the original (negotiation included).
  const common = known.length > 0 && known.every((language) => language !== null && language === known[0]) ? known[0] : null;
  const decision = await decideLanguage(context, args, undefined, common);
  if (!decision) return null;
  if (decision.serve !== 'machine') {
    noteDecision(context, decision);
    const language = decision.serve === 'original' ? decision.language : null;
    return texts.map((text) => original(text, language, language));
  }
  const sourceOf = (text: string) => (automatic ? runtime.sources.detected(text) : null);
  const toSend = pending.filter((text) => !sameLanguage(sourceOf(text), decision.to));
  const translated = new Map<string, TranslatedText>();
  if (toSend.length > 0) {
    let results: TranslatedText[] | null = null;
    try {
      results = runtime.settle(context, await runtime.translate(context, toSend, { to: decision.to, from: decision.from, format: FORMATS[args.format ?? 'TEXT'] ?? 'text' }));
    } finally {
      // A field that failed says the language it was to be in: an answer the header chose says so (Vary).
      if (!results) noteDecision(context, decision);
    }
    if (!results) return null;
    toSend.forEach((text, index) => translated.set(text, results[index]));
  }
  const answers = texts.map((text): TranslationAnswer => {
    if (isBlank(text)) return original(text, decision.to, decision.from);
    const result = translated.get(text);
    if (!result) return original(text, sourceOf(text), sourceOf(text));
    const source = decision.from ?? result.detectedLanguage?.code ?? null;
    if (automatic) runtime.sources.learn(text, result.detectedLanguage?.code ?? null);
    // Given back as it was: nothing was translated.
    if (result.text === text) return { ...original(text, source, source), detectedLanguage: result.detectedLanguage };
    return { ...result, language: decision.to, provenance: machineProvenance(decision.from, [result]) };
  });
  for (const answer of answers) noteLanguageServed(context, decision.negotiated, answer.language === UNDETERMINED ? undefined : answer.language);
  return answers;
}

export const resolvers = {
  Query: {
    // The namespace object carries no data; its fields do the work.
    translation: () => ({}),
  },
  TranslationQuery: {
    languages: (_: unknown, __: unknown, context: TranslationContext) => translationRuntimeOf(context).languages(context),
    translate: notingAnswer(async (_: unknown, args: TranslateArgs & { text: string }, context: TranslationContext) =>
      (await translateBatched(context, [args.text], args))?.[0] ?? null),
    translateMany: async (_: unknown, args: TranslateArgs & { texts: string[] }, context: TranslationContext) => {
      const answers = await translateBatched(context, args.texts, args);
      for (const answer of answers ?? []) noteAnswerKind(context, answer.provenance.kind, answer.language);
      return answers;
    },
    // A blank text has no language to find: no candidates, and no call.
    detect: (_: unknown, args: { text: string }, context: TranslationContext) =>
      isBlank(args.text) ? [] : translationRuntimeOf(context).detect(context, args.text),
  },
};
