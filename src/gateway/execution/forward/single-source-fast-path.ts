import { getVariableValues, GraphQLError, type DocumentNode, type ExecutionArgs, type ExecutionResult, type GraphQLSchema } from 'graphql';
import type { MeshFetch } from '@graphql-mesh/types';
import { normalizedExecutor } from '@graphql-tools/executor';
import { delegatedExecution } from '../delegate/delegated-execution.ts';
import { selectionOrderOf } from '../shape/use-selection-order.ts';
import type { ServiceName } from '../../errors.ts';
import type { SendUpstream } from '../../upstream/upstream-call.ts';
import { answerAsDelegated, failureAsDelegated, rootFieldsOf, type ForwardedRequest } from './delegated-answer.ts';
import { forwardableOperations, type ForwardableOperation } from './forwardable-operation.ts';
import { compileAnswerShaper, type AnswerShaper, type ShapedAnswer } from './answer-shaper.ts';
import { linkCompletion, type LinkCompletionOptions } from './linked-answer.ts';
import { ANSWER_TEXT, createPreparedOperations, type PreparedContext, type PreparedOperation, type PreparedOperations } from './prepared-operations.ts';

export interface SingleSourceFastPathOptions {
  /** The service of the source operations are forwarded to (`problems`). */
  service: ServiceName;
  /** The source's own schema as Mesh built it; until it is known, nothing is forwarded. */
  sourceSchema: () => GraphQLSchema | undefined;
  /** `Type.field` coordinates the gateway adds or resolves itself (see gatewayFieldsOf). */
  gatewayFields: ReadonlySet<string>;
  /** The source's GraphQL endpoint, as its handler calls it. */
  endpoint: string;
  /** Headers the source's handler sends besides `accept` and `content-type` (its `Authorization`). */
  headers: Record<string, string>;
  /** The gateway's upstream steps, composed (the same instances the handler's calls go through). */
  send: SendUpstream;
  /** The network fetch at the end of the steps. */
  network: MeshFetch;
  /** Aborts forwarded calls in flight when the mesh is destroyed, as the handler's own executor does. */
  signal?: AbortSignal;
  /** Links operations may still be forwarded with, the gateway completing them (linked-answer.ts). @default none */
  links?: LinkCompletionOptions;
  /**
   * The context Mesh gives a request's execution (its in-context SDK, the translation runtime), for
   * a linked operation answered in front of yoga: the links' resolvers read it. Without it, linked
   * operations are left to yoga every time.
   */
  contextOf?: (initial: PreparedContext) => object | Promise<object>;
}

/** What Mesh's GraphQL handler (graphql-tools' HTTP executor) accepts, so the source answers alike. */
const ACCEPT = 'application/graphql-response+json, application/json, multipart/mixed';

/**
 * A completion error as delegation reports it: a null (or a value its type cannot take) in a
 * non-null field is reported at its path with no locations, as graphql-tools' executor gives it over
 * a delegated result; any other error (a list of the wrong shape) keeps its locations.
 */
function asDelegationReports(error: GraphQLError): GraphQLError {
  if (!error.locations || !error.message.startsWith('Cannot return null for non-nullable field')) return error;
  return new GraphQLError(error.message, { path: error.path, extensions: error.extensions, originalError: error.originalError });
}

/** Results the shaper made (in selection order already). */
const shapedResults = new WeakSet<ExecutionResult>();

/**
 * The shaper's answer as the fast path gives it, with the bytes to write when they are known: the
 * source's own text of `{"data":…}` when the data is as it came and the text is exactly that (no
 * other key beside `data`), or the text the shaper wrote. Otherwise the completed data and its errors.
 */
function resultOf(shaped: ShapedAnswer, answer: object, text: string | undefined): ExecutionResult {
  let result: ExecutionResult;
  if (shaped.text !== undefined) result = textResult(shaped.text, shaped);
  else if (shaped.unchanged && text !== undefined && text.startsWith('{"data":') && text.endsWith('}') && onlyData(answer)) result = textResult(text, shaped);
  else result = shaped.errors ? { errors: shaped.errors, data: shaped.data } : { data: shaped.data };
  shapedResults.add(result);
  return result;
}

