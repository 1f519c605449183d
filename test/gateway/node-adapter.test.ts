import { createHash } from 'node:crypto';
import { request as httpRequest, ServerResponse, type IncomingMessage } from 'node:http';
import { getOperationAST, GraphQLError, parse } from 'graphql';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createNodeAdapter } from '../../src/gateway/pipeline/front-door/node-transport.ts';
import { answerMediaType } from '../../src/gateway/pipeline/front-door/media-type.ts';
import { identifyCallerGuard, requireKeyGuard } from '../../src/gateway/guards/client-key.ts';
import { declaredLengthGuard } from '../../src/gateway/guards/request-body.ts';
import { createRouteTable, routeGuard } from '../../src/gateway/guards/route.ts';
import { rateLimitGuards } from '../../src/gateway/guards/rate-limits.ts';
import { createMemoryRateLimitStore } from '../../src/gateway/guards/rate-limit-store.ts';
import { createResponseCache } from '../../src/gateway/execution/response-cache/response-cache.ts';
import type { GatewayRequest } from '../../src/gateway/request/gateway-request.ts';
import { createPersistedDocuments, type PersistedDocuments } from '../../src/gateway/guards/persisted-documents.ts';
import { createMemoryKeyValueStore } from '../../src/gateway/stores/key-value-store.ts';
import { createPreparedOperations } from '../../src/gateway/execution/forward/prepared-operations.ts';
import { listen, type RunningServer } from '../../src/shared/listen.ts';
import { sharedStack } from '../helpers/shared-stack.ts';
import type { Stack } from '../helpers/start-stack.ts';

const QUERY = /* GraphQL */ `query Few($first: Int) { problems(first: $first) { nodes { id title } } }`;

/**
 * Repeated queries are answered on node:http, in front of yoga: the same bytes and headers yoga
 * gives, the key check, rate limits and request log still applied, and everything it cannot answer
 * exactly handed to yoga untouched.
 */
