import { isUtf8 } from 'node:buffer';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { GraphQLError, type ExecutionResult } from 'graphql';
import { processRegularResult } from 'graphql-yoga';
import { getCORSHeadersByRequestAndOptions, type CORSOptions } from '@whatwg-node/server';
import { answerText, type PreparedOperation, type PreparedOperations, type PreparedRun } from '../execution/forward/prepared-operations.ts';
import { operationNameOf, REQUEST_ID_HEADER, tellFinished, type RequestObserver } from '../observability/observed-request.ts';
import { memoized } from '../../shared/memoized.ts';
import { readStream } from '../../shared/read-stream.ts';
import { estimateOperation } from '../execution/shape/operation-cost.ts';
import type { OperationEstimate } from '../request/operation-estimate.ts';
import { normalizedContentType } from '../guards/content-type-case.ts';
import { cacheControlOf, cachingHeaders, matchesEtag, secondsLeft, type CacheableParams, type ResponseCache } from '../execution/cache/response-cache.ts';
import type { CachedAnswer } from '../request/cached-answer.ts';
import { UNEXPECTED_ERROR, UNEXPECTED_RESULT, type EarlyAnswer } from '../request/early-answer.ts';
import type { GatewayRequest } from '../request/gateway-request.ts';
import type { GuardList } from '../request/guards.ts';
import { answerLanguageHeaders, answerLanguageOf } from '../request/languages-served.ts';
import { createGatewayRequest } from './create-gateway-request.ts';
import type { DocumentPlanner } from './document-planner.ts';
import { runHeadGuards, runOperationGuards, runParamsGuards } from './guard-list.ts';

/** What the adapter needs to forward prepared operations itself (the fast path's, in front of yoga). */
export interface DirectForwarding {
  /** The plans of the texts seen (execution/forward/prepared-operations.ts). */
  operations: PreparedOperations;
  /** Plans a text seen for the first time (document-planner.ts); without it, only texts yoga has forwarded are. */
  plan?: DocumentPlanner;
  /** Told every answer's errors before they are masked, to log their causes as Mesh does for yoga's (mesh-logger.ts). */
  onErrors?: (errors: readonly GraphQLError[]) => void;
}

export interface NodeAdapterOptions {
  /** Every check a request goes through (guard-list.ts): run here as in yoga. */
  guards: GuardList;
  cache: ResponseCache;
  /** The one masking step every answer gets (error-masking.ts). */
  maskErrors: (result: ExecutionResult) => ExecutionResult;
  /** The request log, metrics and traces, told about each answer written here as about any. */
  observers: RequestObserver[];
  /**
   * The CORS options yoga serves with: an answer written here to a browser's request (with an
   * `Origin`) gets the CORS headers yoga would add, worked out by the same function. Without them,
   * every GraphQL request with an `Origin` is yoga's.
   */
  cors?: CORSOptions;
  /** Forwarding of prepared operations; without it, only cache hits are answered here. */
  direct?: DirectForwarding;
  /** Serves everything this adapter does not answer (yoga), given the request object made here. */
  next: (request: IncomingMessage, response: ServerResponse, context: { gateway: GatewayRequest }) => void;
}

/**
 * The node:http adapter: a request listener, and its `checkContinue` for the server's
 * 'checkContinue' event (`server.on('checkContinue', adapter.checkContinue)`). Given a request sent
 * with `Expect: 100-continue`, node:http answers `100 Continue` itself before emitting 'request',
 * so a client the head guards then refuse has already been told to upload its body; with a
 * 'checkContinue' listener it emits that instead of 'request' (never both) and sends nothing.
 * `checkContinue` runs the head guards first, once, as the listener does: refused, the refusal
 * is the answer and no body is asked for; let through, `100 Continue` goes out and the request
 * is served as by the listener.
 */
export interface NodeAdapter extends RequestListener {
  checkContinue: RequestListener;
}

/** The `Content-Type` of a JSON answer in each media type answerMediaType picks, written once. */
const CONTENT_TYPES: Record<string, string> = {
  'application/json': 'application/json; charset=utf-8',
  'application/graphql-response+json': 'application/graphql-response+json; charset=utf-8',
};

