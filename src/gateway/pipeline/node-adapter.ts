import { isUtf8 } from 'node:buffer';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { GraphQLError, type ExecutionResult } from 'graphql';
import { processRegularResult } from 'graphql-yoga';
import { getCORSHeadersByRequestAndOptions, type CORSOptions } from '@whatwg-node/server';
import type { PreparedOperation, PreparedOperations, PreparedRun } from '../fast-path/prepared-operations.ts';
import {
  attachObservedRequest,
  newObservedRequest,
  operationNameOf,
  REQUEST_ID_HEADER,
  tellFinished,
  tellStarted,
  type ObservedRequest,
  type RequestHead,
  type RequestObserver,
} from '../observability/observed-request.ts';
import { memoized } from '../../shared/memoized.ts';
import { readStream } from '../../shared/read-stream.ts';
import { estimateOperation, type OperationEstimate } from '../operation-cost.ts';
import { identifyCaller, type CallerOptions } from '../guards/client-identity.ts';
import { normalizedContentType } from '../guards/content-type-case.ts';
import { cachingHeaders, matchesEtag, secondsLeft, type CachedAnswer, type CacheableParams, type ResponseCache } from '../execution/cache/response-cache.ts';
import { executionLimitError, variablesTooDeep, type ExecutionLimits } from '../guards/operation-limits.ts';
import { spendRequest, type BudgetCounter } from '../guards/rate-limits.ts';

/** What the listener needs to forward prepared operations itself (the fast path's, in front of yoga). */
export interface DirectForwarding {
  /** Texts yoga has vetted and the fast path forwarded (fast-path/prepared-operations.ts). */
  operations: PreparedOperations;
  /** The limits that depend on variables, checked again for every request. */
  limits: ExecutionLimits;
  /** The error masking every answer gets (use-error-masking.ts). */
  maskErrors: (result: ExecutionResult) => ExecutionResult;
  /** The translation arguments' check (use-translation-arguments.ts): a refusal hands the request to yoga, which words it. */
  argumentRefusal: (estimate: OperationEstimate) => GraphQLError | undefined;
  /** Spends the caller's translation budget for an operation that reaches the translation service: its 429, or undefined (use-rate-limits.ts). */
  translationBudget: (identity: string) => Promise<GraphQLError | undefined>;
  /** Told every answer's errors before they are masked, to log their causes as Mesh does for yoga's (mesh-logger.ts). */
  onErrors?: (errors: readonly GraphQLError[]) => void;
}

export interface AnswerOnNodeHttpOptions {
  /** The path GraphQL is served at, e.g. `/graphql`. */
  graphqlEndpoint: string;
  cache: ResponseCache;
  /** How callers are told apart and which keys are accepted (the key check's own rules). */
  caller: CallerOptions;
  /** The per-client requests budget: its counter and how many operations a window allows. */
  requests: { hit: BudgetCounter; limit: number };
  /** Bodies longer than this are yoga's to refuse (413). */
  maxBodyBytes: number;
  /** The request log, metrics and traces, told about each hit as about any request. */
  observers: RequestObserver[];
  /**
   * The CORS options yoga serves with: a browser's request (with an `Origin`) is answered here with
   * the CORS headers yoga would add, worked out by the same function. Without them, every request
   * with an `Origin` is yoga's.
   */
  cors?: CORSOptions;
  /** Forwarding of prepared operations; without it, only cache hits are answered here. */
  direct?: DirectForwarding;
  /** Serves everything this listener does not answer (yoga). */
  next: RequestListener;
}

/** What a hit is recorded as for the observers: an answer without errors. */
const ANSWER_WITHOUT_ERRORS = Object.freeze({});