describe('answers from the cache in front of yoga', () => {
  let stack: Stack;
  let cached: Awaited<ReturnType<Stack['addGateway']>>;
  const logged: { operation: string; status: number; outcome: string; requestId: string }[] = [];
  beforeAll(async () => {
    stack = await sharedStack('open');
    cached = await stack.addGateway({
      settings: { responseCacheTtlSeconds: 30, gatewayApiKeys: ['key-a', 'key-b'], rateLimitRequests: 1000 },
      requestLog: (entry) => logged.push(entry),
    });
  });
  afterAll(async () => {
    await stack?.close();
  });

  const body = (first: number) => JSON.stringify({ query: QUERY, variables: { first } });
  const headersFor = (accept?: string, key = 'key-a') => ({
    'content-type': 'application/json',
    authorization: `Bearer ${key}`,
    ...(accept === undefined ? {} : { accept }),
  });
  /** The same request through the gateway's fetch handler (the same front door, the fetch transport). */
  const viaYoga = (first: number, accept?: string) =>
    cached.gateway.fetch(new Request(cached.gatewayUrl, { method: 'POST', headers: headersFor(accept), body: body(first) }));
  const viaListener = (first: number, accept?: string, key?: string) =>
    fetch(cached.gatewayUrl, { method: 'POST', headers: headersFor(accept, key), body: body(first) });
  const upstreamCalls = () => stack.problems.stats.requests;

  it.each([
    [undefined],
    ['*/*'],
    ['application/json'],
    ['application/graphql-response+json'],
    ['application/graphql-response+json, application/json;q=0.9'],
    ['application/json, application/graphql-response+json'],
    ['application/*'],
    ['text/html, application/json'],
  ])('answers a hit as yoga does (Accept: %s)', async (accept) => {
    const first = 2 + Math.floor(Math.random() * 90);
    const miss = await viaListener(first, accept);
    const missText = await miss.text();
    const before = upstreamCalls();
    const hit = await viaListener(first, accept);
    const yogaHit = await viaYoga(first, accept);
    expect(upstreamCalls()).toBe(before);
    expect(await hit.text()).toBe(missText);
    expect(await yogaHit.text()).toBe(missText);
    for (const response of [hit, yogaHit]) {
      expect(response.status).toBe(miss.status);
      for (const header of ['content-type', 'etag', 'vary']) expect(response.headers.get(header), header).toBe(miss.headers.get(header));
      expect(response.headers.get('cache-control')).toMatch(/^private, max-age=(29|30)$/);
      expect(response.headers.get('x-request-id')).toMatch(/^[\w-]+$/);
    }
    expect(hit.headers.get('content-length')).toBe(String(Buffer.byteLength(missText)));
  });

  it('logs a hit like any request, under the client’s request id', async () => {
    await (await viaListener(1)).text();
    logged.length = 0;
    const hit = await fetch(cached.gatewayUrl, { method: 'POST', headers: { ...headersFor(), 'x-request-id': 'hit-1' }, body: body(1) });
    expect(hit.status).toBe(200);
    expect(hit.headers.get('x-request-id')).toBe('hit-1');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(logged).toEqual([expect.objectContaining({ requestId: 'hit-1', operation: 'Few', status: 200, outcome: 'ok' })]);
    const metrics = await (await fetch(cached.gatewayUrl.replace('/graphql', '/metrics'))).text();
    expect(metrics).toMatch(/gateway_requests_total\{operation="Few",outcome="ok"\} \d+/);
  });

  it('answers If-None-Match with 304 and no body', async () => {
    const first = await viaListener(3);
    await first.text();
    const etag = first.headers.get('etag')!;
    const again = await fetch(cached.gatewayUrl, { method: 'POST', headers: { ...headersFor(), 'if-none-match': `W/${etag}` }, body: body(3) });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
  });

  it('answers a GET hit (urql’s default) as yoga does', async () => {
    const url = `${cached.gatewayUrl}?query=${encodeURIComponent(QUERY)}&variables=${encodeURIComponent('{"first":4}')}`;
    const miss = await fetch(url, { headers: { authorization: 'Bearer key-a' } });
    const missText = await miss.text();
    const before = upstreamCalls();
    const hit = await fetch(url, { headers: { authorization: 'Bearer key-a' } });
    expect(await hit.text()).toBe(missText);
    expect(hit.headers.get('etag')).toBe(miss.headers.get('etag'));
    expect(upstreamCalls()).toBe(before);
  });

  it('keeps the key check: a wrong or missing key on a cached query is 401, another key has its own entry', async () => {
    await (await viaListener(5)).text();
    const wrong = await viaListener(5, undefined, 'key-z');
    expect(wrong.status).toBe(401);
    const none = await fetch(cached.gatewayUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: body(5) });
    expect(none.status).toBe(401);
    const before = upstreamCalls();
    const other = await viaListener(5, undefined, 'key-b');
    expect(other.status).toBe(200);
    expect(upstreamCalls()).toBe(before + 1);
  });

  it('counts hits against the rate limit', async () => {
    const limited = await stack.addGateway({ settings: { responseCacheTtlSeconds: 30, gatewayApiKeys: ['key-a'], rateLimitRequests: 3 } });
    const post = () => fetch(limited.gatewayUrl, { method: 'POST', headers: headersFor(), body: body(6) });
    const statuses: number[] = [];
    for (let index = 0; index < 5; index += 1) {
      const response = await post();
      await response.text();
      statuses.push(response.status);
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
  });

  it('answers a browser’s CORS request from the cache too, with the CORS headers', async () => {
    await (await viaListener(7)).text();
    const before = upstreamCalls();
    logged.length = 0;
    const response = await fetch(cached.gatewayUrl, { method: 'POST', headers: { ...headersFor(), origin: 'https://app.example' }, body: body(7) });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(response.headers.get('etag')).toMatch(/^(W\/)?"[^"]+"$/);
    expect(upstreamCalls()).toBe(before);
  });
});