function contentTypeOf(mediaType: string): string {
  return CONTENT_TYPES[mediaType] ?? `${mediaType}; charset=utf-8`;
}

/** What a hit is recorded as for the observers: an answer without errors. */
const ANSWER_WITHOUT_ERRORS = Object.freeze({});

/**
 * The node:http adapter of the guard list, in front of yoga. Every request gets its request object
 * here and goes through the head guards (route, key, rate limit, declared length…) before any body
 * is read: a refusal costs no body reading or parsing. Then the commonest requests are answered
 * here, without building web Request/Response objects: repeated queries from the response cache (no
 * parsing, validating or executing), and queries one source answers whole whose text yoga has
 * already vetted (the fast path's prepared operations: no parsing or validating, one upstream
 * call), after the params and operation guards, the same ones yoga runs. It takes only what it can
 * answer exactly as yoga would: a JSON POST (or a GET) asking for a JSON answer; a browser's request
 * (with an `Origin`) only when given yoga's CORS options, for its headers. Answers get the one
 * masking step, are kept in the response cache as yoga's would be, and the observers see every
 * request as they see any.
 *
 * Everything else (other routes, batches, persisted-query hashes, other media types, texts not yet
 * vetted) goes on to yoga with its request object, head guards done; a body read here goes along
 * with the request, so nothing is read twice.
 */
