import { decodeHtmlText, escapeHtmlText } from '../statement/html-placeholders.ts';
import { checkTextLength, languageOptions } from '../translation/resolvers.ts';
import type { TranslationContext } from '../translation/translation-client.ts';
import { translationRuntimeOf } from '../translation/translation-runtime.ts';

interface ProblemTranslation {
  language: string;
  title: string;
  statement: string;
}

/**
 * `Problem.translation(to, from)`: the problem's title and statement in another language.
 * `selectionSet` makes the gateway fetch `title` and `statement` from the problems service even when
 * the client did not ask for them. Only the statement's prose is translated: it goes as HTML segments
 * with math, code and URLs held in placeholders (src/gateway/statement/), and the title goes as HTML
 * too, so that every text of the link is in one batch group. Every problem of a page queues its texts
 * into the request's batch, so a page costs the fewest translation calls (none when cached).
 */
export const resolvers = {
  Problem: {
    translation: {
      selectionSet: /* GraphQL */ `{ title statement }`,
      resolve: async (
        problem: { title: string; statement: string },
        args: { to: string; from?: string | null },
        context: TranslationContext,
      ): Promise<ProblemTranslation | null> => {
        const languages = languageOptions(args);
        const runtime = translationRuntimeOf(context);
        // Off the event loop; a statement over the limits fails the field here, before any call.
        const segments = await runtime.statements.segment(problem.statement);
        // The service refuses an empty text; an empty title has nothing to translate anyway.
        const titles = problem.title.trim() ? [escapeHtmlText(problem.title)] : [];
        const texts = [...titles, ...segments];
        checkTextLength(texts, runtime.maxTextLength, "This problem's text");
        const outcomes = await runtime.translate(context, texts, { ...languages, format: 'html' });
        const results = runtime.settle(context, outcomes);
        if (!results) return null;
        const title = titles.length > 0 ? decodeHtmlText(results[0].text) : problem.title;
        const translated = results.slice(titles.length).map((result) => result.text);
        return { language: args.to, title, statement: await runtime.statements.reassemble(problem.statement, translated) };
      },
    },
  },
  ProblemTranslation: {
    // Rendered only when asked for.
    statementHtml: (translation: ProblemTranslation, _args: unknown, context: TranslationContext) =>
      translationRuntimeOf(context).statements.renderHtml(translation.statement),
  },
};