/**
 * A listener in front of yoga that answers the commonest requests on node:http, without building web
 * Request/Response objects: repeated queries from the response cache (no parsing, validating or
 * executing), and queries one source answers whole whose text yoga has already vetted (the fast
 * path's prepared operations: no parsing or validating, one upstream call). It takes only what it can
 * answer exactly as yoga would: a JSON POST (or a GET) to the GraphQL path itself, asking for a JSON
 * answer; a browser's request (with an `Origin`) only when given yoga's CORS options, for its
 * headers. Everything yoga would check still is, with the same code: the key check and the requests
 * budget (a caller without an accepted key, or over its budget, is handed to yoga, which answers 401
 * or 429; an over-budget request is counted there once more, past a limit it has already reached);
 * for a forwarded query, the variables' depth, the limits that depend on them (cost, page sizes,
 * argument lengths, root fields) and their coercion, any of which, broken, hands the request to yoga
 * to word the error, before the budget is spent. Answers get yoga's error masking, are kept in the
 * response cache as yoga's would be, and the request log, metrics and traces see every request as
 * they see any.
 *
 * Everything else (other paths, batches, persisted-query hashes, other media types, texts not yet
 * vetted) goes on to yoga unchanged; a body read here goes along with the request, so nothing is
 * read twice.
 */
