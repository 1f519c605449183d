import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { listen, type RunningServer } from '../../src/shared/listen.ts';
import { newConnection } from './new-connection.ts';

/** A raw HTTP/1.1 connection, to see exactly when the server answers and when it hangs up. */
async function rawConnection(port: number) {
  const socket: Socket = connect(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  let text = '';
  socket.on('data', (chunk) => {
    text += chunk.toString();
  });
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  return {
    socket,
    closed,
    received: () => text,
    get: (path: string, headers = '') => socket.write(`GET ${path} HTTP/1.1\r\nHost: test\r\n${headers}\r\n`),
    /** Resolves once `count` whole responses (each ending in its body) have arrived. */
    responses: (count: number, bodyEnd: RegExp) =>
      new Promise<void>((resolve) => {
        const check = () => {
          if ((text.match(new RegExp(bodyEnd.source, 'g')) ?? []).length >= count) resolve();
          else socket.once('data', check);
        };
        check();
      }),
  };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('listen(): graceful shutdown', () => {
  let server: RunningServer | undefined;
  afterEach(async () => {
    await server?.close().catch(() => undefined);
    server = undefined;
  });

  it('MUST refuse new connections, close idle keep-alive connections at once, and let a request in flight finish', async () => {
    let releaseSlow: (() => void) | undefined;
    server = await listen((request, response) => {
      if (request.url === '/slow') releaseSlow = () => response.end('slow done');
      else response.end('quick done');
    });
    const order: string[] = [];

    const idle = await rawConnection(server.port);
    idle.get('/quick');
    await idle.responses(1, /quick done/);
    void idle.closed.then(() => order.push('idle connection closed'));

    const busy = await rawConnection(server.port);
    busy.get('/slow');
    while (!releaseSlow) await tick();
    void busy.closed.then(() => order.push('busy connection closed'));

    const stopping = server.shutdown(10_000);
    await idle.closed;
    expect(await newConnection(server.port)).toBe('ECONNREFUSED');
    expect(server.inFlight()).toBe(1);
    order.push('slow answer sent');
    releaseSlow!();
    await busy.closed;
    expect(await stopping).toEqual({ cutOff: [] });

    expect(order).toEqual(['idle connection closed', 'slow answer sent', 'busy connection closed']);
    // The answer is whole, and tells the client not to reuse the connection.
    expect(busy.received()).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(busy.received()).toMatch(/\r\nConnection: close\r\n/i);
    expect(busy.received()).toMatch(/slow done/);
  });

  it('MUST close a kept-alive connection once its answer is sent, when the answer began before the shutdown', async () => {
    let finish: (() => void) | undefined;
    server = await listen((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.write('part one, ');
      finish = () => response.end('part two');
    });
    const connection = await rawConnection(server.port);
    connection.get('/');
    while (!finish) await tick();
    const stopping = server.shutdown(10_000);
    finish();
    await connection.closed;
    expect(await stopping).toEqual({ cutOff: [] });
    expect(connection.received()).toMatch(/part one, /);
    expect(connection.received()).toMatch(/part two/);
  });

  it('MUST cut off requests still running when the time is up, and say which', async () => {
    server = await listen(() => undefined);
    const hanging = await rawConnection(server.port);
    hanging.get('/graphql?query=secret', 'x-request-id: req-42\r\n');
    while (server.inFlight() === 0) await tick();
    let toldBefore = false;
    const { cutOff } = await server.shutdown(200, () => (toldBefore = true));
    await hanging.closed;
    expect(toldBefore).toBe(true);
    expect(hanging.received()).toBe('');
    expect(cutOff).toEqual([{ method: 'GET', path: '/graphql', requestId: 'req-42', runningMs: expect.any(Number) }]);
    expect(cutOff[0]!.runningMs).toBeGreaterThanOrEqual(200);
  });
});
