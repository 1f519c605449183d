import { pipeline, type Readable, type Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { Pool, type Dispatcher } from 'undici';
import type { MeshFetch } from '@graphql-mesh/types';
import { webSignalOf } from './call-signal.ts';
import { parsedUrl, type ParsedUrl } from './parsed-url.ts';
import { UpstreamAnswer, type UpstreamAnswerInit } from './upstream-answer.ts';

export interface UpstreamFetchOptions {
  /** Keep-alive connections per upstream origin (per service: each is one origin). @default 32 */
  connections?: number;
}

export interface UpstreamFetch {
  fetch: MeshFetch;
  /** The same call, answered as the upstream steps take it (no web Response is built). */
  answer(url: string, init?: RequestInit): Promise<UpstreamAnswer>;
  /** Closes the pooled connections. */
  close(): Promise<void>;
}

/** Statuses whose responses have no body (a Response refuses one). */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/** Redirects followed before a 3xx counts as the answer (and so as a failure: any non-2xx is one). */
const MAX_REDIRECTS = 5;

/** Statuses whose `Location` is followed. */
const REDIRECT_STATUSES = new Set([300, 301, 302, 303, 307, 308]);

/** Headers that describe a request's body, dropped with the body when a redirect turns it into a GET. */
const BODY_HEADER = /^content-/;

/** Headers that carry credentials, never sent on to another origin. */
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];

/** One request as it is sent, and sent again where a redirect points. */
interface Sending {
  target: ParsedUrl;
  method: Dispatcher.HttpMethod;
  headers: Record<string, string>;
  body: string | Uint8Array | undefined;
  signal: Dispatcher.RequestOptions['signal'];
}

/**
 * The request a redirect asks for, as fetch makes it: a 303 (but to a HEAD), or a 301 or 302 to a
 * POST, becomes a GET without the body or the headers describing it; another origin gets no
 * credentials. Every other request goes again as it was.
 */
function redirected(sending: Sending, status: number, location: string): Sending {
  const target = parsedUrl(new URL(location, sending.target.url).href) ?? invalidUrl();
  const toGet = (status === 303 && sending.method !== 'HEAD') || ((status === 301 || status === 302) && sending.method === 'POST');
  const elsewhere = target.origin !== sending.target.origin;
  if (!toGet && !elsewhere) return { ...sending, target };
  const headers: Record<string, string> = {};
  for (const name in sending.headers) {
    if ((toGet && BODY_HEADER.test(name)) || (elsewhere && CREDENTIAL_HEADERS.includes(name))) continue;
    headers[name] = sending.headers[name];
  }
  return toGet ? { target, method: 'GET', headers, body: undefined, signal: sending.signal } : { ...sending, target, headers };
}

function invalidUrl(): never {
  throw new TypeError('The upstream URL is not a valid URL.');
}

/**
 * How each service's Pool holds its connections. `connections`: enough sockets that a burst of
 * calls does not queue behind one another, few enough that the gateway never floods a service
 * (beyond it, calls wait in the Pool's queue). `pipelining: 1` (undici's default, said here on
 * purpose): one request at a time per connection, so a slow answer never holds up the calls behind
 * it, and a connection the service drops never takes a second, unanswered request with it (a
 * mutation could not be sent again). `keepAliveTimeout`: an idle connection is kept 10 s (undici
 * keeps 4 s) so calls a few seconds apart still find a warm one; a service that says it closes
 * sooner (`Keep-Alive: timeout=5`, as Node's servers do) is believed, and undici lets the
 * connection go two seconds before that, so no call is written to a socket being closed.
 */
const POOL_OPTIONS = (connections: number): Pool.Options => ({ connections, pipelining: 1, keepAliveTimeout: 10_000 });

/** Where a fetch made here keeps its `answer` face, for the last upstream step (answerOf). */
const ANSWER = Symbol('upstream answer');