export function answerOnNodeHttp({ graphqlEndpoint, cache, caller, requests, maxBodyBytes, observers, cors, direct, next }: AnswerOnNodeHttpOptions): RequestListener {
  if (!cache.enabled && !direct) return next;
  return (request, response) => {
    const startedAt = performance.now();
    const mediaType = answerMediaType(request.headers.accept);
    const path = (request as { originalUrl?: string }).originalUrl || request.url || '';
    if (!mediaType || (request.headers.origin !== undefined && !cors) || (request as { body?: unknown }).body !== undefined) return next(request, response);
    const answerOrHandOn = (params: CacheableParams | undefined, body?: Buffer) => {
      const answered = params ? answer(request, response, params, mediaType, startedAt) : Promise.resolve(false);
      void answered.then(
        (done) => {
          if (done) return;
          if (body) (request as { body?: unknown }).body = alreadyRead(body);
          next(request, response);
        },
        () => failed(response),
      );
    };
    if (request.method === 'GET' && path.startsWith(`${graphqlEndpoint}?`)) {
      const params = paramsOfQueryString(path.slice(graphqlEndpoint.length + 1));
      if (!params) return next(request, response);
      return answerOrHandOn(params);
    }
    const length = Number(request.headers['content-length']);
    if (request.method !== 'POST' || path !== graphqlEndpoint || !isJson(request.headers['content-type']) || !(length > 0 && length <= maxBodyBytes)) {
      return next(request, response);
    }
    void readBody(request).then((body) => {
      if (!body) {
        // The client went away mid-body: nobody is waiting for an answer.
        response.destroy();
        return;
      }
      answerOrHandOn(isUtf8(body) ? paramsOfBody(body) : undefined, body);
    });
  };

  /** Writes the answer and returns true, or returns false for yoga to serve the request. */
  async function answer(request: IncomingMessage, response: ServerResponse, params: CacheableParams, mediaType: string, startedAt: number): Promise<boolean> {
    const authorization = request.headers.authorization;
    const key = cache.enabled ? cache.keyOf(authorization, params) : undefined;
    const cached = key === undefined ? undefined : await cache.read(key);
    const forward = cached ? undefined : forwardingOf(params);
    if (!cached && !forward) return false;
    const { identity, keyAccepted } = identifyCaller(
      { authorization, forwardedFor: headerOf(request, 'x-forwarded-for'), socketAddress: request.socket.remoteAddress },
      caller,
    );
    if (!keyAccepted) return false;
    const window = await spendRequest(requests.hit, identity);
    if (window && window.count > requests.limit) return false;

    const observed = newObservedRequest(headerOf(request, REQUEST_ID_HEADER), true, startedAt);
    const head: RequestHead = {
      method: request.method ?? 'GET',
      url: `http://${request.headers.host ?? 'localhost'}${request.url ?? ''}`,
      headers: { get: (name) => headerOf(request, name) ?? null },
    };
    tellStarted(observers, observed, head);
    const ifNoneMatch = headerOf(request, 'if-none-match');
    if (cached) {
      observed.lane = 'cache';
      observed.operations.set(observed, { name: cached.operationName, type: 'query' });
      observed.result = ANSWER_WITHOUT_ERRORS;
      writeAnswer(response, observed, head, 200, { 'content-type': `${mediaType}; charset=utf-8` }, cached.body, { cached, ifNoneMatch });
      return true;
    }
    const { run, operation, usesTranslation } = forward!;
    observed.lane = 'direct';
    observed.operations.set(observed, { name: operationNameOf(operation.name?.value), type: 'query' });
    attachObservedRequest(head, observed);
    let result: ExecutionResult;
    try {
      // As in yoga, where the check runs before execution: a spent budget is the whole answer.
      const refused = usesTranslation ? await direct!.translationBudget(identity) : undefined;
      const executed = refused ? { errors: [refused] } : await run({ request: head });
      if (executed.errors?.length) direct!.onErrors?.(executed.errors);
      result = direct!.maskErrors(executed);
    } catch (error) {
      // Forwarding reports the source's failures in the answer; this is the gateway's own fault.
      result = direct!.maskErrors({ errors: [new GraphQLError('Unexpected error.', { originalError: error as Error })] });
    }
    observed.result = result;
    if (!result.errors?.length && result.data != null) {
      const kept = key === undefined ? undefined : cache.keep(key, operation, result);
      writeAnswer(response, observed, head, 200, { 'content-type': `${mediaType}; charset=utf-8` }, kept?.body ?? JSON.stringify({ data: result.data }), {
        cached: kept,
        ifNoneMatch,
      });
      return true;
    }
    // yoga's own way of turning a result with errors into a status, headers and a body.
    const processed = processRegularResult(result, { Response } as unknown as Parameters<typeof processRegularResult>[1], mediaType);
    writeAnswer(response, observed, head, processed.status, Object.fromEntries(processed.headers), await processed.text());
    return true;
  }

  /** The answer's head and body, told to the observers first; a 304 when `If-None-Match` names a cached answer. */
  function writeAnswer(
    response: ServerResponse,
    observed: ObservedRequest,
    head: RequestHead,
    status: number,
    headers: Record<string, string | number>,
    body: string,
    validator?: { cached: CachedAnswer | undefined; ifNoneMatch: string | undefined },
  ): void {
    const all: Record<string, string | number> = { ...headers };
    const cached = validator?.cached;
    const notModified = cached !== undefined && matchesEtag(validator?.ifNoneMatch, cached.etag);
    // In yoga's order: its CORS step sets its headers over the answer's, then the response cache's
    // plugin sets its own and adds `Authorization` to whatever `Vary` already says.
    const corsHeaders = cors ? getCORSHeadersByRequestAndOptions(head as unknown as Request, cors) : null;
    for (const name in corsHeaders) all[name.toLowerCase()] = corsHeaders[name];
    if (cached) {
      for (const [name, value] of Object.entries(cachingHeaders(cached.etag, secondsLeft(cached)))) {
        all[name] = name === 'vary' && all.vary ? `${all.vary}, ${value}` : value;
      }
    }
    all[REQUEST_ID_HEADER] = observed.id;
    if (notModified) {
      delete all['content-type'];
      status = 304;
    } else {
      all['content-length'] = Buffer.byteLength(body);
    }
    tellFinished(observers, observed, status);
    response.writeHead(status, all);
    response.end(notModified ? undefined : body);
  }

  /**
   * How to forward this request itself: its text is a prepared operation and, with these variables,
   * breaks no limit and coerces; undefined sends it to yoga, which words whatever is wrong.
   */
  function forwardingOf(params: CacheableParams): { run: PreparedRun; operation: PreparedOperation['operation']; usesTranslation: boolean } | undefined {
    const prepared = direct?.operations.find(params.query, params.operationName);
    if (!prepared) return undefined;
    const variables = (params.variables ?? undefined) as Record<string, unknown> | undefined;
    if (variablesTooDeep(variables)) return undefined;
    const estimate = estimateOperation(prepared.schema, prepared.document, params.operationName, variables);
    if (!estimate?.coercedVariables || executionLimitError(estimate, direct!.limits) || direct!.argumentRefusal(estimate)) return undefined;
    const run = prepared.bind(variables, estimate.coercedVariables);
    return run && { run, operation: prepared.operation, usesTranslation: estimate.usesTranslation };
  }
}