export function createNodeAdapter({ guards, cache, maskErrors, observers, cors, direct, next }: NodeAdapterOptions): NodeAdapter {
  const closeUnread = lingeringCloser();
  const listener: NodeAdapter = Object.assign((request: IncomingMessage, response: ServerResponse) => handle(request, response, false), {
    checkContinue: (request: IncomingMessage, response: ServerResponse) => handle(request, response, true),
  });
  return listener;

  /** `continueFirst`: node:http has not sent `100 Continue` (a 'checkContinue' request); sent here once the head guards let the request through. */
  function handle(request: IncomingMessage, response: ServerResponse, continueFirst: boolean): void {
    // Express and Connect hand a mounted middleware the path below its mount (`url`) and keep the
    // one the client asked for (`originalUrl`): routes are matched below the mount.
    const original = (request as { originalUrl?: string }).originalUrl;
    const target = original || request.url || '/';
    const base = `${(request.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http'}://${request.headers.host ?? 'localhost'}`;
    const url = base + target;
    const { pathname: fullPath, hasQueryParameter } = urlFacts(url);
    const mountPath = (original !== undefined && request.url !== undefined && request.url !== original && mountPathOf(fullPath, urlFacts(base + request.url).pathname)) || undefined;
    const gateway = createGatewayRequest({
      head: { method: request.method ?? 'GET', url, headers: { get: (name) => headerOf(request, name) ?? null } },
      pathname: mountPath === undefined ? fullPath : fullPath.slice(mountPath.length) || '/',
      mountPath,
      hasQueryParameter,
      socketAddress: request.socket.remoteAddress,
    });
    const afterHead = (answer: EarlyAnswer | undefined) => {
      // Refused without `100 Continue`: a client that waits for it sends no body at all (writeEarly
      // still closes the connection, which node:http would not keep alive after such an answer).
      if (answer) return writeEarly(request, response, gateway, answer);
      if (continueFirst) response.writeContinue();
      serve(request, response, gateway, target);
    };
    try {
      const answered = runHeadGuards(guards.head, gateway);
      if (answered instanceof Promise) answered.then(afterHead).catch(() => failed(response, gateway, request));
      else afterHead(answered);
    } catch {
      // A guard (an app's own, say) that throws is the gateway's fault, never the end of the process.
      failed(response, gateway, request);
    }
  }

  function serve(request: IncomingMessage, response: ServerResponse, gateway: GatewayRequest, target: string): void {
    const handOn = (body?: Buffer) => {
      if (body) (request as { body?: unknown }).body = alreadyRead(body);
      next(request, response, { gateway });
    };
    if ((!cache.enabled && !direct) || !gateway.graphql) return handOn();
    const mediaType = answerMediaType(request.headers.accept);
    if (!mediaType || (request.headers.origin !== undefined && !cors) || (request as { body?: unknown }).body !== undefined) return handOn();
    const answerOrHandOn = (params: CacheableParams | undefined, raw?: { key: string | undefined; length: number }, body?: Buffer) => {
      const answered = params ? answer(response, gateway, params, mediaType, raw) : Promise.resolve(false);
      void answered.then(
        (done) => {
          if (!done) handOn(body);
        },
        () => failed(response, gateway, request),
      );
    };
    if (request.method === 'GET') {
      const query = target.indexOf('?');
      if (query < 0) return answerOrHandOn(undefined);
      const search = target.slice(query + 1);
      const rawKey = rawKeyOf(gateway, 'GET', search);
      if (rawKey !== undefined && answerKnown(request, response, gateway, rawKey, mediaType)) return;
      return answerOrHandOn(paramsOfQueryString(search), { key: rawKey, length: search.length });
    }
    // A body of undeclared length (chunked) is yoga's, which reads it bounded; a declared one was
    // checked against MAX_BODY_BYTES by the head guards.
    const length = Number(request.headers['content-length']);
    if (request.method !== 'POST' || !isJson(request.headers['content-type']) || !(length > 0)) return handOn();
    void readBody(request).then((body) => {
      if (!body) {
        // The client went away mid-body: nobody is waiting for an answer.
        tellFinished(observers, gateway.observed, CLIENT_CLOSED_REQUEST);
        response.destroy();
        return;
      }
      // Latin-1 maps each byte to one character: the bytes as they came, whatever they encode.
      const rawKey = body.length <= MAX_KNOWN_BODY_BYTES ? rawKeyOf(gateway, 'POST', body.toString('latin1')) : undefined;
      if (rawKey !== undefined && answerKnown(request, response, gateway, rawKey, mediaType)) return;
      answerOrHandOn(isUtf8(body) ? paramsOfBody(body) : undefined, { key: rawKey, length: body.length }, body);
    });
  }

  /** The request's raw key (response-cache.ts), when the cache is on. */
  function rawKeyOf({ head, readerLanguages }: GatewayRequest, method: string, raw: string): string | undefined {
    return cache.enabled ? cache.rawKeyOf(head.headers.get('authorization'), `${method} ${raw}`, readerLanguages.key) : undefined;
  }

  /**
   * Answers a request whose exact bytes were answered from the cache or kept in it lately, while its
   * answer is held here: no parsing, no key, no promise; the params guards see the parameters those
   * bytes parsed to. Returns false for the request to be parsed and served as any.
   */
  function answerKnown(request: IncomingMessage, response: ServerResponse, gateway: GatewayRequest, rawKey: string, mediaType: string): boolean {
    const known = cache.recall(rawKey);
    const cached = known && cache.peek(known.key);
    if (!cached) return false;
    const refused = runParamsGuards(guards.params, gateway, known.params);
    if (refused) {
      void refuse(response, gateway, known.params, refused, mediaType).catch(() => failed(response, gateway, request));
      return true;
    }
    writeHit(response, gateway, cached, mediaType);
    return true;
  }

  /** Writes the answer and returns true, or returns false for yoga to serve the request. */
  async function answer(response: ServerResponse, gateway: GatewayRequest, params: CacheableParams, mediaType: string, raw?: { key: string | undefined; length: number }): Promise<boolean> {
    const { observed, head } = gateway;
    const refused = runParamsGuards(guards.params, gateway, params);
    if (refused) {
      await refuse(response, gateway, params, refused, mediaType);
      return true;
    }
    // The reader's languages as read once on arrival (bounded, normalized), never the raw header.
    const key = cache.enabled ? cache.keyOf(head.headers.get('authorization'), params, gateway.readerLanguages.key) : undefined;
    const cached = key === undefined ? undefined : await cache.read(key);
    // The same bytes again are answered by answerKnown, without parsing or keying.
    const remember = () => {
      if (raw?.key !== undefined && key !== undefined) cache.remember(raw.key, { key, params, rawLength: raw.length });
    };
    if (cached) {
      remember();
      writeHit(response, gateway, cached, mediaType);
      return true;
    }
    const forward = forwardingOf(params, head);
    if (!forward) {
      // Handed on to yoga with what was done here, so that nothing is done twice.
      gateway.paramsChecked = { cacheKey: key };
      return false;
    }
    const { run, operation, estimate } = forward;
    observed.lane = 'direct';
    observed.operations.set(observed, { name: operationNameOf(operation.name?.value), type: 'query' });
    let result: ExecutionResult;
    try {
      // As in yoga, where the operation guards run just before execution: a refusal is the whole answer.
      const refusal = await runOperationGuards(guards.operation, gateway, estimate);
      result = refusal ? { errors: [refusal] } : await run({ request: head, gateway });
    } catch (error) {
      // Forwarding reports the source's failures in the answer; this is the gateway's own fault.
      result = { errors: [new GraphQLError('Unexpected error.', { originalError: error as Error })] };
    }
    if (!result.errors?.length && result.data != null) {
      observed.result = result;
      // Kept with the language its texts were answered in (a linked answer's translations), for a hit's headers.
      const kept = key === undefined ? undefined : cache.keep(key, operation, result, answerLanguageOf(gateway.languagesServed));
      if (kept) {
        remember();
        writeHit(response, gateway, kept, mediaType, result);
      } else writeAnswer(response, gateway, 200, { 'content-type': contentTypeOf(mediaType) }, answerText(result));
      return true;
    }
    await writeResult(response, gateway, result, mediaType);
    return true;
  }

  /** A refusal of the params guards, the whole answer. */
  function refuse(response: ServerResponse, gateway: GatewayRequest, params: CacheableParams, refused: GraphQLError, mediaType: string): Promise<void> {
    gateway.observed.operations.set(gateway.observed, { name: operationNameOf(params.operationName) });
    return writeResult(response, gateway, { errors: [refused] }, mediaType);
  }

  /**
   * A cached answer (a hit, or one just kept), told to the observers first, written with the head it
   * was kept with: per request only its content type, seconds left and request id are added, and its
   * bytes go out as kept; a 304 when `If-None-Match` names it. A browser's request, whose CORS headers
   * depend on it, gets them through writeAnswer.
   */
  function writeHit(response: ServerResponse, gateway: GatewayRequest, cached: CachedAnswer, mediaType: string, result: ExecutionResult = ANSWER_WITHOUT_ERRORS): void {
    const { observed, head } = gateway;
    if (result === ANSWER_WITHOUT_ERRORS) {
      observed.lane = 'cache';
      observed.operations.set(observed, { name: cached.operationName, type: 'query' });
    }
    observed.result = result;
    const ifNoneMatch = head.headers.get('if-none-match') ?? undefined;
    if (cors && head.headers.get('origin') !== null) {
      writeAnswer(response, gateway, 200, { 'content-type': contentTypeOf(mediaType) }, cached.body, { cached, ifNoneMatch });
      return;
    }
    const notModified = ifNoneMatch !== undefined && matchesEtag(ifNoneMatch, cached.etag);
    const status = notModified ? 304 : 200;
    if (observed.graphql) tellFinished(observers, observed, status);
    response.writeHead(status, [
      'content-type',
      contentTypeOf(mediaType),
      ...cached.headers,
      'cache-control',
      cacheControlOf(secondsLeft(cached)),
      REQUEST_ID_HEADER,
      observed.id,
    ]);
    response.end(notModified || head.method === 'HEAD' ? undefined : cached.body);
  }

  /** A result with errors, masked, in yoga's own way of turning it into a status, headers and a body. */
  async function writeResult(response: ServerResponse, gateway: GatewayRequest, executed: ExecutionResult, mediaType: string): Promise<void> {
    if (executed.errors?.length) direct?.onErrors?.(executed.errors);
    const result = maskErrors(executed);
    // The observers (the request log's upstream causes) read the errors before masking, as yoga's do.
    gateway.observed.result = executed;
    const processed = processRegularResult(result, { Response } as unknown as Parameters<typeof processRegularResult>[1], mediaType);
    writeAnswer(response, gateway, processed.status, Object.fromEntries(processed.headers), await processed.text());
  }

  /** A failure of this adapter's own or of a guard that threw (never expected): yoga's 500 for an unexpected error, if nothing was sent yet. */
  function failed(response: ServerResponse, gateway: GatewayRequest, request: IncomingMessage): void {
    if (response.headersSent) {
      response.destroy();
      return;
    }
    gateway.observed.result = UNEXPECTED_RESULT;
    writeEarly(request, response, gateway, UNEXPECTED_ERROR);
  }

  /**
   * An answer of the head guards (a refusal, or /healthcheck). A body still on its way is not read
   * (what reading refused uploads costs, in reading and in garbage, is what a flood of them is made
   * of): the answer says `Connection: close` and the connection is closed after it (closeUnread).
   */
  function writeEarly(request: IncomingMessage, response: ServerResponse, gateway: GatewayRequest, { status, headers, body }: EarlyAnswer): void {
    const unread = bodyUnread(request);
    if (unread) closeUnread(request, response);
    writeAnswer(response, gateway, status, unread ? { ...headers, connection: 'close' } : headers, body);
  }

  /** The answer's head and body, told to the observers first; a 304 when `If-None-Match` names a cached answer. */
  function writeAnswer(
    response: ServerResponse,
    { observed, head, languagesServed }: GatewayRequest,
    status: number,
    headers: Record<string, string | number>,
    body: string | Buffer | null,
    validator?: { cached: CachedAnswer | undefined; ifNoneMatch: string | undefined },
  ): void {
    const all: Record<string, string | number> = { ...headers };
    const cached = validator?.cached;
    const notModified = cached !== undefined && matchesEtag(validator?.ifNoneMatch, cached.etag);
    // In yoga's order: its CORS step sets its headers over the answer's, then the response cache's
    // plugin sets its own and adds `Authorization` to whatever `Vary` already says.
    const corsHeaders = cors && head.headers.get('origin') !== null ? getCORSHeadersByRequestAndOptions(head as unknown as Request, cors) : null;
    for (const name in corsHeaders) all[name.toLowerCase()] = corsHeaders[name];
    // With Content-Language and Vary: Accept-Language when the reader's languages chose its texts.
    const answerHeaders = cached ? cachingHeaders(cached.etag, secondsLeft(cached), cached) : answerLanguageHeaders(answerLanguageOf(languagesServed));
    for (const [name, value] of Object.entries(answerHeaders)) {
      all[name] = name === 'vary' && all.vary ? `${all.vary}, ${value}` : value;
    }
    all[REQUEST_ID_HEADER] = observed.id;
    // A 304 keeps the answer's content type and length, as yoga's does (the headers of the 200 it
    // stands for), with no body.
    if (body !== null) all['content-length'] = Buffer.byteLength(body);
    if (notModified) status = 304;
    if (observed.graphql) tellFinished(observers, observed, status);
    response.writeHead(status, all);
    response.end(notModified || body === null || head.method === 'HEAD' ? undefined : body);
  }

  /**
   * How to forward this request itself: its text is a prepared operation and its variables coerce;
   * undefined sends it to yoga (graphql-js words a coercion error).
   */
  function forwardingOf(params: CacheableParams, request: GatewayRequest['head']): { run: PreparedRun; operation: PreparedOperation['operation']; estimate: OperationEstimate } | undefined {
    if (!direct) return undefined;
    const found = direct.operations.find(params.query, params.operationName);
    const prepared = found === undefined ? direct.plan?.(params.query, params.operationName, request) : found;
    if (!prepared) return undefined;
    const variables = (params.variables ?? undefined) as Record<string, unknown> | undefined;
    const estimate = estimateOperation(prepared.schema, prepared.document, params.operationName, variables);
    if (!estimate?.coercedVariables) return undefined;
    const run = prepared.bind(variables, estimate.coercedVariables);
    return run && { run, operation: prepared.operation, estimate };
  }
}

