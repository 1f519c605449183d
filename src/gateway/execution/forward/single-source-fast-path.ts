import { getVariableValues, type DocumentNode, type ExecutionArgs, type ExecutionResult, type GraphQLSchema } from 'graphql';
import { normalizedExecutor } from '@graphql-tools/executor';
import { delegatedExecution } from '../delegate/delegated-execution.ts';
import { selectionOrderOf } from '../shape/use-selection-order.ts';
import type { ServiceName } from '../../errors.ts';
import { rootFieldsOf, type ForwardedRequest } from './delegated-answer.ts';
import { forwardableOperations, type ForwardableOperation } from './forwardable-operation.ts';
import { answerShapers, forwardedCall, isShaped, type ForwardedCall, type ForwardedCallOptions, type ShaperOf } from './forwarded-call.ts';
import { createPreparedOperations, type PreparedContext, type PreparedOperation, type PreparedOperations } from './prepared-operations.ts';

export interface SingleSourceFastPathOptions extends Omit<ForwardedCallOptions, 'shaperOf'> {
  /** The source's own schema as Mesh built it; until it is known, nothing is forwarded. */
  sourceSchema: () => GraphQLSchema | undefined;
  /** `Type.field` coordinates the gateway adds or resolves itself (see gatewayFieldsOf). */
  gatewayFields: ReadonlySet<string>;
  /**
   * The context Mesh gives a request's execution (its in-context SDK, the translation runtime), for
   * a linked operation answered in front of yoga: the links' resolvers read it. Without it, linked
   * operations are left to yoga every time.
   */
  contextOf?: (initial: PreparedContext) => object | Promise<object>;
}

/** Mesh's own execution of a linked operation whose source answer has errors, delegated as yoga's would be. */
const delegatedExecute = delegatedExecution(normalizedExecutor);

/** An execute function, as envelop's onExecute hands it over. */
export type ExecuteFn = (args: ExecutionArgs) => unknown;

export interface SingleSourceFastPath {
  /** Forwards operations one source can answer whole, in place of delegation (see use-execution.ts). */
  executeFor(args: ExecutionArgs, executeFn: ExecuteFn): ExecuteFn | undefined;
  /**
   * What it takes to forward a parsed and validated operation without yoga, or undefined when it is
   * not one to forward whole and in one piece (it is delegated, deferred, or not a query).
   */
  prepare(schema: GraphQLSchema, document: DocumentNode, operationName: string | null | undefined): PreparedOperation | undefined;
  /** The plans of the texts seen, each to forward without yoga or to leave to it (prepared-operations.ts). */
  prepared: PreparedOperations;
}

/**
 * Operations one source can answer whole (see forwardable-operation.ts) skip Mesh's delegation: the
 * client's operation and variables go to the source as they are, in one POST through the same
 * upstream steps as every other call (problems cache, error shaping, size bound, retries and
 * budget, observation), and the answer comes back in the form the delegated path gives
 * (delegated-answer.ts). Only the execute function is replaced (use-execution.ts), so every plugin
 * around execution (selection order, limits, response cache, error masking, request log) sees the
 * request as it would otherwise. Anything else, an operation whose variables do not coerce (graphql-js words that
 * error) and one whose variables skip every source field go the delegated way.
 *
 * Each text it forwards is also recorded in `prepared`, so that the listener in front of yoga can
 * forward the next request with the same text itself, with the same forwarding.
 */