describe('what the node:http adapter answers and hands on', () => {
  const cache = createResponseCache({ ttlMs: 30_000, translationOnlyTtlMs: 30_000 });
  const handedOn: { method?: string; body?: unknown; handedOn?: GatewayRequest['handedOn'] }[] = [];
  let server: RunningServer;
  const QUERY_TEXT = '{ a }';
  /** The variables each params check saw; a request with `x-refuse` is refused. */
  const paramsChecked: unknown[] = [];
  beforeAll(async () => {
    // One cached answer, for key "k" and the query `{ a }`.
    for (const authorization of ['Bearer k', undefined]) {
      cache.keep(cache.keyOf(authorization, { query: QUERY_TEXT }), getOperationAST(parse(QUERY_TEXT))!, { data: { a: 1 } });
    }
    const rateLimits = rateLimitGuards({ store: createMemoryRateLimitStore(), requests: 1000, translationRequests: 1000, windowMs: 60_000 });
    const listener = createNodeAdapter({
      guards: {
        head: [
          routeGuard(createRouteTable({ graphiql: false, metrics: false })),
          identifyCallerGuard({ keys: ['k'], trustProxy: false }),
          rateLimits.requests,
          requireKeyGuard(),
          declaredLengthGuard({ maxBytes: 1000 }),
        ],
        params: [
          {
            name: 'refuse-on-request',
            check: (request, { variables }) => {
              paramsChecked.push(variables);
              return request.head.headers.get('x-refuse') === null ? undefined : new GraphQLError('Refused.');
            },
          },
        ],
        batch: [],
        operation: [],
      },
      cache,
      maskErrors: (result) => result,
      observers: [],
      next: async (request: IncomingMessage, response: ServerResponse, { gateway }) => {
        // A body already read comes along as `request.body`, an async iterable of its bytes (as yoga's adapter takes it).
        const given = (request as { body?: AsyncIterable<Buffer> }).body;
        const finish = (received: string) => {
          handedOn.push({ method: request.method, body: received, handedOn: gateway.handedOn });
          response.writeHead(299, { 'content-type': 'text/plain' });
          response.end(received);
        };
        if (given) {
          expect(Object.keys(given)).toHaveLength(1);
          const chunks: Buffer[] = [];
          for await (const chunk of given) chunks.push(chunk);
          return finish(Buffer.concat(chunks).toString());
        }
        const chunks: Buffer[] = [];
        request.on('data', (chunk: Buffer) => chunks.push(chunk));
        request.on('end', () => finish(Buffer.concat(chunks).toString()));
      },
    });
    server = await listen(listener);
  });
  afterAll(async () => {
    await server?.close();
  });

  const send = (init: { method?: string; path?: string; headers?: Record<string, string>; body?: string }) =>
    fetch(`${server.url}${init.path ?? '/graphql'}`, {
      method: init.method ?? 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer k', ...init.headers },
      body: init.body,
    }).then(async (response) => ({ status: response.status, text: await response.text() }));

  it('answers a plain hit itself', async () => {
    expect(await send({ body: JSON.stringify({ query: QUERY_TEXT }) })).toEqual({ status: 200, text: '{"data":{"a":1}}' });
    // A POST's parameters are its body's, whatever the query string says (as yoga reads them).
    expect(await send({ path: '/graphql?x=1', body: JSON.stringify({ query: QUERY_TEXT }) })).toEqual({ status: 200, text: '{"data":{"a":1}}' });
  });

  it('answers the same bytes again without parsing, keying or serializing: the Buffer kept, written as is', async () => {
    const body = JSON.stringify({ query: QUERY_TEXT, variables: { n: 1 } });
    const key = cache.keyOf('Bearer k', { query: QUERY_TEXT, variables: { n: 1 } });
    cache.keep(key, getOperationAST(parse(QUERY_TEXT))!, { data: { a: 2 } });
    // The first time, the bytes are parsed and keyed, and remembered with what they parsed to.
    expect(await send({ body })).toEqual({ status: 200, text: '{"data":{"a":2}}' });
    const keyOf = vi.spyOn(cache, 'keyOf');
    const parsed = vi.spyOn(JSON, 'parse');
    const serialized = vi.spyOn(JSON, 'stringify');
    const ended = vi.spyOn(ServerResponse.prototype, 'end');
    paramsChecked.length = 0;
    try {
      for (let index = 0; index < 2; index += 1) expect(await send({ body })).toEqual({ status: 200, text: '{"data":{"a":2}}' });
      expect(keyOf).not.toHaveBeenCalled();
      expect(parsed.mock.calls.filter(([text]) => String(text).includes(QUERY_TEXT))).toEqual([]);
      expect(serialized.mock.calls.filter(([value]) => typeof value === 'object' && value !== null && 'data' in value)).toEqual([]);
      const written = ended.mock.calls.map(([chunk]) => chunk).filter((chunk) => Buffer.isBuffer(chunk));
      expect(written).toHaveLength(2);
      for (const chunk of written) expect(chunk).toBe(cache.peek(key)!.body);
      // The params guards still saw each request, with the parameters its bytes parsed to.
      expect(paramsChecked).toEqual([{ n: 1 }, { n: 1 }]);
    } finally {
      for (const spy of [keyOf, parsed, serialized, ended]) spy.mockRestore();
    }
  });

  it('still refuses known bytes when the params guards do, without writing the kept answer', async () => {
    const body = JSON.stringify({ query: QUERY_TEXT, variables: { n: 3 } });
    cache.keep(cache.keyOf('Bearer k', { query: QUERY_TEXT, variables: { n: 3 } }), getOperationAST(parse(QUERY_TEXT))!, { data: { a: 3 } });
    expect(await send({ body })).toEqual({ status: 200, text: '{"data":{"a":3}}' });
    const { status, text } = await send({ body, headers: { 'x-refuse': '1' } });
    expect(status).toBe(200);
    expect(JSON.parse(text)).toEqual({ errors: [expect.objectContaining({ message: 'Refused.' })] });
  });

  it.each([
    ['a miss', { body: JSON.stringify({ query: '{ b }' }) }],
    ['a batch', { body: JSON.stringify([{ query: QUERY_TEXT }]) }],
    ['a persisted-query hash', { body: JSON.stringify({ query: QUERY_TEXT, extensions: { persistedQuery: { version: 1, sha256Hash: 'x' } } }) }],
    ['a trusted document id', { body: JSON.stringify({ query: QUERY_TEXT, documentId: 'x' }) }],
    ['a browser’s CORS request (no CORS options given)', { headers: { origin: 'https://x.example' }, body: JSON.stringify({ query: QUERY_TEXT }) }],
    ['an event stream', { headers: { accept: 'text/event-stream' }, body: JSON.stringify({ query: QUERY_TEXT }) }],
    ['a form', { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `query=${QUERY_TEXT}` }],
    ['another charset', { headers: { 'content-type': 'application/json; charset=latin1' }, body: JSON.stringify({ query: QUERY_TEXT }) }],
    ['not JSON', { body: '{"query": "{ a }"' }],
    ['variables that are not an object', { body: JSON.stringify({ query: QUERY_TEXT, variables: [1] }) }],
    ['a GET with a parameter twice', { method: 'GET', path: `/graphql?query=${encodeURIComponent(QUERY_TEXT)}&query=${encodeURIComponent('{ b }')}` }],
    ['a HEAD', { method: 'HEAD', path: `/graphql?query=${encodeURIComponent(QUERY_TEXT)}` }],
  ] as [string, { method?: string; path?: string; headers?: Record<string, string>; body?: string }][])('hands %s on, with its body intact', async (_name, init) => {
    handedOn.length = 0;
    const { status, text } = await send(init);
    expect(status).toBe(299);
    expect(handedOn).toHaveLength(1);
    if (init.body) expect(text).toBe(init.body);
  });

  it('hands a miss on with the key it looked up, so that yoga neither checks its params nor reads the cache again', async () => {
    handedOn.length = 0;
    await send({ body: JSON.stringify({ query: '{ b }' }) });
    const cacheKey = cache.keyOf('Bearer k', { query: '{ b }' });
    expect(handedOn).toEqual([expect.objectContaining({ handedOn: { batchChecked: false, operations: [{ resolved: { query: '{ b }' }, lookedUp: true, cacheKey }] } })]);
    // What it did not look up (a batch, with no plans to serve it) is yoga's to check and look up.
    handedOn.length = 0;
    await send({ body: JSON.stringify([{ query: '{ b }' }]) });
    expect(handedOn).toEqual([expect.objectContaining({ handedOn: undefined })]);
  });

  it.each([
    ['another path', 404, { path: '/graphql/', body: JSON.stringify({ query: QUERY_TEXT }) }],
    ['a wrong key', 401, { headers: { authorization: 'Bearer nope' }, body: JSON.stringify({ query: QUERY_TEXT }) }],
    ['no key', 401, { headers: { authorization: '' }, body: JSON.stringify({ query: QUERY_TEXT }) }],
    ['a body over the limit', 413, { body: JSON.stringify({ query: QUERY_TEXT, variables: { pad: 'x'.repeat(2000) } }) }],
  ] as [string, number, { path?: string; headers?: Record<string, string>; body?: string }][])('refuses %s on the head itself (%i), handing nothing on', async (_name, expected, init) => {
    handedOn.length = 0;
    const { status } = await send(init);
    expect(status).toBe(expected);
    expect(handedOn).toHaveLength(0);
  });

  it('hands on a body that is not UTF-8, byte for byte', async () => {
    handedOn.length = 0;
    const bytes = Buffer.concat([Buffer.from('{"query":"{ a }","x":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]);
    const status = await new Promise<number>((resolve, reject) => {
      const request = httpRequest(`${server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer k', 'content-length': bytes.length } }, (response) => {
        response.resume();
        resolve(response.statusCode!);
      });
      request.on('error', reject);
      request.end(bytes);
    });
    expect(status).toBe(299);
    expect(handedOn).toHaveLength(1);
  });

  it('hands a chunked body (no length) on unread', async () => {
    handedOn.length = 0;
    const status = await new Promise<number>((resolve, reject) => {
      const request = httpRequest(`${server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer k' } }, (response) => {
        response.resume();
        resolve(response.statusCode!);
      });
      request.on('error', reject);
      request.write('{"query":');
      request.end('"{ a }"}');
    });
    expect(status).toBe(299);
    expect(handedOn).toEqual([{ method: 'POST', body: '{"query":"{ a }"}' }]);
  });

  it('survives a client that goes away mid-body', async () => {
    await new Promise<void>((resolve) => {
      const request = httpRequest(`${server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': 100 } });
      request.on('error', () => resolve());
      request.write('{"query":');
      setTimeout(() => {
        request.destroy();
        resolve();
      }, 20);
    });
    expect(await send({ body: JSON.stringify({ query: QUERY_TEXT }) })).toEqual({ status: 200, text: '{"data":{"a":1}}' });
  });

  it('picks the media type yoga would', () => {
    expect(answerMediaType(undefined)).toBe('application/json');
    expect(answerMediaType('application/graphql-response+json, application/json')).toBe('application/graphql-response+json');
    expect(answerMediaType('text/event-stream, multipart/mixed')).toBeUndefined();
    expect(answerMediaType('application/json; charset=iso-8859-1, application/graphql-response+json')).toBe('application/graphql-response+json');
  });
});

/**
 * Persisted documents are the door's own: a hash is resolved, refused or answered from the cache
 * in front of yoga, its errors written by the door (status and headers by the spec's rules), and
 * nothing is handed on.
 */
describe('persisted documents at the door', () => {
  const QUERY_TEXT = '{ a }';
  const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
  const handedOn: string[] = [];
  const servers: RunningServer[] = [];
  const cache = createResponseCache({ ttlMs: 30_000, translationOnlyTtlMs: 30_000 });
  let apq: RunningServer;
  let trusted: RunningServer;
  const adapter = (persisted: PersistedDocuments) =>
    createNodeAdapter({
      guards: { head: [routeGuard(createRouteTable({ graphiql: false, metrics: false }))], params: [], batch: [], operation: [] },
      cache,
      maskErrors: (result) => result,
      observers: [],
      persisted,
      next: (request, response) => {
        handedOn.push(request.url ?? '');
        response.writeHead(299).end();
      },
    });
  beforeAll(async () => {
    cache.keep(cache.keyOf(undefined, { query: QUERY_TEXT }), getOperationAST(parse(QUERY_TEXT))!, { data: { a: 1 } });
    const store = createMemoryKeyValueStore();
    await store.set(`apq:${sha256(QUERY_TEXT)}`, QUERY_TEXT, 60_000);
    apq = await listen(adapter(createPersistedDocuments({ store })));
    trusted = await listen(adapter(createPersistedDocuments({ trustedDocuments: { [sha256(QUERY_TEXT)]: QUERY_TEXT } })));
    servers.push(apq, trusted);
  });
  afterAll(async () => {
    for (const server of servers) await server.close();
  });

  const post = async (server: RunningServer, body: unknown, accept = 'application/graphql-response+json') => {
    const response = await fetch(`${server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', accept }, body: JSON.stringify(body) });
    return { status: response.status, contentType: response.headers.get('content-type'), cacheControl: response.headers.get('cache-control'), body: (await response.json()) as unknown };
  };
  const hashed = (hash: string, query?: string) => ({ query, extensions: { persistedQuery: { version: 1, sha256Hash: hash } } });

  it('answers a known hash from the cache', async () => {
    handedOn.length = 0;
    expect(await post(apq, hashed(sha256(QUERY_TEXT)))).toMatchObject({ status: 200, body: { data: { a: 1 } } });
    expect(handedOn).toEqual([]);
  });

  it.each([
    ['an unknown hash', hashed(sha256('{ b }')), 'application/graphql-response+json', 404, 'PERSISTED_QUERY_NOT_FOUND'],
    ['an unknown hash, asking for application/json', hashed(sha256('{ b }')), 'application/json', 404, 'PERSISTED_QUERY_NOT_FOUND'],
    ['a hash that is not its document’s', hashed(sha256('{ b }'), QUERY_TEXT), 'application/graphql-response+json', 400, 'PERSISTED_QUERY_HASH_MISMATCH'],
    ['a version it does not speak', { extensions: { persistedQuery: { version: 2, sha256Hash: sha256(QUERY_TEXT) } } }, 'application/json', 400, 'PERSISTED_QUERY_NOT_SUPPORTED'],
  ] as [string, unknown, string, number, string][])('refuses %s itself, in the media type asked for, and no cache may keep it', async (_name, body, accept, status, code) => {
    handedOn.length = 0;
    const answer = await post(apq, body, accept);
    expect(answer).toMatchObject({ status, contentType: `${accept}; charset=utf-8`, cacheControl: 'private, no-cache, must-revalidate' });
    expect(answer.body).toEqual({ errors: [{ message: expect.any(String), extensions: { code } }] });
    expect(handedOn).toEqual([]);
  });

  it('runs only trusted documents: another text is refused at the door, an entry named by its id is answered', async () => {
    handedOn.length = 0;
    expect(await post(trusted, { query: '{ b }' })).toMatchObject({ status: 400, body: { errors: [{ extensions: { code: 'PERSISTED_QUERY_ONLY' } }] } });
    expect(await post(trusted, { documentId: sha256('{ nope }') })).toMatchObject({ status: 400, body: { errors: [{ extensions: { code: 'UNKNOWN_OPERATION' } }] } });
    expect(await post(trusted, { documentId: sha256(QUERY_TEXT) })).toMatchObject({ status: 200, body: { data: { a: 1 } } });
    expect(handedOn).toEqual([]);
  });
});

/**
 * A document that does not parse or validate is the door's to answer, with the engine's errors the
 * planner kept (pipeline/document-planner.ts): by the GraphQL over HTTP spec's rules for status,
 * masked once, and never handed on to yoga; a document the planner leaves to yoga is handed on.
 */
describe('document errors at the door', () => {
  const handedOn: string[] = [];
  const planned: string[] = [];
  let server: RunningServer;
  const PARSE_FAILED = new GraphQLError('Syntax Error: Expected Name, found <EOF>.', { extensions: { code: 'GRAPHQL_PARSE_FAILED', http: { spec: true, status: 400 } } });
  beforeAll(async () => {
    server = await listen(
      createNodeAdapter({
        guards: { head: [routeGuard(createRouteTable({ graphiql: false, metrics: false }))], params: [], batch: [], operation: [] },
        cache: createResponseCache({ ttlMs: 0, translationOnlyTtlMs: 0 }),
        maskErrors: (result) => ({ ...result, errors: result.errors?.map((error) => new GraphQLError(`masked: ${error.message}`, { extensions: error.extensions })) }),
        observers: [],
        direct: {
          operations: createPreparedOperations(),
          plan: (query) => {
            planned.push(query);
            return query === '{' ? { errors: [PARSE_FAILED] } : null;
          },
        },
        next: (request, response) => {
          handedOn.push(request.url ?? '');
          response.writeHead(299).end();
        },
      }),
    );
  });
  afterAll(async () => {
    await server?.close();
  });

  const post = async (query: string, accept: string) => {
    const response = await fetch(`${server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', accept }, body: JSON.stringify({ query }) });
    return { status: response.status, contentType: response.headers.get('content-type'), body: await response.text() };
  };

  it.each([
    ['application/json', 200],
    ['application/graphql-response+json', 400],
  ])('answers its errors itself, masked, in %s with %i', async (accept, status) => {
    handedOn.length = 0;
    expect(await post('{', accept)).toEqual({
      status,
      contentType: `${accept}; charset=utf-8`,
      body: JSON.stringify({ errors: [{ message: 'masked: Syntax Error: Expected Name, found <EOF>.', extensions: { code: 'GRAPHQL_PARSE_FAILED' } }] }),
    });
    expect(handedOn).toEqual([]);
  });

  it('hands on a document the planner leaves to yoga', async () => {
    handedOn.length = 0;
    expect((await post('{ __schema { types { name } } }', 'application/json')).status).toBe(299);
    expect(handedOn).toHaveLength(1);
    expect(planned).toContain('{ __schema { types { name } } }');
  });
});
