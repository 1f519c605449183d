import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';

export interface ListenOptions {
  /** Port to listen on; 0 picks a free one (what tests use). @default 0 */
  port?: number;
  /** Interface to bind. @default '127.0.0.1' */
  host?: string;
  /**
   * Serves requests sent with `Expect: 100-continue` (node:http's 'checkContinue'), deciding itself
   * whether to send `100 Continue` (a gateway's `checkContinue`). Without it, node:http sends it
   * before `listener` runs.
   */
  checkContinue?: RequestListener;
}

/** A request that was still running when a graceful shutdown ran out of time. */
export interface CutOffRequest {
  method: string;
  /** The path without its query string (which may carry a client's data). */
  path: string;
  /** The request's `x-request-id` header, when it has one (as the listener left it). */
  requestId?: string;
  /** How long it had been running when it was cut off. */
  runningMs: number;
}

export interface ShutdownResult {
  /** Requests whose clients got no answer, or only part of one, because the time ran out. */
  cutOff: CutOffRequest[];
}

export interface RunningServer {
  /** Base URL without a trailing slash, e.g. `http://127.0.0.1:43121`. */
  url: string;
  port: number;
  server: Server;
  /** Requests received and not yet answered in full. */
  inFlight(): number;
  /** Stops accepting connections and drops every socket now, busy or not (tests, stand-ins). */
  close(): Promise<void>;
  /**
   * Graceful stop: refuses new connections at once, closes idle keep-alive connections at once and
   * busy ones as soon as their response is sent (answering `Connection: close`), and resolves when
   * none is left or, after `timeoutMs`, drops the rest and says which requests they were running.
   * `beforeCutOff` runs just before they are dropped (to stop logging them as answered).
   */
  shutdown(timeoutMs: number, beforeCutOff?: () => void): Promise<ShutdownResult>;
}

/** Serves a Node request listener over HTTP and resolves once it is accepting connections. */
export async function listen(listener: RequestListener, { port = 0, host = '127.0.0.1', checkContinue }: ListenOptions = {}): Promise<RunningServer> {
  const server = createServer(listener);
  // Only when given one: with any 'checkContinue' listener, node:http emits that instead of 'request'.
  if (checkContinue) server.on('checkContinue', checkContinue);
  // Track sockets so close() does not wait for clients' keep-alive connections to time out.
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  const inFlight = new Map<ServerResponse, { request: IncomingMessage; startedAt: number }>();
  let draining = false;
  // Before the listener, so the header is in place whatever the listener writes.
  const track = (request: IncomingMessage, response: ServerResponse) => {
    if (draining) response.setHeader('connection', 'close');
    inFlight.set(response, { request, startedAt: performance.now() });
    response.once('close', () => {
      inFlight.delete(response);
      // A keep-alive connection whose answer went out before the shutdown began is idle only now.
      if (draining) setImmediate(() => server.closeIdleConnections());
    });
  };
  server.prependListener('request', track);
  // A request sent with `Expect: 100-continue` is emitted as 'checkContinue' alone, never as 'request'.
  if (checkContinue) server.prependListener('checkContinue', track);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  // Resolves once the server is closed and its last connection has ended.
  let closed: Promise<void> | undefined;
  const stopAccepting = () =>
    (closed ??= new Promise<void>((resolve, reject) => {
      server.close((error) => (error ? reject(error) : resolve()));
    }));
  return {
    url: `http://${shownHost}:${address.port}`,
    port: address.port,
    server,
    inFlight: () => inFlight.size,
    close: () => {
      const done = stopAccepting();
      server.closeIdleConnections();
      for (const socket of sockets) socket.destroy();
      return done;
    },
    shutdown: async (timeoutMs, beforeCutOff) => {
      draining = true;
      const done = stopAccepting();
      server.closeIdleConnections();
      // Answers not started yet tell their client not to send another request on this connection.
      for (const response of inFlight.keys()) if (!response.headersSent) response.setHeader('connection', 'close');
      let timer: NodeJS.Timeout | undefined;
      const outOfTime = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs)));
      const outcome = await Promise.race([done.then(() => 'drained' as const), outOfTime]);
      clearTimeout(timer);
      if (outcome === 'drained') return { cutOff: [] };
      const now = performance.now();
      const cutOff = [...inFlight.values()].map(({ request, startedAt }): CutOffRequest => {
        const requestId = request.headers['x-request-id'];
        return {
          method: request.method ?? 'GET',
          path: (request.url ?? '/').split('?')[0]!,
          requestId: typeof requestId === 'string' ? requestId : undefined,
          runningMs: Math.round(now - startedAt),
        };
      });
      beforeCutOff?.();
      for (const socket of sockets) socket.destroy();
      await done;
      return { cutOff };
    },
  };
}

/**
 * Resolves when `port` can be bound on `host` now (bound and let go at once), and rejects with one
 * line naming the port when it cannot: an entry checks it before the seconds a schema build takes,
 * so a port taken is said at once. Another process may still take the port in between; `listen`
 * then fails as it would have.
 */
export async function checkPortFree(port: number, host: string): Promise<void> {
  if (port === 0) return;
  const probe = createNetServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', (error: NodeJS.ErrnoException) => {
      const why = error.code === 'EADDRINUSE' ? 'is in use by another process' : error.code === 'EACCES' ? 'may not be bound by this user' : `cannot be bound (${error.code ?? error.message})`;
      reject(new Error(`port ${port} on ${host} ${why}: stop what holds it or set PORT to another port`));
    });
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve()));
  });
}
