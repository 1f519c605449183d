import { GraphQLError, type ExecutionResult } from 'graphql';

/** What an error may carry for the HTTP answer (yoga's convention, which the gateway's errors follow). */
interface HttpExtension {
  status?: number;
  headers?: Record<string, string>;
  /** A request error the GraphQL over HTTP spec words (validation): 200 with `application/json`. */
  spec?: boolean;
}

/**
 * The status and the headers errors ask for, of one result answered in `mediaType` (a batch is 200
 * whatever its operations say), by the rules of the GraphQL over HTTP spec as graphql-yoga 5.24
 * applies them (its `getResponseInitByRespectingErrors`), so that an error reads the same whichever
 * way answers it: the highest status an error asks for (`extensions.http.status`), except a spec
 * error's with `application/json` (a validation error is 200 there, 400 with
 * `application/graphql-response+json`); else 500 for an unexpected error without data, else 200.
 */
export function resultHead(result: ExecutionResult, mediaType: string): { status: number; headers: Record<string, string> } {
  const headers: Record<string, string> = {};
  let status = addHttp(headers, (result.extensions as { http?: HttpExtension } | undefined)?.http);
  const errors = result.errors;
  if (!errors?.length) return { status: status ?? 200, headers };
  const specAllowed = mediaType === 'application/json' && errors.some(isGraphQLError) && errors.some((error) => !error.extensions?.originalError || isGraphQLError(error.extensions.originalError));
  let unexpected = false;
  for (const error of errors) {
    const http = error.extensions?.http as HttpExtension | undefined;
    if (http) {
      const asked = addHttp(headers, http);
      if (specAllowed && http.spec) continue;
      if (asked && (status === undefined || asked > status)) status = asked;
    } else if (!isOriginalGraphQLError(error) || error.extensions?.unexpected) {
      unexpected = true;
    }
  }
  return { status: status ?? (unexpected && !('data' in result) ? 500 : 200), headers };
}

/**
 * The JSON text of a result as clients get it: each error as graphql-js writes it (message,
 * locations, path, extensions) without the extensions meant for the answer's head (`http`) or the
 * server (`unexpected`), and the result's own `extensions` without `http`.
 */
export function resultText(result: ExecutionResult): string {
  const http = (result.extensions as { http?: unknown } | undefined)?.http;
  if (!result.errors?.length && http === undefined) return JSON.stringify(result);
  const written: Record<string, unknown> = { ...result };
  if (result.errors) written.errors = result.errors.map(publicError);
  if (http !== undefined) {
    const { http: _http, ...extensions } = result.extensions!;
    written.extensions = Object.keys(extensions).length > 0 ? extensions : undefined;
  }
  return JSON.stringify(written);
}

function publicError(error: GraphQLError): unknown {
  if (!isGraphQLError(error)) return error;
  const { http: _http, unexpected: _unexpected, ...extensions } = (error.toJSON().extensions ?? {}) as Record<string, unknown>;
  const written: Record<string, unknown> = { message: error.message };
  if (error.locations !== undefined) written.locations = error.locations;
  if (error.path !== undefined) written.path = error.path;
  if (Object.keys(extensions).length > 0) written.extensions = extensions;
  return written;
}

/** Adds the headers an `http` extension asks for (by their names as a `Headers` gives them); returns its status. */
function addHttp(headers: Record<string, string>, http: HttpExtension | undefined): number | undefined {
  if (!http) return undefined;
  if (http.headers) for (const name in http.headers) headers[name.toLowerCase()] = http.headers[name];
  return http.status || undefined;
}

function isGraphQLError(error: unknown): error is GraphQLError {
  return error instanceof GraphQLError;
}

function isOriginalGraphQLError(error: unknown): boolean {
  if (!(error instanceof GraphQLError)) return false;
  return error.originalError == null ? true : isOriginalGraphQLError(error.originalError);
}
