import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface ListenOptions {
  /** Port to listen on; 0 picks a free one (what tests use). @default 0 */
  port?: number;
  /** Interface to bind. @default '127.0.0.1' */
  host?: string;
}

export interface RunningServer {
  /** Base URL without a trailing slash, e.g. `http://127.0.0.1:43121`. */
  url: string;
  port: number;
  server: Server;
  /** Stops accepting connections and drops idle keep-alive sockets so the process can exit. */
  close(): Promise<void>;
}

/** Serves a Node request listener over HTTP and resolves once it is accepting connections. */
export async function listen(listener: RequestListener, { port = 0, host = '127.0.0.1' }: ListenOptions = {}): Promise<RunningServer> {
  const server = createServer(listener);
  // Track sockets so close() does not wait for clients' keep-alive connections to time out.
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shownHost}:${address.port}`,
    port: address.port,
    server,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeIdleConnections();
        for (const socket of sockets) socket.destroy();
      }),
  };
}
