import { getVariableValues, type ExecutionArgs, type ExecutionResult, type GraphQLSchema } from 'graphql';
import type { MeshFetch, MeshPlugin } from '@graphql-mesh/types';
import type { ServiceName } from '../errors.ts';
import type { SendUpstream } from '../upstream/upstream-call.ts';
import { answerAsDelegated, failureAsDelegated, rootFieldsOf } from './delegated-answer.ts';
import { forwardableOperations, type ForwardableOperation } from './forwardable-operation.ts';

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
}

/** What Mesh's GraphQL handler (graphql-tools' HTTP executor) accepts, so the source answers alike. */
const ACCEPT = 'application/graphql-response+json, application/json, multipart/mixed';

/**
 * Operations one source can answer whole (see forwardable-operation.ts) skip Mesh's delegation: the
 * client's operation and variables go to the source as they are, in one POST through the same
 * upstream steps as every other call (problems cache, error shaping, size bound, retries and
 * budget, observation), and the answer comes back in the form the delegated path gives
 * (delegated-answer.ts). Only the execute function is replaced, so every plugin around execution
 * (selection order, limits, response cache, error masking, request log) sees the request as it would
 * otherwise. Anything else, an operation whose variables do not coerce (graphql-js words that
 * error) and one whose variables skip every source field go the delegated way.
 */
export function useSingleSourceFastPath({
  service,
  sourceSchema,
  gatewayFields,
  endpoint,
  headers: sourceHeaders,
  send,
  network,
  signal,
}: SingleSourceFastPathOptions): MeshPlugin<object> {
  const headers = { accept: ACCEPT, 'content-type': 'application/json', ...sourceHeaders };
  let plans: ReturnType<typeof forwardableOperations> | undefined;
  const planOf = ({ schema, document, operationName }: ExecutionArgs): ForwardableOperation | undefined => {
    if (!plans) {
      const schemaOfSource = sourceSchema();
      if (!schemaOfSource) return undefined;
      plans = forwardableOperations({ sourceSchema: schemaOfSource, gatewayFields });
    }
    return plans(schema, document, operationName);
  };

  const forward = async (forwarded: ForwardableOperation, args: ExecutionArgs, delegate: (args: ExecutionArgs) => unknown): Promise<ExecutionResult> => {
    let variables: Record<string, unknown> = {};
    if (forwarded.operation.variableDefinitions?.length) {
      const coerced = getVariableValues(args.schema, forwarded.operation.variableDefinitions, args.variableValues ?? {});
      if (coerced.errors) return delegate(args) as Promise<ExecutionResult>;
      variables = coerced.coerced;
    }
    const request = { service, forwarded, variables, rootTypeName: args.schema.getQueryType()!.name };
    if (!forwarded.callsWhateverTheVariables && rootFieldsOf(request).every((field) => field.typename)) return delegate(args) as Promise<ExecutionResult>;
    // The client's own variables: the source coerces them as the gateway just did.
    const body = JSON.stringify({ query: forwarded.query, variables: args.variableValues ?? undefined, operationName: forwarded.operationName });
    let answer: Parameters<typeof answerAsDelegated>[1];
    try {
      const response = await send({
        service,
        url: endpoint,
        init: { method: 'POST', headers, body, signal },
        context: args.contextValue,
        info: undefined,
        readOnly: true,
        network,
      });
      // The error step has read the body, checked it is a JSON object and reduced its errors.
      answer = JSON.parse(await response.text());
    } catch (error) {
      return failureAsDelegated(request, error);
    }
    return answerAsDelegated(request, answer);
  };

  return {
    onExecute({ args, executeFn, setExecuteFn }) {
      const forwarded = planOf(args);
      if (!forwarded) return;
      setExecuteFn((executeArgs) => forward(forwarded, executeArgs, executeFn));
    },
  };
}
