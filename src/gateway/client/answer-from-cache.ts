import { isUtf8 } from 'node:buffer';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { newObservedRequest, REQUEST_ID_HEADER, tellFinished, tellStarted, type RequestObserver } from '../observability/observed-request.ts';
import { identifyCaller, type CallerOptions } from './client-identity.ts';
import { cachingHeaders, matchesEtag, secondsLeft, type CacheableParams, type ResponseCache } from './response-cache.ts';
import { spendRequest, type BudgetCounter } from './use-rate-limits.ts';

export interface AnswerFromCacheOptions {
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
  /** Serves everything this listener does not answer (yoga). */
  next: RequestListener;
}

/** What a hit is recorded as for the observers: an answer without errors. */
const ANSWER_WITHOUT_ERRORS = Object.freeze({});

/**
 * A listener in front of yoga that answers repeated queries straight from the response cache, on
 * node:http, without building web Request/Response objects, parsing, validating or executing: a
 * hit costs about what a bare node:http server costs. It takes only what it can answer exactly as
 * yoga would: a JSON POST (or a GET) to the GraphQL path itself, with no `Origin` (a browser's CORS
 * request gets yoga's CORS headers), asking for a JSON answer, whose query, variables and operation
 * name are in the cache under the caller's credential. The guards still apply, with their own code: a caller
 * without an accepted key, or over its requests budget (the hit is counted), is handed to yoga, which
 * answers 401 or 429 (an over-budget request is counted there once more, past a limit it has already
 * reached). The request log, metrics and traces see a hit as they see any request.
 *
 * Everything else (other paths, batches, persisted-query hashes, other media types, misses) goes on
 * to yoga unchanged; a body read here goes along with the request, so nothing is read twice.
 */
export function answerFromCache({ graphqlEndpoint, cache, caller, requests, maxBodyBytes, observers, next }: AnswerFromCacheOptions): RequestListener {
  if (!cache.enabled) return next;
  return (request, response) => {
    const startedAt = performance.now();
    const mediaType = answerMediaType(request.headers.accept);
    const path = (request as { originalUrl?: string }).originalUrl || request.url || '';
    if (!mediaType || request.headers.origin !== undefined || (request as { body?: unknown }).body !== undefined) return next(request, response);
    if (request.method === 'GET' && path.startsWith(`${graphqlEndpoint}?`)) {
      const params = paramsOfQueryString(path.slice(graphqlEndpoint.length + 1));
      if (!params) return next(request, response);
      void answer(request, response, params, mediaType, startedAt).then((answered) => {
        if (!answered) next(request, response);
      });
      return;
    }
    const length = Number(request.headers['content-length']);
    if (request.method !== 'POST' || path !== graphqlEndpoint || !isJson(request.headers['content-type']) || !(length > 0 && length <= maxBodyBytes)) {
      return next(request, response);
    }
    void readBody(request).then(async (body) => {
      if (!body) {
        // The client went away mid-body: nobody is waiting for an answer.
        response.destroy();
        return;
      }
      const params = isUtf8(body) ? paramsOfBody(body) : undefined;
      if (params && (await answer(request, response, params, mediaType, startedAt))) return;
      (request as { body?: unknown }).body = alreadyRead(body);
      next(request, response);
    });
  };

  /** Writes the cached answer and returns true, or returns false for yoga to serve the request. */
  async function answer(request: IncomingMessage, response: ServerResponse, params: CacheableParams, mediaType: string, startedAt: number): Promise<boolean> {
    const authorization = request.headers.authorization;
    const cached = await cache.read(cache.keyOf(authorization, params));
    if (!cached) return false;
    const { identity, keyAccepted } = identifyCaller(
      { authorization, forwardedFor: headerOf(request, 'x-forwarded-for'), socketAddress: request.socket.remoteAddress },
      caller,
    );
    if (!keyAccepted) return false;
    const window = await spendRequest(requests.hit, identity);
    if (window && window.count > requests.limit) return false;

    const observed = newObservedRequest(headerOf(request, REQUEST_ID_HEADER), true, startedAt);
    tellStarted(observers, observed, {
      method: request.method ?? 'GET',
      url: `http://${request.headers.host ?? 'localhost'}${request.url ?? ''}`,
      headers: { get: (name) => headerOf(request, name) ?? null },
    });
    observed.operations.set(observed, { name: cached.operationName, type: 'query' });
    observed.result = ANSWER_WITHOUT_ERRORS;
    const notModified = matchesEtag(headerOf(request, 'if-none-match'), cached.etag);
    const status = notModified ? 304 : 200;
    const headers: Record<string, string | number> = {
      ...cachingHeaders(cached.etag, secondsLeft(cached)),
      [REQUEST_ID_HEADER]: observed.id,
    };
    if (!notModified) {
      headers['content-type'] = `${mediaType}; charset=utf-8`;
      headers['content-length'] = Buffer.byteLength(cached.body);
    }
    tellFinished(observers, observed, status);
    response.writeHead(status, headers);
    response.end(notModified ? undefined : cached.body);
    return true;
  }
}

/**
 * The media type yoga would answer a one-off result with, for this `Accept` header, when it is JSON
 * (`application/json` or `application/graphql-response+json`); undefined when yoga would choose
 * otherwise. yoga goes through the listed types from last to first and keeps the last match, so
 * the client's first acceptable type wins; `*` matches both and yoga's last candidate, JSON, wins;
 * a type with a charset other than UTF-8 is skipped.
 */
export function answerMediaType(accept: string | undefined): string | undefined {
  for (const entry of (accept || '*/*').replace(/\s/g, '').toLowerCase().split(',')) {
    const [mediaType, ...parameters] = entry.split(';');
    const charset = parameters.find((parameter) => parameter.includes('charset=')) ?? 'charset=utf-8';
    if (charset !== 'charset=utf-8') continue;
    const [type, subtype] = mediaType.split('/');
    if (type !== '*' && type !== 'application') continue;
    if (subtype === 'graphql-response+json') return 'application/graphql-response+json';
    if (subtype === '*' || subtype === 'json') return 'application/json';
  }
  return undefined;
}

function isJson(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const [mediaType, ...parameters] = contentType.toLowerCase().split(';').map((part) => part.trim());
  return mediaType === 'application/json' && parameters.every((parameter) => !parameter.startsWith('charset=') || parameter === 'charset=utf-8');
}

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

function readBody(request: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.once('end', () => resolve(Buffer.concat(chunks)));
    request.once('error', () => resolve(undefined));
    request.once('aborted', () => resolve(undefined));
  });
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
