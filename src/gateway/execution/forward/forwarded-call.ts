import { GraphQLError, type ExecutionArgs, type ExecutionResult } from 'graphql';
import type { MeshFetch } from '@graphql-mesh/types';
import type { ServiceName } from '../../errors.ts';
import type { SendUpstream } from '../../upstream/upstream-call.ts';
import { answerAsDelegated, failureAsDelegated, type ForwardedRequest } from './delegated-answer.ts';
import type { ForwardableOperation } from './forwardable-operation.ts';
import { compileAnswerShaper, type AnswerShaper, type ShapedAnswer } from './answer-shaper.ts';
import { linkCompletion, type LinkCompletionOptions } from './linked-answer.ts';
import { ANSWER_TEXT } from './prepared-operations.ts';

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

/** Whether the shaper made this result (its fields are in selection order already). */
export function isShaped(result: ExecutionResult): boolean {
  return shapedResults.has(result);
}

/** The shaper of each forwarded operation, compiled the first time it is needed; undefined: completed by execution. */
export type ShaperOf = (forwarded: ForwardableOperation) => AnswerShaper | undefined;

export function answerShapers(links: LinkCompletionOptions | undefined): ShaperOf {
  const shapers = new WeakMap<ForwardableOperation, AnswerShaper | null>();
  return (forwarded) => {
    let shaper = shapers.get(forwarded);
    if (shaper === undefined) {
      shaper = forwarded.deferred
        ? null
        : (compileAnswerShaper({ schema: forwarded.schema, operation: forwarded.operation, fragments: forwarded.fragments, links: forwarded.linked ? links : undefined, nullErrorsWithoutLocations: !forwarded.linked }) ?? null);
      shapers.set(forwarded, shaper);
    }
    return shaper ?? undefined;
  };
}

export interface ForwardedCallOptions {
  /** The service of the source operations are forwarded to (`problems`). */
  service: ServiceName;
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
  shaperOf: ShaperOf;
}

/** Forwards one request's operation and answers as delegation would (see ForwardedCall). */
export type ForwardedCall = (
  request: ForwardedRequest,
  clientVariables: Record<string, unknown> | null | undefined,
  context: unknown,
  args: Pick<ExecutionArgs, 'schema' | 'document' | 'operationName'>,
  delegate?: () => unknown,
) => Promise<ExecutionResult | AsyncIterable<unknown>>;

/**
 * Forwards the operation and answers as delegation would. The source's answer is completed
 * against the public schema by the plan's shaper (answer-shaper.ts), else by graphql-js's own
 * execution over its data (linked-answer.ts): a null in a non-null field, a value an enum or scalar
 * cannot represent, a list or object of the wrong shape come out as the errors delegation gives,
 * never as data. A linked or deferred one is completed the same way, its links resolved by the
 * gateway. When the source's answer holds errors, a linked or deferred operation goes the
 * delegated way after all (`delegate`), since only delegation places a source's errors around
 * links and deferred parts; a plain one keeps the source's data and errors in the delegated form
 * (delegated-answer.ts).
 */
export function forwardedCall({ service, endpoint, headers: sourceHeaders, send, network, signal, links, shaperOf }: ForwardedCallOptions): ForwardedCall {
  // Completes linked and deferred operations over the source's answer (no links: deferred ones only).
  const complete = linkCompletion(links ?? { links: new Map(), resultFields: new Map() });
  const headers = { accept: ACCEPT, 'content-type': 'application/json', ...sourceHeaders };
  return async (request, clientVariables, context, args, delegate) => {
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
    const shaper = shaperOf(forwarded);
    if (shaper) {
      const shaping = shaper.shape(data as Record<string, unknown>, request.variables, context);
      const shaped = shaping instanceof Promise ? await shaping : shaping;
      if (shaped) return resultOf(shaped, answer, response?.textRead);
    }
    const completed = await complete({ schema, document, operationName, variableValues: clientVariables, contextValue: context, data: data as Record<string, unknown> });
    if (forwarded.linked || forwarded.deferred || Symbol.asyncIterator in completed || !completed.errors) return completed;
    return { ...completed, errors: completed.errors.map(asDelegationReports) };
  };
}
