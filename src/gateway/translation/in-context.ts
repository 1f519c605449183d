import { getDirectiveValues, getOperationAST, type ExecutionArgs, type ExecutionResult, type GraphQLError } from 'graphql';
import { createArgumentError } from '../errors.ts';
import { languageTagProblem, parseLanguageTag } from './language-tags.ts';

/** The operation-level directive that sets the readers' language of a whole query, as Shopify's Storefront API names it. */
export const IN_CONTEXT = 'inContext';

/** What kind of text a translation field answered (TranslationKind). */
export type AnswerKind = 'MACHINE' | 'CURATED' | 'ORIGINAL';

/** One operation's `@inContext`, kept on its execution context for the translation fields below it. */
export interface OperationLanguage {
  /** The directive's language, in BCP 47's usual case (`pt-BR`). */
  language: string;
  /** The languages each kind of answer was served in, noted as the fields answer (`extensions.context.served`). */
  served: Map<AnswerKind, Set<string>>;
}

const OPERATION_LANGUAGE = Symbol('operationLanguage');

/** The `@inContext` language of the operation this execution context runs, if it names one. */
export function operationLanguageOf(context: unknown): OperationLanguage | undefined {
  return (context as { [OPERATION_LANGUAGE]?: OperationLanguage } | null | undefined)?.[OPERATION_LANGUAGE];
}

/** Notes what one translation field answered, for the operation's `extensions.context` (only under `@inContext`). */
export function noteAnswerKind(context: unknown, kind: AnswerKind, language: string): void {
  const served = operationLanguageOf(context)?.served;
  if (!served) return;
  let languages = served.get(kind);
  if (!languages) served.set(kind, (languages = new Set()));
  languages.add(language);
}

/**
 * The operation's `@inContext(language:)` as execution will see it (variables included): its
 * language, a refusal for a value that is no language tag (the client's input, as a malformed `to:`
 * is: 400, BAD_USER_INPUT), or undefined when the operation names none.
 */
export function readOperationLanguage(args: Pick<ExecutionArgs, 'schema' | 'document' | 'operationName' | 'variableValues'>): { language: string } | { refusal: GraphQLError } | undefined {
  const operation = getOperationAST(args.document, args.operationName ?? undefined);
  const node = operation?.directives?.find((directive) => directive.name.value === IN_CONTEXT);
  const definition = args.schema.getDirective(IN_CONTEXT);
  if (!node || !definition) return undefined;
  let value: unknown;
  try {
    value = getDirectiveValues(definition, { directives: [node] }, (args.variableValues ?? undefined) as Record<string, unknown> | undefined)?.language;
  } catch {
    // A variable that does not coerce: execution refuses the operation in graphql-js's words.
    return undefined;
  }
  if (typeof value !== 'string') return undefined;
  const problem = languageTagProblem('language', value);
  if (problem) return { refusal: createArgumentError(`@${IN_CONTEXT}: ${problem}`, 'language') };
  return { language: parseLanguageTag(value)!.canonical };
}

/**
 * What an answer under `@inContext` says of its languages, as Shopify's says its context:
 * `requested`, the directive's language; `language`, the one language every translated text of the
 * operation is in (null when they differ, or none answered); `served`, the languages each kind of
 * answer (MACHINE, CURATED, ORIGINAL) came in, in the order first served.
 */
export function contextExtension({ language, served }: OperationLanguage): { requested: string; language: string | null; served: Partial<Record<AnswerKind, string[]>> } {
  const byKind: Partial<Record<AnswerKind, string[]>> = {};
  const all = new Set<string>();
  for (const [kind, languages] of served) {
    byKind[kind] = [...languages];
    for (const each of languages) all.add(each);
  }
  return { requested: language, language: all.size === 1 ? [...all][0] : null, served: byKind };
}

/** The result with the operation's `extensions.context` added (other extensions kept). */
export function withContextExtension(result: ExecutionResult, operationLanguage: OperationLanguage): ExecutionResult {
  return { ...result, extensions: { ...result.extensions, context: contextExtension(operationLanguage) } };
}

/** Puts the operation's language on its execution context (read by the translation fields: language-choice.ts). */
export function setOperationLanguage(context: object, language: string): OperationLanguage {
  const operationLanguage: OperationLanguage = { language, served: new Map() };
  (context as { [OPERATION_LANGUAGE]?: OperationLanguage })[OPERATION_LANGUAGE] = operationLanguage;
  return operationLanguage;
}