/** A result without errors whose text is known: its data read from the shaped answer only when something asks (the response cache, yoga's plugins). */
function textResult(text: string, shaped: ShapedAnswer): ExecutionResult {
  return {
    get data() {
      return shaped.data;
    },
    [ANSWER_TEXT]: text,
  } as ExecutionResult;
}

function onlyData(answer: object): boolean {
  for (const key in answer) if (key !== 'data') return false;
  return true;
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
export function createSingleSourceFastPath({
  service,
  sourceSchema,
  gatewayFields,
  endpoint,
  headers: sourceHeaders,
  send,
  network,
  signal,
  links,
  contextOf,
}: SingleSourceFastPathOptions): SingleSourceFastPath {
  // Completes linked and deferred operations over the source's answer (no links: deferred ones only).
  const complete = linkCompletion(links ?? { links: new Map(), resultFields: new Map() });
  const headers = { accept: ACCEPT, 'content-type': 'application/json', ...sourceHeaders };
  const prepared = createPreparedOperations();
  /** The shaper of each forwarded operation, compiled the first time it is needed (undefined: completed by execution). */
  const shapers = new WeakMap<ForwardableOperation, AnswerShaper | null>();
  const shaperOf = (forwarded: ForwardableOperation, document: DocumentNode, operationName: string | null | undefined): AnswerShaper | undefined => {
    let shaper = shapers.get(forwarded);
    if (shaper === undefined) {
      shaper = forwarded.deferred
        ? null
        : (compileAnswerShaper({ schema: forwarded.schema, document, operationName, links: forwarded.linked ? links : undefined, nullErrorsWithoutLocations: !forwarded.linked }) ?? null);
      shapers.set(forwarded, shaper);
    }
    return shaper ?? undefined;
  };
  let plans: ReturnType<typeof forwardableOperations> | undefined;
  const planOf = (schema: GraphQLSchema, document: DocumentNode, operationName: string | null | undefined): ForwardableOperation | undefined => {
    if (!plans) {
      const schemaOfSource = sourceSchema();
      if (!schemaOfSource) return undefined;
      plans = forwardableOperations({ sourceSchema: schemaOfSource, gatewayFields, links: links?.links });
    }
    return plans(schema, document, operationName);
  };

  /** The forwarded request for these client variables, or undefined when they send it the delegated way. */
  const requestFor = (
    forwarded: ForwardableOperation,
    schema: GraphQLSchema,
    clientVariables: Record<string, unknown> | null | undefined,
    coerced?: Record<string, unknown>,
  ): ForwardedRequest | undefined => {
    let variables: Record<string, unknown> = coerced ?? {};
    if (!coerced && forwarded.operation.variableDefinitions?.length) {
      const coerced = getVariableValues(schema, forwarded.operation.variableDefinitions, clientVariables ?? {});
      if (coerced.errors) return undefined;
      variables = coerced.coerced;
    }
    const request = { service, forwarded, variables, rootTypeName: schema.getQueryType()!.name };
    if (!forwarded.callsWhateverTheVariables && rootFieldsOf(request).every((field) => field.typename)) return undefined;
    return request;
  };

  /**
   * Forwards the operation and answers as delegation would. The source's answer is completed
   * against the public schema by graphql-js's own execution over its data (linked-answer.ts): a
   * null in a non-null field, a value an enum or scalar cannot represent, a list or object of the
   * wrong shape come out as the errors delegation gives, never as data. A linked or deferred one is
   * completed the same way, its links resolved by the gateway. When the source's answer holds
   * errors, a linked or deferred operation goes the delegated way after all (`delegate`), since
   * only delegation places a source's errors around links and deferred parts; a plain one keeps the
   * source's data and errors in the delegated form (delegated-answer.ts).
   */
  const forward = async (
    request: ForwardedRequest,
    clientVariables: Record<string, unknown> | null | undefined,
    context: unknown,
    args: Pick<ExecutionArgs, 'schema' | 'document' | 'operationName'>,
    delegate?: () => unknown,
  ): Promise<ExecutionResult | AsyncIterable<unknown>> => {
    const { forwarded } = request;
    // The client's own variables: the source coerces them as the gateway just did.
    const body = JSON.stringify({ query: forwarded.query, variables: clientVariables ?? undefined, operationName: forwarded.operationName });
    let answer: Parameters<typeof answerAsDelegated>[1];
    let response: Awaited<ReturnType<SendUpstream>> | undefined;
    try {
      response = await send({ service, url: endpoint, init: { method: 'POST', headers, body, signal }, context, info: undefined, readOnly: true, network });
      // The error step has read the body, checked it is a JSON object and reduced its errors.
      answer = (await response.json()) as typeof answer;
    } catch (error) {
      return failureAsDelegated(request, error);
    }
    const { data } = answer;
    const usable = !answer.errors?.length && data !== null && typeof data === 'object' && !Array.isArray(data);
    if (!usable) {
      if ((forwarded.linked || forwarded.deferred) && delegate) return delegate() as Promise<ExecutionResult>;
      return answerAsDelegated(request, answer);
    }
    const { schema, document, operationName } = args;
    const shaper = shaperOf(forwarded, document, operationName);
    if (shaper) {
      const shaping = shaper.shape(data as Record<string, unknown>, request.variables, context);
      const shaped = shaping instanceof Promise ? await shaping : shaping;
      if (shaped) return resultOf(shaped, answer, response?.textRead);
    }
    const completed = await complete({ schema, document, operationName, variableValues: clientVariables, contextValue: context, data: data as Record<string, unknown> });
    if (forwarded.linked || forwarded.deferred || Symbol.asyncIterator in completed || !completed.errors) return completed;
    return { ...completed, errors: completed.errors.map(asDelegationReports) };
  };

  /** What it takes to forward this validated operation again for any variables, without yoga. */
  const preparedOf = (schema: GraphQLSchema, document: DocumentNode, operationName: string | null | undefined, forwarded: ForwardableOperation): PreparedOperation => {
    const inSelectionOrder = forwarded.linked ? selectionOrderOf(schema, document, operationName) : undefined;
    return {
      strategy: 'forwarded',
      schema,
      document,
      operation: forwarded.operation,
      shaper: shaperOf(forwarded, document, operationName),
      bind(clientVariables, coerced) {
        const request = requestFor(forwarded, schema, clientVariables, coerced);
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
          return inSelectionOrder && !shapedResults.has(result) ? inSelectionOrder(result, request.variables) : result;
        };
      },
    };
  };

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
    prepared.remember(params.query, params.operationName, preparedOf(args.schema, args.document, args.operationName, forwarded));
  };

  const prepare = (schema: GraphQLSchema, document: DocumentNode, operationName: string | null | undefined): PreparedOperation | undefined => {
    const forwarded = planOf(schema, document, operationName);
    return forwarded && answeredInOnePiece(forwarded) ? preparedOf(schema, document, operationName, forwarded) : undefined;
  };

  /**
   * The execute function for these arguments when the operation can go to the source whole, around
   * `executeFn` (the delegated way, for variables that send it there after all), or undefined.
   */
  const executeFor = (args: ExecutionArgs, executeFn: ExecuteFn): ExecuteFn | undefined => {
    const forwarded = planOf(args.schema, args.document, args.operationName);
    if (!forwarded) return undefined;
    return (executeArgs) => {
      const request = requestFor(forwarded, executeArgs.schema, executeArgs.variableValues);
      if (!request) return executeFn(executeArgs);
      if (answeredInOnePiece(forwarded)) remember(executeArgs, forwarded);
      return forward(request, executeArgs.variableValues, executeArgs.contextValue, executeArgs, () => executeFn(executeArgs));
    };
  };
  return { executeFor, prepare, prepared };
}