/**
 * Where a middleware is mounted, from the path the client asked for and the path below the mount
 * (`/api/graphql` and `/` → `/api/graphql`; `/api/readiness` and `/readiness` → `/api`); undefined
 * when the two do not fit together.
 */
function mountPathOf(fullPath: string, below: string): string | undefined {
  if (below === '/' || below === '') return fullPath.replace(/\/$/, '');
  return fullPath.endsWith(below) ? fullPath.slice(0, fullPath.length - below.length) : undefined;
}

/**
 * The longest body looked up by its bytes (answerKnown): every body is hashed for it, hit or miss,
 * and a repeated query's body is a few hundred bytes; a larger one is parsed and keyed as any.
 */
const MAX_KNOWN_BODY_BYTES = 64 * 1024;

/** The status a request is recorded with when its client went away before sending all of its body (nginx's "client closed request"). */
const CLIENT_CLOSED_REQUEST = 499;

/** A request URL's path (as WHATWG URL parsing normalizes it, as yoga sees it) and whether it has a `query` parameter. */
const urlFacts = memoized((url): { pathname: string; hasQueryParameter: boolean } => {
  try {
    const parsed = new URL(url);
    return { pathname: parsed.pathname, hasQueryParameter: parsed.searchParams.has('query') };
  } catch {
    return { pathname: '', hasQueryParameter: false };
  }
});

