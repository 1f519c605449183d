import { connect } from 'node:net';

/** What a new TCP connection to `port` on 127.0.0.1 meets: `accepted`, or the error code (`ECONNREFUSED` once the listener is closed). */
export const newConnection = (port: number) =>
  new Promise<string>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve('accepted');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
