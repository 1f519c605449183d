import { pipeline, type Readable, type Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { Agent, interceptors, request, type Dispatcher } from 'undici';
import type { MeshFetch } from '@graphql-mesh/types';

export interface UpstreamFetchOptions {
  /** Keep-alive connections per upstream origin. @default 32 */
  connections?: number;
}

export interface UpstreamFetch {
  fetch: MeshFetch;
  /** Closes the pooled connections. */
  close(): Promise<void>;
}

/** Statuses whose responses have no body (a Response refuses one). */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/** Redirects followed before a 3xx counts as the answer (and so as a failure: any non-2xx is one). */
const MAX_REDIRECTS = 5;

/**
 * The fetch every upstream call goes through: a keep-alive pool per origin (undici), so calls
 * reuse warm connections instead of paying a TCP handshake each time.
 *
 * It speaks fetch's language (a web Response) to Mesh's handlers and the upstream steps, but sends
 * with undici's `request()`: undici's WHATWG `fetch` cost 658 µs of CPU per call on this machine
 * against 181 µs for `request()` with the answer wrapped in a Response (same pool, same calls,
 * side by side). What fetch did besides, kept: redirects are followed (at most five, dropping
 * `Authorization` when the origin changes) and a compressed answer is decoded; a signal aborts the
 * call and the reading of its body.
 */
export function createUpstreamFetch({ connections = 32 }: UpstreamFetchOptions = {}): UpstreamFetch {
  const agent = new Agent({ connections, keepAliveTimeout: 10_000 });
  const dispatcher = agent.compose(interceptors.redirect({ maxRedirections: MAX_REDIRECTS }));
  const fetch = (async (url: string, init: RequestInit = {}) => {
    const method = (init.method ?? 'GET').toUpperCase() as Dispatcher.HttpMethod;
    const answer = await request(url, {
      method,
      headers: plainHeaders(init.headers),
      body: (init.body ?? undefined) as string | Uint8Array | undefined,
      signal: init.signal ?? undefined,
      dispatcher,
    });
    if (method === 'HEAD' || NULL_BODY_STATUSES.has(answer.statusCode)) {
      answer.body.resume();
      return new Response(null, { status: answer.statusCode, headers: responseHeaders(answer.headers) });
    }
    const decoder = decoderFor(answer.headers['content-encoding']);
    if (!decoder) return new Response(answer.body as unknown as ReadableStream, { status: answer.statusCode, headers: responseHeaders(answer.headers) });
    // As fetch does: the body decoded, and the headers that described the encoded bytes dropped.
    const { 'content-encoding': _encoding, 'content-length': _length, ...decodedHeaders } = answer.headers;
    const decoded = pipeline(answer.body as Readable, decoder, () => undefined);
    return new Response(decoded as unknown as ReadableStream, { status: answer.statusCode, headers: responseHeaders(decodedHeaders) });
  }) as unknown as MeshFetch;
  return { fetch, close: () => agent.close() };
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

/** Request headers as undici's `request()` takes them, from any form fetch accepts. */
function plainHeaders(headers: HeadersInit | undefined): Record<string, string> {
  if (!headers) return {};
  if (headers instanceof Headers || Array.isArray(headers)) return Object.fromEntries(headers as Iterable<[string, string]>);
  return headers as Record<string, string>;
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
