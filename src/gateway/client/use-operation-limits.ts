import { blockFieldSuggestionsPlugin } from '@escape.tech/graphql-armor-block-field-suggestions';
import { maxAliasesPlugin } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthPlugin } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesPlugin } from '@escape.tech/graphql-armor-max-directives';
import { maxTokensPlugin } from '@escape.tech/graphql-armor-max-tokens';
import { GraphQLError, type ValidationContext } from 'graphql';
import { createGraphQLError, type Plugin } from 'graphql-yoga';
import { estimateExecution, pageSizeOutOfRange, UPSTREAM_MAX_PAGE_SIZE } from '../operation-cost.ts';
import type { GatewaySettings } from '../settings.ts';
import { ErrorCode, createArgumentError } from '../errors.ts';

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

/**
 * Refuses abusive operations before any upstream call: size and shape limits while parsing and
 * validating (GraphQL Armor), then, just before execution, when variable values are known: argument
 * lengths and page sizes (the client's input, BAD_USER_INPUT naming the argument), root fields and
 * estimated cost (operation-cost.ts; the operation as a whole, OPERATION_LIMIT_EXCEEDED).
 */
export function useOperationLimits(options: OperationLimitsOptions): Plugin[] {
  const { maxDepth, maxAliases, maxTokens, maxDirectives, maxRootFields, maxCost, maxArgumentLength, blockFieldSuggestions } = options;
  const limitsPlugin: Plugin = {
    onParams({ params }) {
      // Deeply nested variables make graphql-js recurse until the stack runs out; no real input nests this far.
      if (nestingDepth(params.variables, MAX_VARIABLES_DEPTH + 1) > MAX_VARIABLES_DEPTH) {
        throw createGraphQLError(`Variables nest deeper than ${MAX_VARIABLES_DEPTH} levels.`, {
          extensions: { code: ErrorCode.BadUserInput, limit: MAX_VARIABLES_DEPTH, http: { status: 400 } },
        });
      }
    },
    onExecute({ args, setResultAndStopExecution }) {
      const estimate = estimateExecution(args);
      if (!estimate) return;
      const refuse = (message: string, limit: number, actual: number) =>
        setResultAndStopExecution({
          errors: [createGraphQLError(message, { extensions: { code: ErrorCode.OperationLimitExceeded, limit, actual, http: { status: 400 } } })],
        });
      const page = pageSizeOutOfRange(estimate);
      if (estimate.longestArgument && estimate.longestArgument.length > maxArgumentLength) {
        const { name, path, length } = estimate.longestArgument;
        setResultAndStopExecution({
          errors: [
            createArgumentError(`Argument "${path}" is ${length} characters long; at most ${maxArgumentLength} are allowed.`, name, {
              limit: maxArgumentLength,
              actual: length,
            }),
          ],
        });
      } else if (page) {
        setResultAndStopExecution({
          errors: [
            createArgumentError(
              `Argument "first" of ${page.coordinate} must be between 0 and ${UPSTREAM_MAX_PAGE_SIZE} (the largest page the problems service returns); got ${page.first}.`,
              'first',
              { limit: UPSTREAM_MAX_PAGE_SIZE, actual: page.first },
            ),
          ],
        });
      } else if (estimate.rootFields > maxRootFields) {
        refuse(`The operation selects ${estimate.rootFields} root fields; at most ${maxRootFields} are allowed.`, maxRootFields, estimate.rootFields);
      } else if (estimate.cost > maxCost) {
        refuse(
          `The operation's estimated cost is ${estimate.cost}; at most ${maxCost} is allowed (translations and large pages cost most).`,
          maxCost,
          estimate.cost,
        );
      }
    },
  };
  // Armor throws its plain errors by default; report them as validation errors with our code instead.
  const reject = { propagateOnRejection: false, onReject: [reportLimit] };
  return [
    maxTokensPlugin({ n: maxTokens, ...reject }),
    maxDepthPlugin({ n: maxDepth, ignoreIntrospection: true, flattenFragments: true, ...reject }),
    maxAliasesPlugin({ n: maxAliases, allowList: [], ...reject }),
    maxDirectivesPlugin({ n: maxDirectives, ...reject }),
    // Armor covers validation's "Did you mean \"x\"?" only; error masking drops every other form the same way.
    ...(blockFieldSuggestions ? [blockFieldSuggestionsPlugin({ mask: '' })] : []),
    limitsPlugin,
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