/**
 * The media type yoga would answer a one-off result with, for this `Accept` header, when it is JSON
 * (`application/json` or `application/graphql-response+json`); undefined when yoga would choose
 * otherwise. yoga goes through the listed types from last to first and keeps the last match, so
 * the client's first acceptable type wins; `*` matches both and yoga's last candidate, JSON, wins;
 * a type with a charset other than UTF-8 is skipped. yoga does not export its negotiation, so this
 * is its own copy: test/gateway/accept-negotiation.test.ts holds the two to the same answers for
 * the Accept headers clients send (and fails on a yoga upgrade that changes them).
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

/**
 * How long a connection whose body was left unread stays open, unread, once its answer and a FIN
 * are out. Closing a socket with unread bytes resets the connection, and a reset that reaches the
 * client before it has read the answer makes it lose the answer (it sees EPIPE or ECONNRESET
 * instead of the 401 or 429): the pause gives it time to read first, as Go's net/http and nginx's
 * lingering close do. A paused socket costs a timer, no reading.
 */
const UNREAD_BODY_LINGER_MS = 500;

/**
 * Closes the connection of a request answered with its body unread, without reading the body:
 * node:http reads a body nobody consumed through to its end once the answer is out (to keep the
 * connection alive), and, told `Connection: close`, closes the socket as soon as the answer is
 * flushed (the reset above). One `read()` makes the body a stream being consumed, so node:http
 * leaves it alone; nobody reads further, so the socket stops reading once the stream holds its
 * high-water mark (a chunk or two). Once node:http has sent the FIN, the socket is destroyed after
 * the pause instead of at once: the sockets waiting are closed by one timer going round while any
 * wait, rather than a timer each, which a flood of refusals would make by the hundred.
 */
