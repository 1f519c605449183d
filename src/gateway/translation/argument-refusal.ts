import type { GraphQLError } from 'graphql';
import { createArgumentError } from '../errors.ts';
import type { OperationEstimate } from '../request/operation-estimate.ts';
import { MAX_TAGS } from './accept-language.ts';
import type { LanguageArgument } from './language-choice.ts';
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
 * the operation limits: a text over the length limit, a language argument that is no language tag, a
 * `to:` list that is empty or longer than MAX_TO_LANGUAGES.
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
    const problem = argument === 'to' ? languageListProblem(value as LanguageArgument | undefined) : typeof value === 'string' ? languageTagProblem(argument, value) : undefined;
    if (problem) return createArgumentError(problem, argument, Array.isArray(value) && value.length > MAX_TO_LANGUAGES ? { limit: MAX_TO_LANGUAGES, actual: value.length } : {});
  }
  return undefined;
}

/**
 * Most languages one `to:` list may name: as many as the gateway reads of an `Accept-Language`
 * header (accept-language.ts). A reader's fallbacks are a few; a longer list only costs matching.
 */
export const MAX_TO_LANGUAGES = MAX_TAGS;

/**
 * Why a `to:` argument (one tag, or a list of them, most wanted first) cannot be served, in words
 * for the client; undefined when it can (or is omitted). A list is bounded (MAX_TO_LANGUAGES) and
 * names at least one language; each entry must be a language tag.
 */
export function languageListProblem(to: LanguageArgument | undefined): string | undefined {
  if (to == null) return undefined;
  if (typeof to === 'string') return languageTagProblem('to', to);
  if (to.length === 0) return 'Argument "to" names no language: give one or more language tags, most wanted first, or omit it.';
  if (to.length > MAX_TO_LANGUAGES) return `Argument "to" names ${to.length} languages; at most ${MAX_TO_LANGUAGES} are read, most wanted first.`;
  for (const [index, tag] of to.entries()) {
    const problem = languageTagProblem(`to[${index}]`, tag);
    if (problem) return problem;
  }
  return undefined;
}
