import { GraphQLError, type ExecutionResult } from 'graphql';
import { isAsyncIterable, mapAsyncIterator, type Plugin } from 'graphql-yoga';
import { ErrorCode, REQUEST_ERROR_CODES, upstreamErrorIn } from '../errors.ts';
import { upstreamAnswerServiceOf } from '../upstream/upstream-errors.ts';

export interface ErrorMaskingOptions {
  /** Production: an error the gateway does not know is reduced to "Unexpected error.". */
  production: boolean;
}

/** Extension keys a client may see; everything else (stacks, upstream bodies, URLs) is dropped. */
const PUBLIC_EXTENSIONS = new Set(['code', 'service', 'status', 'retryAfter', 'argument', 'limit', 'actual', 'http']);

/** Codes whose messages the gateway or GraphQL itself wrote for clients. */
const KNOWN_CODES = new Set<string>([...Object.values(ErrorCode), ...REQUEST_ERROR_CODES]);
// Its message is exactly what production hides.
KNOWN_CODES.delete(ErrorCode.InternalServerError);

/**
 * Codes for the request errors yoga and graphql-js raise without one, so every error a client gets
 * carries a code to switch on.
 */
const CODES_FOR_UNCODED: [RegExp, string][] = [
  [/^Variable "\$/, ErrorCode.BadUserInput],
  [/CSRF/, ErrorCode.CsrfCheckFailed],
];

/**
 * graphql-js's "Did you mean …?" in every form (fields, arguments, types, enum values, input fields in
 * variables): the names it suggests are the schema that production hides. GraphQL names hold no "?".
 */
const SUGGESTION = /\s*Did you mean [^?]*\?/g;

/**
 * The one masking step, the last word on every error a client receives, whichever way the answer was
 * produced (yoga's own masking is off: this replaces it). An error whose cause is not a GraphQL error
 * (a resolver or plugin that threw) is "Unexpected error." in every mode, unless the cause is an
 * upstream failure, which carries the gateway's own message and code (UPSTREAM_UNAVAILABLE, say);
 * only public extension keys survive, in every mode;
 * an uncoded request error gets a code; the same error reported twice (once per validation pass) is
 * sent once; in production, an error without a known code (an internal failure) keeps its path but
 * loses its message, and no message suggests names. An error an upstream wrote in its answer is never
 * the gateway's own, whatever code it claimed: it is UPSTREAM_ERROR, and in production its message
 * is the gateway's.
 */
export function useErrorMasking(mask: (result: ExecutionResult) => ExecutionResult): Plugin {
  // An increment of a deferred or streamed answer carries errors of its own too.
  const maskIncrement = (payload: unknown): unknown => {
    const masked = mask(payload as ExecutionResult) as ExecutionResult & { incremental?: ExecutionResult[] };
    return masked.incremental ? { ...masked, incremental: masked.incremental.map(mask) } : masked;
  };
  return {
    onResultProcess({ result, setResult }) {
      if (Array.isArray(result)) setResult(result.map(mask));
      else if (isAsyncIterable(result)) setResult(mapAsyncIterator(result, maskIncrement) as typeof result);
      else if (result && typeof result === 'object' && 'errors' in result) setResult(mask(result as ExecutionResult));
    },
  };
}

/** The masking of useErrorMasking for one result (also applied by the listener in front of yoga). */
export function errorMasking({ production }: ErrorMaskingOptions): (result: ExecutionResult) => ExecutionResult {
  const shape = (error: GraphQLError): GraphQLError => {
    if (thrownUnexpectedly(error)) {
      const http = error.extensions?.http;
      return new GraphQLError('Unexpected error.', {
        nodes: error.nodes,
        source: error.source,
        positions: error.positions,
        path: error.path,
        extensions: http ? { code: ErrorCode.InternalServerError, http } : { code: ErrorCode.InternalServerError },
        originalError: error.originalError ?? undefined,
      });
    }
    const upstream = upstreamAnswerServiceOf(error);
    const extensions = upstream
      ? { code: ErrorCode.UpstreamError, service: upstream }
      : Object.fromEntries(Object.entries(error.extensions ?? {}).filter(([key]) => PUBLIC_EXTENSIONS.has(key)));
    if (extensions.code === undefined && !error.path) {
      extensions.code = CODES_FOR_UNCODED.find(([pattern]) => pattern.test(error.message))?.[1] ?? 'GRAPHQL_VALIDATION_FAILED';
    }
    const known = typeof extensions.code === 'string' && KNOWN_CODES.has(extensions.code);
    const masked = production && !known;
    let message = error.message;
    if (production && upstream) message = `The ${upstream} service reported an error.`;
    else if (masked) message = 'Unexpected error.';
    else if (production) message = message.replace(SUGGESTION, '');
    return new GraphQLError(message, {
      nodes: error.nodes,
      source: error.source,
      positions: error.positions,
      path: error.path,
      extensions: masked ? { code: ErrorCode.InternalServerError } : extensions,
      originalError: error.originalError ?? undefined,
    });
  };
  const shapeResult = (result: ExecutionResult): ExecutionResult => {
    if (!result.errors) return result;
    const seen = new Set<string>();
    const errors = result.errors
      .map((error) => shape(error instanceof GraphQLError ? error : new GraphQLError(String(error))))
      .filter((error) => {
        const identity = JSON.stringify([error.message, error.locations, error.path]);
        if (seen.has(identity)) return false;
        seen.add(identity);
        return true;
      });
    return { ...result, errors };
  };
  return shapeResult;
}

/**
 * An error whose cause, however deep, is not a GraphQL error (a plain Error a resolver or plugin
 * threw), and not an upstream failure: its message is the code's, not one written for clients.
 */
function thrownUnexpectedly(error: GraphQLError): boolean {
  if (upstreamErrorIn(error)) return false;
  for (let cause: unknown = error.originalError, depth = 0; cause != null && depth < 8; depth += 1) {
    if (!(cause instanceof GraphQLError)) return true;
    cause = cause.originalError;
  }
  return false;
}
