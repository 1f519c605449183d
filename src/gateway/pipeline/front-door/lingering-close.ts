import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

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
export function lingeringCloser(): (request: IncomingMessage, response: ServerResponse) => void {
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
export function bodyUnread(request: IncomingMessage): boolean {
  if (request.complete) return false;
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}
