import { checkLanguageArgument, checkTextLength } from '../translation/resolvers.ts';
import type { TranslationContext } from '../translation/translation-client.ts';
import { translationRuntimeOf } from '../translation/translation-runtime.ts';

/**
 * `Problem.translation(to, from)`: the problem's title and statement in another language.
 * `selectionSet` makes the gateway fetch `title` and `statement` from the problems service even when
 * the client did not ask for them. Every problem of a page queues its two texts into the request's
 * batch, so a page costs one translation call (none when cached).
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
        const runtime = translationRuntimeOf(context);
        checkTextLength([problem.title, problem.statement], runtime.maxTextLength, "This problem's text");
        const outcomes = await runtime.translate(context, [problem.title, problem.statement], {
          to: args.to,
          from: args.from ?? null,
          format: 'text',
        });
        const results = runtime.settle(context, outcomes);
        if (!results) return null;
        const [title, statement] = results;
        return { language: args.to, title: title.text, statement: statement.text };
      },
    },
  },
};
