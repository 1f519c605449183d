import type { OperationGuard } from '../request/guards.ts';
import { translationArgumentRefusal } from '../translation/argument-refusal.ts';

/**
 * Translation arguments the request itself shows to be wrong (a text over TRANSLATION_MAX_TEXT_LENGTH,
 * a language argument that is no language tag) are refused before any upstream call, as request
 * errors naming the argument (see translationArgumentRefusal).
 */
export function translationArgumentsGuard(maxTextLength: number): OperationGuard {
  return { name: 'translation arguments', check: (_, estimate) => translationArgumentRefusal(estimate, maxTextLength) };
}
