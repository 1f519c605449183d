import { availableTranslations, type Availability, type AvailableTranslation } from '../translation/available-translations.ts';
import type { TranslationContext } from '../translation/translation-client.ts';
import { translationRuntimeOf } from '../translation/translation-runtime.ts';
import { textsOf } from './problem-translation.ts';

/**
 * `Problem.translations(availability)`: the problem's language menu (available-translations.ts),
 * with no translation call. It reads the problem's texts as the translation link does (`selectionSet`):
 * a curated translation and a cached one count only for the statement as it is now.
 */
export const resolvers = {
  Problem: {
    translations: {
      selectionSet: /* GraphQL */ `{ id title statement }`,
      resolve: async (
        parent: { id?: string; title?: string; statement?: string },
        args: { availability?: Availability[] | null },
        context: TranslationContext & Parameters<typeof textsOf>[1],
      ): Promise<AvailableTranslation[]> => {
        const problem = await textsOf(parent, context);
        const only = args.availability == null ? undefined : new Set(args.availability);
        return availableTranslations(translationRuntimeOf(context), context, { id: parent.id, ...problem }, only);
      },
    },
  },
};
