import { request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import { Agent, fetch as undiciFetch, request as undiciRequest } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeAdapter } from '../../src/gateway/pipeline/front-door/node-transport.ts';
import { identifyCallerGuard, requireKeyGuard } from '../../src/gateway/guards/client-key.ts';
import { declaredLengthGuard } from '../../src/gateway/guards/request-body.ts';
import { createRouteTable, routeGuard } from '../../src/gateway/guards/route.ts';
import { rateLimitGuards } from '../../src/gateway/guards/rate-limits.ts';
import { createMemoryRateLimitStore } from '../../src/gateway/guards/rate-limit-store.ts';
import { createResponseCache } from '../../src/gateway/execution/response-cache/response-cache.ts';
import { listen, type RunningServer } from '../../src/shared/listen.ts';

const MAX_BYTES = 1_000_000;
/** Just under the limit, as a flood of refused uploads would send. */
const LARGE = Buffer.alloc(900_000, 'x');

/**
 * The gateway's head guards (a request budget of `requests` a client, key 'k') in front of a
 * stand-in for yoga that reads the whole body and says how long it was; `counted` is told each
 * pass of the head guards.
 */
function standInAdapter(requests: number, counted?: () => void) {
  const rateLimits = rateLimitGuards({ store: createMemoryRateLimitStore(), requests, translationRequests: 10, windowMs: 60_000 });
  return createNodeAdapter({
    guards: {
      head: [
        routeGuard(createRouteTable({ graphiql: false, metrics: false })),
        { name: 'count', check: () => void counted?.() },
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
    next: (request: IncomingMessage, response: ServerResponse) => {
      let length = 0;
      request.on('data', (chunk: Buffer) => (length += chunk.byteLength));
      request.on('end', () => {
        // Of declared length, which the bare-socket client below reads by.
        const text = String(length);
        response.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(text.length) });
        response.end(text);
      });
    },
  });
}

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
    const listener = standInAdapter(100_000);
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

/**
 * With the adapter's `checkContinue` on the server's 'checkContinue' event, a client that sends
 * `Expect: 100-continue` and waits for it (node:http's client, curl above 1 MiB) is told
 * `100 Continue` only once the head guards let its request through: refused, it gets the refusal
 * and uploads nothing; let through, it is served as without Expect. The head guards run once per
 * request either way.
 */
