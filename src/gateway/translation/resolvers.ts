import { ErrorCode, createBadUserInputError, createGraphQLErrorWithCode } from '../errors.ts';
import { languageTagProblem } from './language-tags.ts';
import { characters } from './text-parts.ts';
import type { TextFormat, TranslatedText, TranslationContext } from './translation-client.ts';
import { translationRuntimeOf } from './translation-runtime.ts';

/** Resolvers of the public `translation` namespace (translation/namespace.graphql). */

const FORMATS: Record<string, TextFormat> = { TEXT: 'text', HTML: 'html' };

interface TranslateArgs {
  to: string;
  from?: string | null;
  format?: keyof typeof FORMATS | null;
}

/**
 * The service's codes for `to` and `from`, or null when the request already carries the refusal.
 * The arguments' shape is checked before execution (guards/translation-arguments.ts); checked again here so
 * that a resolver never sends what that check would refuse, however it is reached.
 */
export async function resolveLanguageArguments(context: TranslationContext, args: { to: string; from?: string | null }) {
  const problem = args.to == null ? undefined : languageTagProblem('to', args.to);
  if (problem) throw createBadUserInputError(problem, 'to');
  const fromProblem = args.from == null ? undefined : languageTagProblem('from', args.from);
  if (fromProblem) throw createBadUserInputError(fromProblem, 'from');
  return translationRuntimeOf(context).resolveLanguages(context, args);
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

/**
 * Translates through the request's batch; null (with the batch's error reported once) when it
 * failed. Blank texts come back as they are, and when every text is blank nothing is asked of the
 * service, not even its languages.
 */
async function translateBatched(context: TranslationContext, texts: string[], args: TranslateArgs): Promise<TranslatedText[] | null> {
  const answers: (TranslatedText | undefined)[] = texts.map((text) => (isBlank(text) ? { text, detectedLanguage: null } : undefined));
  const pending = texts.filter((_, index) => !answers[index]);
  if (pending.length === 0) return answers as TranslatedText[];
  const languages = await resolveLanguageArguments(context, args);
  if (!languages) return null;
  const runtime = translationRuntimeOf(context);
  const results = runtime.settle(context, await runtime.translate(context, pending, { ...languages, format: FORMATS[args.format ?? 'TEXT'] ?? 'text' }));
  if (!results) return null;
  let next = 0;
  return answers.map((answer) => answer ?? results[next++]);
}

export const resolvers = {
  Query: {
    // The namespace object carries no data; its fields do the work.
    translation: () => ({}),
  },
  TranslationQuery: {
    languages: (_: unknown, __: unknown, context: TranslationContext) => translationRuntimeOf(context).languages(context),
    translate: async (_: unknown, args: TranslateArgs & { text: string }, context: TranslationContext) =>
      (await translateBatched(context, [args.text], args))?.[0] ?? null,
    translateMany: (_: unknown, args: TranslateArgs & { texts: string[] }, context: TranslationContext) => translateBatched(context, args.texts, args),
    // A blank text has no language to find: no candidates, and no call.
    detect: (_: unknown, args: { text: string }, context: TranslationContext) =>
      isBlank(args.text) ? [] : translationRuntimeOf(context).detect(context, args.text),
  },
};
