import { request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { Agent, fetch as undiciFetch, request as undiciRequest } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeAdapter } from '../../src/gateway/pipeline/node-adapter.ts';
import { identifyCallerGuard, requireKeyGuard } from '../../src/gateway/guards/client-key.ts';
import { declaredLengthGuard } from '../../src/gateway/guards/request-body.ts';
import { createRouteTable, routeGuard } from '../../src/gateway/guards/route.ts';
import { rateLimitGuards } from '../../src/gateway/guards/rate-limits.ts';
import { createMemoryRateLimitStore } from '../../src/gateway/guards/rate-limit-store.ts';
import { createResponseCache } from '../../src/gateway/execution/cache/response-cache.ts';
import { listen, type RunningServer } from '../../src/shared/listen.ts';

const MAX_BYTES = 1_000_000;
/** Just under the limit, as a flood of refused uploads would send. */
const LARGE = Buffer.alloc(900_000, 'x');

/**
 * A request the head guards refuse is answered without its body being read, and its connection
 * closed after the answer: every kind of client still gets the status and the body of the refusal
 * (never a reset in its place), and connections of accepted requests stay alive.
 */
describe('a refused request’s body is not read', () => {
  let server: RunningServer;
  /** Bytes node:http read from each connection, once it closed, by the client's port. */
  const readPerConnection = new Map<number, number>();
  let connections = 0;
  beforeAll(async () => {
    const rateLimits = rateLimitGuards({ store: createMemoryRateLimitStore(), requests: 100_000, translationRequests: 10, windowMs: 60_000 });
    const listener = createNodeAdapter({
      guards: {
        head: [
          routeGuard(createRouteTable({ graphiql: false, metrics: false })),
          identifyCallerGuard({ keys: ['k'], trustProxy: false }),
          rateLimits.requests,
          requireKeyGuard(),
          declaredLengthGuard({ maxBytes: MAX_BYTES }),
        ],
        params: [],
        batch: [],
        operation: [],
      },
      cache: createResponseCache({ ttlMs: 0, translationOnlyTtlMs: 0 }),
      maskErrors: (result) => result,
      observers: [],
      // Stands in for yoga: reads the whole body and says how long it was.
      next: (request: IncomingMessage, response: ServerResponse) => {
        let length = 0;
        request.on('data', (chunk: Buffer) => (length += chunk.byteLength));
        request.on('end', () => {
          response.writeHead(200, { 'content-type': 'text/plain' });
          response.end(String(length));
        });
      },
    });
    server = await listen(listener);
    server.server.on('connection', (socket: Socket) => {
      connections += 1;
      const port = socket.remotePort!;
      socket.once('close', () => readPerConnection.set(port, socket.bytesRead));
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  const url = () => `${server.url}/graphql`;
  const refusalText = /A valid gateway key is required/;

  /** node:http's client, resolving with the status and body it read (or the error it got before any answer). */
  const nodePost = (headers: Record<string, string>, body: Buffer, waitForContinue = false) =>
    new Promise<{ status?: number; text?: string; error?: string; connection?: string; port?: number }>((resolve) => {
      const request = httpRequest(url(), { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(body.byteLength), ...headers } }, (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode, text, connection: response.headers.connection, port: request.socket?.localPort }));
        response.on('error', (error: NodeJS.ErrnoException) => resolve({ status: response.statusCode, error: error.code }));
      });
      // The upload is cut off once the answer has been read: that later error is expected.
      request.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code }));
      if (waitForContinue) request.on('continue', () => request.end(body));
      else request.end(body);
    });

  const clients: [string, () => Promise<{ status?: number; text?: string; error?: string }>][] = [
    ['node:http', () => nodePost({}, LARGE)],
    ['node:http, Expect: 100-continue', () => nodePost({ expect: '100-continue' }, LARGE, true)],
    [
      'fetch (undici)',
      async () => {
        try {
          const response = await undiciFetch(url(), { method: 'POST', headers: { 'content-type': 'application/json' }, body: LARGE });
          return { status: response.status, text: await response.text() };
        } catch (error) {
          return { error: String((error as { cause?: { code?: string } }).cause?.code ?? error) };
        }
      },
    ],
    ...[false, true].map((expectContinue): [string, () => Promise<{ status?: number; text?: string; error?: string }>] => [
      `undici.request${expectContinue ? ', expectContinue' : ''}`,
      async () => {
        try {
          const response = await undiciRequest(url(), { method: 'POST', headers: { 'content-type': 'application/json' }, body: LARGE, expectContinue });
          return { status: response.statusCode, text: await response.body.text() };
        } catch (error) {
          return { error: String((error as { code?: string }).code ?? error) };
        }
      },
    ]),
  ];

  it.each(clients)('%s gets the refusal, status and body, four clients at once', async (_name, send) => {
    for (let round = 0; round < 3; round += 1) {
      const answers = await Promise.all(Array.from({ length: 4 }, send));
      for (const answer of answers) {
        expect(answer.error).toBeUndefined();
        expect(answer.status).toBe(401);
        expect(answer.text).toMatch(refusalText);
      }
    }
  });

  it('closes the connection after the refusal, having read a small part of the body', async () => {
    const answer = await nodePost({}, LARGE);
    expect(answer).toMatchObject({ status: 401, connection: 'close' });
    await expect.poll(() => readPerConnection.has(answer.port!), { timeout: 5000 }).toBe(true);
    const read = readPerConnection.get(answer.port!)!;
    expect(read).toBeGreaterThan(0);
    expect(read).toBeLessThan(LARGE.byteLength / 4);
  });

  it('refuses a body over the limit (413) the same way', async () => {
    const answer = await nodePost({ authorization: 'Bearer k' }, Buffer.alloc(MAX_BYTES + 1, 'x'));
    expect(answer).toMatchObject({ status: 413, connection: 'close' });
    expect(answer.text).toMatch(/too large/i);
  });

  it('keeps accepted requests’ connections alive, large bodies read in full', async () => {
    const agent = new Agent({ connections: 1 });
    try {
      const before = connections;
      for (let index = 0; index < 3; index += 1) {
        const response = await undiciRequest(url(), { dispatcher: agent, method: 'POST', headers: { 'content-type': 'text/plain', authorization: 'Bearer k' }, body: LARGE });
        expect(response.statusCode).toBe(200);
        expect(await response.body.text()).toBe(String(LARGE.byteLength));
        expect(response.headers.connection).not.toBe('close');
      }
      // A refusal without a body leaves the connection alive too.
      const refused = await undiciRequest(`${url()}?query=%7B__typename%7D`, { dispatcher: agent });
      expect(refused.statusCode).toBe(401);
      await refused.body.text();
      const again = await undiciRequest(url(), { dispatcher: agent, method: 'POST', headers: { 'content-type': 'text/plain', authorization: 'Bearer k' }, body: 'x' });
      expect(await again.body.text()).toBe('1');
      expect(connections - before).toBe(1);
    } finally {
      await agent.close();
    }
  });
});
