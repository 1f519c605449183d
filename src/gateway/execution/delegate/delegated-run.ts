import { getOperationAST, visit, BREAK, type DocumentNode, type ExecutionArgs, type ExecutionResult, type GraphQLSchema } from 'graphql';
import { envelop, type Plugin } from 'graphql-yoga';
import { selectionOrderOf } from '../shape/use-selection-order.ts';
import type { PreparedContext, PreparedOperation } from '../forward/prepared-operations.ts';
import { delegatedExecution, needsDelegatedExecution } from './delegated-execution.ts';

/** The plugins of Mesh's own execution (`mesh.plugins`): its engine, in-context SDK, error hook and the gateway's Mesh plugins. */
export type MeshPlugins = readonly unknown[];

export interface DelegatedRuns {
  /**
   * What runs a parsed and validated operation through Mesh's own execution, without yoga; undefined
   * for one that needs yoga: no single operation to run, not a query (a mutation's method rules and
   * a subscription's stream are yoga's), or `@defer`/`@stream` (incremental delivery).
   */
  prepare(schema: GraphQLSchema, document: DocumentNode, operationName: string | null | undefined): PreparedOperation | undefined;
}

/**
 * The delegated strategy of a plan (pipeline/document-planner.ts): an operation the problems service
 * does not answer whole (a link, the translation namespace, fields of both sources) is executed by
 * Mesh's own execution, as yoga executes it: the same envelop plugins (Mesh's engine, its in-context
 * SDK, its error hook, the upstream calls, the translation runtime and its batching), the
 * graphql-tools workarounds (delegated-execution.ts) where the document needs them, and the answer
 * put in selection order as yoga's plugin does. What the front door has done already is not done
 * again: parsing and validation (the plan's), the guards and the response cache, which belong to
 * yoga's plugins and are left out of this envelop.
 *
 * Per document, once: the operation, whether it needs the workarounds and its selection order. Per
 * request: Mesh's context and the execution, with the variables as the client sent them (execution
 * coerces them, as in yoga).
 */
export function delegatedRuns(meshPlugins: MeshPlugins): DelegatedRuns {
  // Two envelops for the engine's life: Mesh's plugins as they are, and with the workarounds around
  // its execute (inside Mesh's own onExecute hooks, where use-execution.ts puts them in yoga).
  const plain = envelop({ plugins: meshPlugins as Plugin[] });
  const withWorkarounds = envelop({ plugins: [...(meshPlugins as Plugin[]), useDelegationWorkarounds()] });
  return {
    prepare(schema, document, operationName) {
      const operation = getOperationAST(document, operationName ?? undefined);
      if (!operation || operation.operation !== 'query' || asksIncrementalDelivery(document)) return undefined;
      const getEnveloped = needsDelegatedExecution({ schema, document }) ? withWorkarounds : plain;
      const inSelectionOrder = selectionOrderOf(schema, document, operationName);
      return {
        strategy: 'delegated',
        schema,
        document,
        operation,
        bind(variables, coerced) {
          return async (initial: PreparedContext): Promise<ExecutionResult> => {
            const { execute, contextFactory } = getEnveloped(initial);
            const contextValue = await contextFactory();
            const args: ExecutionArgs = { schema, document, contextValue, variableValues: variables, operationName };
            const result = (await execute(args)) as ExecutionResult;
            // The variables as execution coerced them, for @skip and @include (yoga's plugin reads them alike).
            return inSelectionOrder ? inSelectionOrder(result, coerced ?? variables ?? {}) : result;
          };
        },
      };
    },
  };
}

/** The graphql-tools workarounds around Mesh's execute, for a document that needs them (decided once per document). */
function useDelegationWorkarounds(): Plugin {
  return {
    onExecute({ executeFn, setExecuteFn }) {
      setExecuteFn(delegatedExecution(executeFn));
    },
  };
}

/** Whether any selection of the document carries `@defer` or `@stream`: yoga delivers those in increments. */
function asksIncrementalDelivery(document: DocumentNode): boolean {
  let found = false;
  visit(document, {
    Directive(node) {
      if (node.name.value !== 'defer' && node.name.value !== 'stream') return undefined;
      found = true;
      return BREAK;
    },
  });
  return found;
}