describe('a request sent with Expect: 100-continue is refused before its body is asked for', () => {
  /** A gateway's head guards in front of a stand-in for yoga, on a server that hands 'checkContinue' to the adapter. */
  const startAdapter = async (requests: number) => {
    const state = { headRuns: 0, readPerConnection: new Map<number, number>(), server: undefined as unknown as RunningServer };
    const listener = standInAdapter(requests, () => (state.headRuns += 1));
    state.server = await listen(listener, { checkContinue: listener.checkContinue });
    state.server.server.on('connection', (socket: Socket) => {
      const port = socket.remotePort!;
      socket.once('close', () => state.readPerConnection.set(port, socket.bytesRead));
    });
    return state;
  };
  let open: Awaited<ReturnType<typeof startAdapter>>;
  /** Every client's budget spent by the first request. */
  let spent: Awaited<ReturnType<typeof startAdapter>>;
  beforeAll(async () => {
    open = await startAdapter(100_000);
    spent = await startAdapter(1);
  });
  afterAll(async () => {
    await open?.server.close();
    await spent?.server.close();
  });

  type Answer = { status?: number; text?: string; error?: string; connection?: string; continued: boolean; port?: number };
  /** Just under the declared-length limit: what a refused client would otherwise upload in full. */
  const BODY = Buffer.alloc(MAX_BYTES - 1, 'x');

  /** node:http's client with `Expect: 100-continue`: writes the body on 'continue' only, as documented for it. */
  const nodePost = (url: string, headers: Record<string, string>, body: Buffer) =>
    new Promise<Answer>((resolve) => {
      let continued = false;
      const request = httpRequest(
        `${url}/graphql`,
        { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(body.byteLength), expect: '100-continue', ...headers } },
        (response) => {
          let text = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (text += chunk));
          response.on('end', () => {
            resolve({ status: response.statusCode, text, connection: response.headers.connection, continued, port: request.socket?.localPort });
            // Refused: the body it never sent is not sent now.
            if (!continued) request.destroy();
          });
        },
      );
      request.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code, continued }));
      request.on('continue', () => {
        continued = true;
        request.end(body);
      });
    });

  /**
   * A client on a bare socket that sends the head, then the body only if the first thing it reads
   * is `100 Continue` (what curl does, with no wait for a server that never sends it).
   */
  const rawPost = (url: string, headers: Record<string, string>, body: Buffer) =>
    new Promise<Answer>((resolve) => {
      const { hostname, port } = new URL(url);
      const socket = connect(Number(port), hostname);
      let received = Buffer.alloc(0);
      let continued = false;
      const head = { host: `${hostname}:${port}`, 'content-type': 'application/json', 'content-length': String(body.byteLength), expect: '100-continue', ...headers };
      socket.on('connect', () => socket.write(`POST /graphql HTTP/1.1\r\n${Object.entries(head).map(([name, value]) => `${name}: ${value}\r\n`).join('')}\r\n`));
      socket.on('data', (chunk: Buffer) => {
        received = Buffer.concat([received, chunk]);
        if (!continued && received.toString('latin1').startsWith('HTTP/1.1 100 Continue\r\n\r\n')) {
          continued = true;
          received = received.subarray('HTTP/1.1 100 Continue\r\n\r\n'.length);
          socket.write(body);
        }
        const text = received.toString('latin1');
        const end = text.indexOf('\r\n\r\n');
        const length = /\r\ncontent-length: (\d+)/i.exec(text.slice(0, end));
        if (end < 0 || !length || received.byteLength < end + 4 + Number(length[1])) return;
        resolve({
          status: Number(text.slice(9, 12)),
          text: text.slice(end + 4),
          connection: /\r\nconnection: ([^\r]*)/i.exec(text.slice(0, end))?.[1],
          continued,
          port: socket.localPort,
        });
        socket.destroy();
      });
      socket.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code, continued }));
      // Closed before a whole answer (a no-op once resolved).
      socket.on('close', () => resolve({ error: 'closed', continued }));
    });

  const clients: [string, typeof nodePost][] = [
    ['node:http', nodePost],
    ['a bare socket (as curl)', rawPost],
  ];

  it.each(clients)('%s without a key gets the refusal, no 100 Continue, and the gateway reads no body', async (_name, post) => {
    const runsBefore = open.headRuns;
    const answers = await Promise.all(Array.from({ length: 4 }, () => post(open.server.url, {}, BODY)));
    for (const answer of answers) {
      expect(answer).toMatchObject({ status: 401, connection: 'close', continued: false });
      expect(answer.text).toMatch(/A valid gateway key is required/);
      await expect.poll(() => open.readPerConnection.has(answer.port!), { timeout: 5000 }).toBe(true);
      // The head alone: a few hundred bytes of the megabyte declared.
      expect(open.readPerConnection.get(answer.port!)).toBeLessThan(1_000);
    }
    expect(open.headRuns - runsBefore).toBe(4);
  });

  it.each(clients)('%s with a spent budget gets the 429, no 100 Continue, and the gateway reads no body', async (_name, post) => {
    await post(spent.server.url, { authorization: 'Bearer k' }, Buffer.from('{}'));
    const answer = await post(spent.server.url, { authorization: 'Bearer k' }, BODY);
    expect(answer).toMatchObject({ status: 429, connection: 'close', continued: false });
    await expect.poll(() => spent.readPerConnection.has(answer.port!), { timeout: 5000 }).toBe(true);
    expect(spent.readPerConnection.get(answer.port!)).toBeLessThan(1_000);
  });

  it.each(clients)('%s with a key gets 100 Continue and its answer, the head guards run once', async (_name, post) => {
    const runsBefore = open.headRuns;
    const answer = await post(open.server.url, { authorization: 'Bearer k' }, BODY);
    expect(answer).toMatchObject({ status: 200, text: String(BODY.byteLength), continued: true });
    expect(answer.connection).not.toBe('close');
    expect(open.headRuns - runsBefore).toBe(1);
  });

  it('undici (fetch and request) sends no Expect over HTTP/1.1, and is answered as without the checkContinue listener', async () => {
    // undici refuses the header, and its expectContinue option applies to HTTP/2 only.
    await expect(undiciRequest(`${open.server.url}/graphql`, { method: 'POST', headers: { expect: '100-continue' }, body: 'x' })).rejects.toThrow(/expect/i);
    const refused = await undiciRequest(`${open.server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: LARGE, expectContinue: true });
    expect(refused.statusCode).toBe(401);
    expect(await refused.body.text()).toMatch(/A valid gateway key is required/);
    const runsBefore = open.headRuns;
    const keyed = await undiciFetch(`${open.server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'text/plain', authorization: 'Bearer k' }, body: LARGE });
    expect(keyed.status).toBe(200);
    expect(await keyed.text()).toBe(String(LARGE.byteLength));
    expect(open.headRuns - runsBefore).toBe(1);
  });

  it('counts a request sent with Expect among those in flight once let through (a graceful shutdown waits for it)', async () => {
    // Told to go on, then never sending its body: the request stays in flight until the client goes.
    const { hostname, port } = new URL(open.server.url);
    const socket = connect(Number(port), hostname);
    socket.write(`POST /graphql HTTP/1.1\r\nhost: ${hostname}\r\nauthorization: Bearer k\r\ncontent-length: 10\r\nexpect: 100-continue\r\n\r\n`);
    const first = await new Promise<string>((resolve) => socket.once('data', (chunk: Buffer) => resolve(chunk.toString('latin1'))));
    expect(first).toBe('HTTP/1.1 100 Continue\r\n\r\n');
    expect(open.server.inFlight()).toBe(1);
    socket.destroy();
    await expect.poll(() => open.server.inFlight()).toBe(0);
  });
});
