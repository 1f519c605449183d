import { translateTexts, type TranslationContext } from '../translation/translation-client.ts';
import { checkLanguageArgument } from '../translation/resolvers.ts';

/**
 * `Problem.translation(to, from)`: the problem's title and statement in another language.
 * `selectionSet` makes the gateway fetch `title` and `statement` from the problems service even when
 * the client did not ask for them.
 */
export const resolvers = {
  Problem: {
    translation: {
      selectionSet: /* GraphQL */ `{ title statement }`,
      resolve: async (
        problem: { title: string; statement: string },
        args: { to: string; from?: string | null },
        context: TranslationContext,
      ) => {
        checkLanguageArgument(args.to, 'to');
        checkLanguageArgument(args.from, 'from');
        const [title, statement] = await translateTexts(context, [problem.title, problem.statement], {
          to: args.to,
          from: args.from ?? null,
          format: 'text',
        });
        return { language: args.to, title: title.text, statement: statement.text };
      },
    },
  },
};
