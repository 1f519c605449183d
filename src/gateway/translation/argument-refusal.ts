import type { GraphQLError } from 'graphql';
import { createArgumentError } from '../errors.ts';
import type { OperationEstimate } from '../request/operation-estimate.ts';
import { languageTagProblem } from './language-tags.ts';
import { characters } from './text-parts.ts';

/** The arguments of each translation field that hold texts, and those that hold language tags. */
const TEXT_ARGUMENTS: Record<string, string[]> = {
  'TranslationQuery.translate': ['text'],
  'TranslationQuery.translateMany': ['texts'],
  'TranslationQuery.detect': ['text'],
};
const LANGUAGE_ARGUMENTS: Record<string, string[]> = {
  'TranslationQuery.translate': ['to', 'from'],
  'TranslationQuery.translateMany': ['to', 'from'],
  'Problem.translation': ['to', 'from'],
};

/**
 * The refusal of the first translation argument the request itself shows to be wrong, in the voice of
 * the operation limits: a text over the length limit, a language argument that is no language tag.
 * Both are the client's input, as MAX_ARGUMENT_LENGTH's refusals are, so both are request errors (400,
 * BAD_USER_INPUT naming the argument) and no upstream is called, where a field error would have let
 * the rest of the operation run and pay for a request the client must fix anyway. What only the
 * service knows (whether it offers a language) stays a field error. Run before execution by the
 * translation-arguments guard (guards/translation-arguments.ts), on every way a request is answered.
 * `maxTextLength` is TRANSLATION_MAX_TEXT_LENGTH, the longest text a client may give, in characters.
 */
export function translationArgumentRefusal(estimate: Pick<OperationEstimate, 'fieldArguments'>, maxTextLength: number): GraphQLError | undefined {
  for (const { coordinate, args: values } of estimate.fieldArguments) {
    const refusal = textRefusal(coordinate, values, maxTextLength) ?? languageRefusal(coordinate, values);
    if (refusal) return refusal;
  }
  return undefined;
}

function textRefusal(coordinate: string, values: Record<string, unknown>, maxTextLength: number): GraphQLError | undefined {
  for (const argument of TEXT_ARGUMENTS[coordinate] ?? []) {
    const value = values[argument];
    const texts = Array.isArray(value) ? value : [value];
    for (const [index, text] of texts.entries()) {
      if (typeof text !== 'string') continue;
      const length = characters(text);
      if (length <= maxTextLength) continue;
      const path = Array.isArray(value) ? `${argument}[${index}]` : argument;
      return createArgumentError(`Argument "${path}" is ${length} characters long; at most ${maxTextLength} are allowed for translation.`, argument, {
        limit: maxTextLength,
        actual: length,
      });
    }
  }
  return undefined;
}

function languageRefusal(coordinate: string, values: Record<string, unknown>): GraphQLError | undefined {
  for (const argument of LANGUAGE_ARGUMENTS[coordinate] ?? []) {
    const value = values[argument];
    const problem = typeof value === 'string' ? languageTagProblem(argument, value) : undefined;
    if (problem) return createArgumentError(problem, argument);
  }
  return undefined;
}
