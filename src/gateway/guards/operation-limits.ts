import { blockFieldSuggestionsPlugin } from '@escape.tech/graphql-armor-block-field-suggestions';
import { maxAliasesPlugin } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthPlugin } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesPlugin } from '@escape.tech/graphql-armor-max-directives';
import { maxTokensPlugin } from '@escape.tech/graphql-armor-max-tokens';
import { GraphQLError, type ValidationContext } from 'graphql';
import { createGraphQLError, type Plugin } from 'graphql-yoga';
import { pageSizeOutOfRange, UPSTREAM_MAX_PAGE_SIZE } from '../execution/shape/operation-cost.ts';
import type { OperationEstimate } from '../request/operation-estimate.ts';
import type { GatewaySettings } from '../settings.ts';
import { ErrorCode, createArgumentError } from '../errors.ts';
import type { OperationGuard, ParamsGuard } from '../request/guards.ts';

/** The limits, as documented on GatewaySettings (settings.ts). */
export type OperationLimitsOptions = Pick<
  GatewaySettings,
  'maxDepth' | 'maxAliases' | 'maxTokens' | 'maxDirectives' | 'maxRootFields' | 'maxCost' | 'maxArgumentLength'
> & {
  /** Hide "Did you mean …?" suggestions, which reveal the schema when introspection is off. */
  blockFieldSuggestions: boolean;
};

/** Deepest nesting of objects and lists accepted in variables. */
export const MAX_VARIABLES_DEPTH = 20;

/** Depth of a JSON value, counting no further than `stopAt`. */
function nestingDepth(value: unknown, stopAt: number): number {
  if (value === null || typeof value !== 'object' || stopAt <= 0) return 0;
  let deepest = 0;
  for (const item of Object.values(value)) {
    deepest = Math.max(deepest, nestingDepth(item, stopAt - 1));
    if (deepest >= stopAt) break;
  }
  return 1 + deepest;
}

/** The limits that depend on variable values, checked just before execution. */
export type ExecutionLimits = Pick<GatewaySettings, 'maxRootFields' | 'maxCost' | 'maxArgumentLength'>;

/** The error for variables nested deeper than MAX_VARIABLES_DEPTH, or undefined when they are not. */
export function variablesTooDeep(variables: unknown): GraphQLError | undefined {
  // Deeply nested variables make graphql-js recurse until the stack runs out; no real input nests this far.
  if (nestingDepth(variables, MAX_VARIABLES_DEPTH + 1) <= MAX_VARIABLES_DEPTH) return undefined;
  return createGraphQLError(`Variables nest deeper than ${MAX_VARIABLES_DEPTH} levels.`, {
    extensions: { code: ErrorCode.BadUserInput, limit: MAX_VARIABLES_DEPTH, http: { status: 400 } },
  });
}

/**
 * The first limit an operation breaks with these variables (see estimateExecution), as the error the
 * client gets, or undefined: argument lengths and page sizes (the client's input, BAD_USER_INPUT
 * naming the argument), then root fields and estimated cost (the operation as a whole,
 * OPERATION_LIMIT_EXCEEDED).
 */
export function executionLimitError(estimate: OperationEstimate, { maxRootFields, maxCost, maxArgumentLength }: ExecutionLimits): GraphQLError | undefined {
  const refuse = (message: string, limit: number, actual: number) =>
    createGraphQLError(message, { extensions: { code: ErrorCode.OperationLimitExceeded, limit, actual, http: { status: 400 } } });
  if (estimate.longestArgument && estimate.longestArgument.length > maxArgumentLength) {
    const { name, path, length } = estimate.longestArgument;
    return createArgumentError(`Argument "${path}" is ${length} characters long; at most ${maxArgumentLength} are allowed.`, name, {
      limit: maxArgumentLength,
      actual: length,
    });
  }
  const page = pageSizeOutOfRange(estimate);
  if (page) {
    return createArgumentError(
      `Argument "first" of ${page.coordinate} must be between 0 and ${UPSTREAM_MAX_PAGE_SIZE} (the largest page the problems service returns); got ${page.first}.`,
      'first',
      { limit: UPSTREAM_MAX_PAGE_SIZE, actual: page.first },
    );
  }
  if (estimate.rootFields > maxRootFields) {
    return refuse(`The operation selects ${estimate.rootFields} root fields; at most ${maxRootFields} are allowed.`, maxRootFields, estimate.rootFields);
  }
  if (estimate.cost > maxCost) {
    return refuse(
      `The operation's estimated cost is ${estimate.cost}; at most ${maxCost} is allowed (translations and large pages cost most).`,
      maxCost,
      estimate.cost,
    );
  }
  return undefined;
}

/** Variables nested deeper than MAX_VARIABLES_DEPTH are refused before anything reads them. */
export const variablesDepthGuard: ParamsGuard = { name: 'variables depth', check: (_, params) => variablesTooDeep(params.variables) };

/**
 * `@skip(if:)` and `@include(if:)` take true or false: a variable that gives them null is the
 * client's input error, refused before execution on every way of answering (graphql-js would fail
 * the request while collecting fields, and a forwarded one at the source).
 */
export const conditionsGuard: OperationGuard = {
  name: 'conditions',
  check: (_, { nullConditions: [name] }) =>
    name === undefined ? undefined : createArgumentError(`Variable "$${name}" is null, but @skip(if:) and @include(if:) take true or false.`, 'if'),
};

/** The limits that depend on variable values (executionLimitError), checked before execution. */
export function executionLimitsGuard(limits: ExecutionLimits): OperationGuard {
  return { name: 'execution limits', check: (_, estimate) => executionLimitError(estimate, limits) };
}

/**
 * Size and shape limits while parsing and validating (GraphQL Armor): yoga's parser and validation
 * run them. The limits that depend on variables are guards (executionLimitsGuard) that both
 * adapters run.
 */
export function useDocumentLimits(options: Pick<OperationLimitsOptions, 'maxDepth' | 'maxAliases' | 'maxTokens' | 'maxDirectives' | 'blockFieldSuggestions'>): Plugin[] {
  const { maxDepth, maxAliases, maxTokens, maxDirectives, blockFieldSuggestions } = options;
  // Armor throws its plain errors by default; report them as validation errors with our code instead.
  const reject = { propagateOnRejection: false, onReject: [reportLimit] };
  return [
    maxTokensPlugin({ n: maxTokens, ...reject }),
    maxDepthPlugin({ n: maxDepth, ignoreIntrospection: true, flattenFragments: true, ...reject }),
    maxAliasesPlugin({ n: maxAliases, allowList: [], ...reject }),
    maxDirectivesPlugin({ n: maxDirectives, ...reject }),
    // Armor covers validation's "Did you mean \"x\"?" only; error masking drops every other form the same way.
    ...(blockFieldSuggestions ? [blockFieldSuggestionsPlugin({ mask: '' })] : []),
  ] as Plugin[];
}

function reportLimit(context: ValidationContext | null, error: GraphQLError): void {
  const coded = createGraphQLError(error.message.replace(/^Syntax Error: /, ''), {
    extensions: { code: ErrorCode.OperationLimitExceeded, http: { status: 400 } },
  });
  // The token limit rejects while parsing, where there is no validation context: throw there.
  if (!context) throw coded;
  context.reportError(coded);
}
