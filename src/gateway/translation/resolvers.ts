import { createBadUserInputError } from '../errors.ts';
import { detectLanguage, listLanguages, translateTexts, type TextFormat, type TranslationContext } from './translation-client.ts';

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

function translateOptions(args: TranslateArgs) {
  checkLanguageArgument(args.to, 'to');
  checkLanguageArgument(args.from, 'from');
  return { to: args.to, from: args.from ?? null, format: FORMATS[args.format ?? 'TEXT'] ?? 'text' };
}

export const resolvers = {
  Query: {
    // The namespace object carries no data; its fields do the work.
    translation: () => ({}),
  },
  TranslationQuery: {
    languages: (_: unknown, __: unknown, context: TranslationContext) => listLanguages(context),
    translate: async (_: unknown, args: TranslateArgs & { text: string }, context: TranslationContext) => {
      const [result] = await translateTexts(context, [args.text], translateOptions(args));
      return result;
    },
    translateMany: (_: unknown, args: TranslateArgs & { texts: string[] }, context: TranslationContext) =>
      translateTexts(context, args.texts, translateOptions(args)),
    detect: (_: unknown, args: { text: string }, context: TranslationContext) => detectLanguage(context, args.text),
  },
};