function lingeringCloser(): (request: IncomingMessage, response: ServerResponse) => void {
  // Sockets by when to destroy them: all wait as long, so in that order.
  const waiting = new Map<Socket, number>();
  let sweeper: NodeJS.Timeout | undefined;
  const sweep = () => {
    const now = performance.now();
    for (const [socket, at] of waiting) {
      if (at > now) return;
      waiting.delete(socket);
      socket.destroy();
    }
    clearInterval(sweeper);
    sweeper = undefined;
  };
  return (request, response) => {
    request.read();
    response.once('finish', () => {
      const { socket } = request;
      socket.removeListener('finish', socket.destroy);
      waiting.set(socket, performance.now() + UNREAD_BODY_LINGER_MS);
      // Unref'd: sockets waiting never keep a process alive (closing the server drops them anyway).
      sweeper ??= setInterval(sweep, UNREAD_BODY_LINGER_MS / 4).unref();
    });
  };
}

/** Whether the request has a body node:http has not finished receiving. */
function bodyUnread(request: IncomingMessage): boolean {
  if (request.complete) return false;
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
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
  return plainParams(entries.get('query') ?? undefined, json('variables'), entries.get('operationName') || undefined, json('extensions'), entries.get('documentId') ?? undefined);
}

function plainParams(query: unknown, variables: unknown, operationName: unknown, extensions: unknown, documentId: unknown): CacheableParams | undefined {
  if (typeof query !== 'string' || documentId !== undefined) return undefined;
  if (variables !== undefined && variables !== null && (typeof variables !== 'object' || Array.isArray(variables))) return undefined;
  if (operationName !== undefined && operationName !== null && typeof operationName !== 'string') return undefined;
  if (extensions !== undefined && extensions !== null && (typeof extensions !== 'object' || 'persistedQuery' in extensions)) return undefined;
  return { query, variables, operationName: operationName as string | null | undefined };
}