/**
 * The fetch every upstream call goes through: one keep-alive undici Pool per origin, so one per
 * service (each service is one origin), and calls reuse warm connections instead of paying a TCP
 * handshake each time. The Pools are held here rather than behind an undici Agent, which looked its
 * Pool up and wrapped every dispatch again on each call.
 *
 * It speaks fetch's language (a web Response) to Mesh's handlers, and the upstream steps' own
 * (an UpstreamAnswer) to them, but sends with undici's `request()`: undici's WHATWG `fetch` cost
 * several times its CPU per call (docs/performance.md, "Measurements behind the design"). What fetch
 * did besides, kept: redirects are followed (at most five, as fetch follows them: see redirected)
 * and a compressed answer is decoded; a signal aborts the call and the reading of its body.
 * Redirects are followed here rather than by undici's redirect interceptor, which wrapped every
 * call in a handler of its own, and each URL is parsed once (parsed-url.ts).
 */
export function createUpstreamFetch({ connections = 32 }: UpstreamFetchOptions = {}): UpstreamFetch {
  const pools = new Map<string, Pool>();
  let closed = false;
  const poolOf = (origin: string): Pool => {
    // As a closed undici dispatcher refuses: a call after close never opens connections again.
    if (closed) throw new Error('The upstream connections are closed.');
    let pool = pools.get(origin);
    if (!pool) pools.set(origin, (pool = new Pool(origin, POOL_OPTIONS(connections))));
    return pool;
  };
  /** The answer to `sending`, or the request its redirect asks for, sent (`redirects` followed so far). */
  const answered = <T>(sending: Sending, sent: Dispatcher.ResponseData, redirects: number, finish: (init: UpstreamAnswerInit) => T): T | Promise<T> => {
    const location = redirects < MAX_REDIRECTS && REDIRECT_STATUSES.has(sent.statusCode) ? sent.headers.location : undefined;
    if (typeof location === 'string') {
      // A redirect's own body is nobody's answer; read off, it frees the connection.
      const next = redirected(sending, sent.statusCode, location);
      return sent.body.dump().then(() => dispatch(next, redirects + 1, finish));
    }
    if (sending.method === 'HEAD' || NULL_BODY_STATUSES.has(sent.statusCode)) {
      sent.body.resume();
      return finish({ status: sent.statusCode, headers: responseHeaders(sent.headers), body: null });
    }
    const decoder = decoderFor(sent.headers['content-encoding']);
    if (!decoder) return finish({ status: sent.statusCode, headers: responseHeaders(sent.headers), body: sent.body });
    // As fetch does: the body decoded, and the headers that described the encoded bytes dropped.
    const { 'content-encoding': _encoding, 'content-length': _length, ...decodedHeaders } = sent.headers;
    return finish({ status: sent.statusCode, headers: responseHeaders(decodedHeaders), body: pipeline(sent.body as Readable, decoder, () => undefined) });
  };
  /** Sends `sending` on its origin's Pool: one promise of undici's and one reaction per request. */
  const dispatch = <T>(sending: Sending, redirects: number, finish: (init: UpstreamAnswerInit) => T): Promise<T> => {
    const { target, method, headers, body, signal } = sending;
    return poolOf(target.origin)
      .request({ path: target.path, method, headers, body, signal })
      .then((sent) => answered(sending, sent, redirects, finish));
  };
  const sendingOf = (url: string, init: RequestInit): Sending => ({
    target: parsedUrl(url) ?? invalidUrl(),
    method: (init.method ?? 'GET').toUpperCase() as Dispatcher.HttpMethod,
    headers: lowercasedHeaders(init.headers),
    body: (init.body ?? undefined) as string | Uint8Array | undefined,
    // undici takes an AbortSignal or the upstream steps' own CallSignal (an emitter of `abort`).
    signal: (init.signal ?? undefined) as Dispatcher.RequestOptions['signal'],
  });
  const answer = (url: string, init: RequestInit = {}): Promise<UpstreamAnswer> => {
    try {
      return dispatch(sendingOf(url, init), 0, toAnswer);
    } catch (error) {
      return Promise.reject(error as Error);
    }
  };
  const fetch = withAnswerFace((async (url: string, init: RequestInit = {}) => dispatch(sendingOf(url, init), 0, toResponse)) as unknown as MeshFetch, answer);
  const close = async () => {
    closed = true;
    const closing = [...pools.values()].map((pool) => pool.close());
    pools.clear();
    await Promise.all(closing);
  };
  return { fetch, answer, close };
}