export function createSingleSourceFastPath({ service, sourceSchema, gatewayFields, endpoint, headers, send, network, signal, links, contextOf }: SingleSourceFastPathOptions): SingleSourceFastPath {
  const prepared = createPreparedOperations();
  const shaperOf = answerShapers(links);
  const forward = forwardedCall({ service, endpoint, headers, send, network, signal, links, shaperOf });
  let plans: ReturnType<typeof forwardableOperations> | undefined;
  const planOf = (schema: GraphQLSchema, document: DocumentNode, operationName: string | null | undefined): ForwardableOperation | undefined => {
    if (!plans) {
      const schemaOfSource = sourceSchema();
      if (!schemaOfSource) return undefined;
      plans = forwardableOperations({ sourceSchema: schemaOfSource, gatewayFields, links: links?.links });
    }
    return plans(schema, document, operationName);
  };
  const preparing = { service, forward, shaperOf, contextOf };

  /** Deferred operations need yoga's incremental delivery; linked ones, Mesh's context. */
  const answeredInOnePiece = (forwarded: ForwardableOperation) => !forwarded.deferred && (!forwarded.linked || contextOf !== undefined);

  /**
   * Records the text yoga is executing as prepared (its document passed every guard to get here),
   * for a text the front door has not planned itself (`gateway.fetch`, a trusted document asked by
   * another printing of it).
   */
  const remember = (args: ExecutionArgs, forwarded: ForwardableOperation) => {
    const params = (args.contextValue as { params?: { query?: unknown; operationName?: unknown } } | undefined)?.params;
    if (typeof params?.query !== 'string' || (params.operationName != null && typeof params.operationName !== 'string')) return;
    if (prepared.find(params.query, params.operationName)) return;
    prepared.remember(params.query, params.operationName, preparedOperation(preparing, args.schema, args.document, args.operationName, forwarded));
  };

  const prepare = (schema: GraphQLSchema, document: DocumentNode, operationName: string | null | undefined): PreparedOperation | undefined => {
    const forwarded = planOf(schema, document, operationName);
    return forwarded && answeredInOnePiece(forwarded) ? preparedOperation(preparing, schema, document, operationName, forwarded) : undefined;
  };

  /**
   * The execute function for these arguments when the operation can go to the source whole, around
   * `executeFn` (the delegated way, for variables that send it there after all), or undefined.
   */
  const executeFor = (args: ExecutionArgs, executeFn: ExecuteFn): ExecuteFn | undefined => {
    const forwarded = planOf(args.schema, args.document, args.operationName);
    if (!forwarded) return undefined;
    return (executeArgs) => {
      const request = forwardedRequest(service, forwarded, executeArgs.schema, executeArgs.variableValues);
      if (!request) return executeFn(executeArgs);
      if (answeredInOnePiece(forwarded)) remember(executeArgs, forwarded);
      return forward(request, executeArgs.variableValues, executeArgs.contextValue, executeArgs, () => executeFn(executeArgs));
    };
  };
  return { executeFor, prepare, prepared };
}

/** The forwarded request for these client variables, or undefined when they send it the delegated way. */
function forwardedRequest(
  service: ServiceName,
  forwarded: ForwardableOperation,
  schema: GraphQLSchema,
  clientVariables: Record<string, unknown> | null | undefined,
  coerced?: Record<string, unknown>,
): ForwardedRequest | undefined {
  let variables: Record<string, unknown> = coerced ?? {};
  if (!coerced && forwarded.operation.variableDefinitions?.length) {
    const coercion = getVariableValues(schema, forwarded.operation.variableDefinitions, clientVariables ?? {});
    if (coercion.errors) return undefined;
    variables = coercion.coerced;
  }
  const request = { service, forwarded, variables, rootTypeName: schema.getQueryType()!.name };
  if (!forwarded.callsWhateverTheVariables && rootFieldsOf(request).every((field) => field.typename)) return undefined;
  return request;
}

/** What a prepared operation is made with. */
interface Preparing {
  service: ServiceName;
  forward: ForwardedCall;
  shaperOf: ShaperOf;
  contextOf: SingleSourceFastPathOptions['contextOf'];
}

/** What it takes to forward this validated operation again for any variables, without yoga. */
function preparedOperation({ service, forward, shaperOf, contextOf }: Preparing, schema: GraphQLSchema, document: DocumentNode, operationName: string | null | undefined, forwarded: ForwardableOperation): PreparedOperation {
  const inSelectionOrder = forwarded.linked ? selectionOrderOf(schema, document, operationName) : undefined;
  return {
    strategy: 'forwarded',
    schema,
    document,
    operation: forwarded.operation,
    shaper: shaperOf(forwarded),
    bind(clientVariables, coerced) {
      const request = forwardedRequest(service, forwarded, schema, clientVariables, coerced);
      if (!request) return undefined;
      if (!forwarded.linked) return (context) => forward(request, clientVariables, context, { schema, document, operationName }) as Promise<ExecutionResult>;
      // A linked one is completed with Mesh's context, as yoga would run it (an answer of the
      // source with errors delegated), and put in selection order as yoga's plugin would.
      return async (initial) => {
        const contextValue = await contextOf!(initial);
        const executeArgs: ExecutionArgs = { schema, document, operationName, variableValues: clientVariables ?? undefined, contextValue };
        const delegate = () => delegatedExecute(executeArgs);
        const result = (await forward(request, clientVariables, contextValue, executeArgs, delegate)) as ExecutionResult;
        // The shaper writes fields in selection order; execution over the data and delegation need ordering.
        return inSelectionOrder && !isShaped(result) ? inSelectionOrder(result, request.variables) : result;
      };
    },
  };
}
