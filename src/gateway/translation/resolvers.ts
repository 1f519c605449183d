import { ErrorCode, createBadUserInputError, createGraphQLErrorWithCode } from '../errors.ts';
import type { TextFormat, TranslationContext } from './translation-client.ts';
import { translationRuntimeOf } from './translation-runtime.ts';

/** Resolvers of the public `translation` namespace (translation/namespace.graphql). */

const FORMATS: Record<string, TextFormat> = { TEXT: 'text', HTML: 'html' };

interface TranslateArgs {
  to: string;
  from?: string | null;
  format?: keyof typeof FORMATS | null;
}

/** Language codes are short tokens; refusing anything else early gives a clear error at no upstream cost. */
export function checkLanguageArgument(value: string | null | undefined, argumentName: string): void {
  if (value == null) return;
  if (!/^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8})?$/.test(value)) {
    throw createBadUserInputError(`"${argumentName}" must be a language code such as "es" or "pt-BR".`, argumentName);
  }
}

/**
 * Refuses a text the translation service would refuse, before calling it. For a client argument it
 * is the client's input; for a problem's own text (`argumentName` undefined) it is a property of the
 * problem, reported as TEXT_TOO_LONG.
 */
export function checkTextLength(texts: string[], maxLength: number, what: string, argumentName?: string): void {
  const longest = texts.reduce((max, text) => Math.max(max, [...text].length), 0);
  if (longest <= maxLength) return;
  const message = `${what} is ${longest} characters long; the translation service accepts at most ${maxLength}.`;
  if (argumentName) throw createBadUserInputError(message, argumentName);
  throw createGraphQLErrorWithCode(message, ErrorCode.TextTooLong, { service: 'translation', limit: maxLength });
}

/** The `to` and `from` arguments, checked; `from` omitted means automatic detection. */
export function languageOptions(args: { to: string; from?: string | null }) {
  checkLanguageArgument(args.to, 'to');
  checkLanguageArgument(args.from, 'from');
  return { to: args.to, from: args.from ?? null };
}

function batchOptions(args: TranslateArgs) {
  return { ...languageOptions(args), format: FORMATS[args.format ?? 'TEXT'] ?? 'text' };
}

/** Translates through the request's batch; null (with the batch's error reported once) when it failed. */
async function translateBatched(context: TranslationContext, texts: string[], args: TranslateArgs, argumentName: string) {
  const options = batchOptions(args);
  const runtime = translationRuntimeOf(context);
  checkTextLength(texts, runtime.maxTextLength, `\`${argumentName}\``, argumentName);
  return runtime.settle(context, await runtime.translate(context, texts, options));
}

export const resolvers = {
  Query: {
    // The namespace object carries no data; its fields do the work.
    translation: () => ({}),
  },
  TranslationQuery: {
    languages: (_: unknown, __: unknown, context: TranslationContext) => translationRuntimeOf(context).languages(context),
    translate: async (_: unknown, args: TranslateArgs & { text: string }, context: TranslationContext) =>
      (await translateBatched(context, [args.text], args, 'text'))?.[0] ?? null,
    translateMany: (_: unknown, args: TranslateArgs & { texts: string[] }, context: TranslationContext) =>
      translateBatched(context, args.texts, args, 'texts'),
    detect: (_: unknown, args: { text: string }, context: TranslationContext) => {
      const runtime = translationRuntimeOf(context);
      checkTextLength([args.text], runtime.maxTextLength, '`text`', 'text');
      return runtime.detect(context, args.text);
    },
  },
};