/**
 * `fetch`, which the last upstream step calls through `answer` instead (answerOf): the same call,
 * answered as the steps take it. Mesh's handlers call `fetch` itself.
 */
export function withAnswerFace(fetch: MeshFetch, answer: UpstreamFetch['answer']): MeshFetch {
  (fetch as { [ANSWER]?: UpstreamFetch['answer'] })[ANSWER] = answer;
  return fetch;
}

/**
 * The call answered as the steps take it: straight from undici when the fetch at the end is this
 * module's own (no web Response), else from whatever Response the fetch gives (a fetch wrapped by
 * a plugin of .meshrc.yaml).
 */
export function answerOf(fetch: MeshFetch, url: string, init: RequestInit, context: unknown, info: unknown): Promise<UpstreamAnswer> {
  const own = (fetch as { [ANSWER]?: UpstreamFetch['answer'] })[ANSWER];
  if (own) return own(url, init);
  const webInit = { ...init, signal: webSignalOf(init.signal) };
  try {
    return Promise.resolve(fetch(url, webInit as Parameters<MeshFetch>[1], context as Parameters<MeshFetch>[2], info as Parameters<MeshFetch>[3])).then(UpstreamAnswer.fromResponse);
  } catch (error) {
    return Promise.reject(error);
  }
}

function toAnswer(init: UpstreamAnswerInit): UpstreamAnswer {
  return new UpstreamAnswer(init);
}

function toResponse({ status, headers, body }: UpstreamAnswerInit): Response {
  return new Response(body as unknown as ReadableStream | null, { status, headers });
}

/**
 * A decoder for an answer's `Content-Encoding`, if it names one. No `Accept-Encoding` is sent (on
 * the loopback or a private network, compressing costs more CPU than it saves), but a service may
 * compress anyway.
 */
function decoderFor(encoding: string | string[] | undefined): Transform | undefined {
  switch (String(encoding ?? '').trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return createGunzip();
    case 'deflate':
      return createInflate();
    case 'br':
      return createBrotliDecompress();
    default:
      return undefined;
  }
}

/**
 * Request headers as a plain object with lowercased names, from any form fetch accepts, as
 * `new Headers(…)` would list them (a name given twice in an object: its values joined), without
 * building a Headers for a plain object. What undici's `request()` takes, and what the observation
 * step adds its own headers to: always a new object.
 */
export function plainHeaders(headers: HeadersInit | undefined): Record<string, string> {
  const plain = new LowercasedHeaders() as unknown as Record<string, string>;
  if (!headers) return plain;
  if (headers instanceof Headers || Array.isArray(headers)) {
    for (const [name, value] of new Headers(headers)) plain[name] = value;
    return plain;
  }
  for (const name in headers) {
    const value = (headers as Record<string, string>)[name];
    const lower = name.toLowerCase();
    plain[lower] = Object.hasOwn(plain, lower) ? `${plain[lower]}, ${value}` : value;
  }
  return plain;
}

/**
 * What plainHeaders makes: a plain object of headers (undici and fetch read its own keys), of a
 * class of its own so the fetch knows it needs no second copy: the observation step, innermost,
 * has just made it for this attempt.
 */
class LowercasedHeaders {}

/** Headers as plainHeaders gives them, the same object when it made them. */
function lowercasedHeaders(headers: HeadersInit | undefined): Record<string, string> {
  return headers instanceof LowercasedHeaders ? (headers as unknown as Record<string, string>) : plainHeaders(headers);
}

/** Response headers as a Response takes them: a header undici gives as a list (set-cookie) stays several. */
function responseHeaders(headers: Record<string, string | string[] | undefined>): [string, string][] {
  const entries: [string, string][] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (Array.isArray(value)) for (const each of value) entries.push([name, each]);
    else if (value !== undefined) entries.push([name, value]);
  }
  return entries;
}