/** A failure of this listener's own (never expected): a 500 like yoga's for an internal error, if nothing was sent yet. */
function failed(response: ServerResponse): void {
  if (response.headersSent) {
    response.destroy();
    return;
  }
  const body = JSON.stringify({ errors: [{ message: 'Unexpected error.', extensions: { code: 'INTERNAL_SERVER_ERROR' } }] });
  response.writeHead(500, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  response.end(body);
}

/**
 * The media type yoga would answer a one-off result with, for this `Accept` header, when it is JSON
 * (`application/json` or `application/graphql-response+json`); undefined when yoga would choose
 * otherwise. yoga goes through the listed types from last to first and keeps the last match, so
 * the client's first acceptable type wins; `*` matches both and yoga's last candidate, JSON, wins;
 * a type with a charset other than UTF-8 is skipped.
 */
export function answerMediaType(accept: string | undefined): string | undefined {
  return mediaTypeFor(accept || '*/*');
}

/** Clients send the same few `Accept` headers, each worked out once. */
const mediaTypeFor = memoized((accept): string | undefined => {
  for (const entry of accept.replace(/\s/g, '').toLowerCase().split(',')) {
    const [mediaType, ...parameters] = entry.split(';');
    const charset = parameters.find((parameter) => parameter.includes('charset=')) ?? 'charset=utf-8';
    if (charset !== 'charset=utf-8') continue;
    const [type, subtype] = mediaType.split('/');
    if (type !== '*' && type !== 'application') continue;
    if (subtype === 'graphql-response+json') return 'application/graphql-response+json';
    if (subtype === '*' || subtype === 'json') return 'application/json';
  }
  return undefined;
});

/** A JSON body in UTF-8, in any spelling of its media type yoga's parser is given (use-content-type-case.ts). */
function isJson(contentType: string | undefined): boolean {
  return contentType ? isJsonType(contentType) : false;
}

const isJsonType = memoized((contentType) => {
  const [mediaType, ...parameters] = normalizedContentType(contentType).split(';');
  return mediaType === 'application/json' && parameters.every((parameter) => !parameter.startsWith('charset=') || parameter.toLowerCase() === 'charset=utf-8');
});

function headerOf(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(', ') : value;
}

/**
 * A body read here, as yoga's node adapter takes one from `request.body` (as behind body-parsing
 * middleware). Not the Buffer itself: the adapter first lists the value's own keys, which for a
 * Buffer is one string per byte (123 ms for 1 MiB); this object has one key and yields the bytes.
 */
function alreadyRead(body: Buffer): { byteLength: number; [Symbol.asyncIterator](): AsyncGenerator<Buffer> } {
  return {
    byteLength: body.byteLength,
    async *[Symbol.asyncIterator]() {
      yield body;
    },
  };
}

/** The request's body, or undefined when the client went away before sending all of it. */
async function readBody(request: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  try {
    await readStream(request, (chunk) => void chunks.push(chunk));
  } catch {
    return undefined;
  }
  return Buffer.concat(chunks);
}

/**
 * The parameters of a plain JSON request body, or undefined for anything the cache must leave to
 * yoga: not an object (a batch is an array), no query text, a persisted-query hash or a trusted
 * document id (yoga resolves and checks those), fields of the wrong type.
 */
function paramsOfBody(body: Buffer): CacheableParams | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return undefined;
  const { query, variables, operationName, extensions, documentId } = parsed as Record<string, unknown>;
  return plainParams(query, variables, operationName, extensions, documentId);
}

/** As paramsOfBody, for a GET's query string; a parameter given twice is yoga's to judge. */
function paramsOfQueryString(search: string): CacheableParams | undefined {
  const entries = new URLSearchParams(search);
  const names = [...entries.keys()];
  if (new Set(names).size !== names.length) return undefined;
  const json = (name: string): unknown => {
    const value = entries.get(name);
    if (value === null) return undefined;
    try {
      return JSON.parse(value);
    } catch {
      return Symbol('not JSON');
    }
  };
  return plainParams(entries.get('query') ?? undefined, json('variables'), entries.get('operationName') ?? undefined, json('extensions'), entries.get('documentId') ?? undefined);
}

function plainParams(query: unknown, variables: unknown, operationName: unknown, extensions: unknown, documentId: unknown): CacheableParams | undefined {
  if (typeof query !== 'string' || documentId !== undefined) return undefined;
  if (variables !== undefined && variables !== null && (typeof variables !== 'object' || Array.isArray(variables))) return undefined;
  if (operationName !== undefined && operationName !== null && typeof operationName !== 'string') return undefined;
  if (extensions !== undefined && extensions !== null && (typeof extensions !== 'object' || 'persistedQuery' in extensions)) return undefined;
  return { query, variables, operationName: operationName as string | null | undefined };
}
