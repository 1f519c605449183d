import { blockFieldSuggestionsPlugin } from '@escape.tech/graphql-armor-block-field-suggestions';
import { maxAliasesPlugin } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthPlugin } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesPlugin } from '@escape.tech/graphql-armor-max-directives';
import { maxTokensPlugin } from '@escape.tech/graphql-armor-max-tokens';
import { createGraphQLError, type Plugin } from 'graphql-yoga';
import { estimateOperation } from '../operation-cost.ts';

export interface OperationLimitsOptions {
  maxDepth: number;
  maxAliases: number;
  maxTokens: number;
  maxDirectives: number;
  maxRootFields: number;
  maxCost: number;
  /** Hide "Did you mean …?" suggestions, which reveal the schema when introspection is off. */
  blockFieldSuggestions: boolean;
}

export const OPERATION_LIMIT_CODE = 'OPERATION_LIMIT_EXCEEDED';

/**
 * Refuses abusive operations before any upstream call: size and shape limits while parsing and
 * validating (GraphQL Armor), then root fields and estimated cost (operation-cost.ts) just before
 * execution, when variable values are known.
 */
export function useOperationLimits(options: OperationLimitsOptions): Plugin[] {
  const { maxDepth, maxAliases, maxTokens, maxDirectives, maxRootFields, maxCost, blockFieldSuggestions } = options;
  const limitsPlugin: Plugin = {
    onExecute({ args, setResultAndStopExecution }) {
      const estimate = estimateOperation(args.schema, args.document, args.operationName, args.variableValues ?? {});
      if (!estimate) return;
      const refuse = (message: string, limit: number, actual: number) =>
        setResultAndStopExecution({
          errors: [createGraphQLError(message, { extensions: { code: OPERATION_LIMIT_CODE, limit, actual, http: { status: 400 } } })],
        });
      if (estimate.rootFields > maxRootFields) {
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
  return [
    maxTokensPlugin({ n: maxTokens }),
    maxDepthPlugin({ n: maxDepth, ignoreIntrospection: true, flattenFragments: true }),
    maxAliasesPlugin({ n: maxAliases, allowList: [] }),
    maxDirectivesPlugin({ n: maxDirectives }),
    ...(blockFieldSuggestions ? [blockFieldSuggestionsPlugin()] : []),
    limitsPlugin,
  ] as Plugin[];
}
