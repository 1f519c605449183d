import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { ErrorCode } from '../errors.ts';
import { gatewayError } from '../request/early-answer.ts';

/** A Node request listener serving the gateway under one path, for servers that do not cut the mount path themselves. */
export interface MountedListener {
  (request: IncomingMessage, response: ServerResponse): void;
  /** The mount path, without a trailing slash: GraphQL and GraphiQL here, the other routes below (`<path>/readiness`). */
  readonly path: string;
  /** Whether a URL path (no query string) is the mount path or below it: the requests to hand to the listener. */
  owns(pathname: string): boolean;
}

/**
 * The gateway's listener (`gateway.listener`, or `gateway.checkContinue`) mounted at `path` the way
 * Express and Connect mount middleware: the request's `url` is cut below the mount and the full one
 * kept as `originalUrl`, from which the gateway learns where it is served. For node:http, Fastify,
 * Koa and any server that hands on the whole URL. A request outside the mount gets the gateway's 404.
 */
export function mountAt(path: string, listener: RequestListener): MountedListener {
  if (!/^\/[^?#\s]*$/.test(path)) throw new TypeError(`mountAt: the mount path must start with "/" and hold no query, fragment or space (got ${JSON.stringify(path)})`);
  const mount = path.replace(/\/+$/, '');
  const owns = (pathname: string) => pathname === mount || pathname.startsWith(`${mount}/`) || (mount === '' && pathname === '/');
  const notFound = gatewayError(404, `Not found: GraphQL is served at ${mount || '/'}.`, ErrorCode.NotFound);
  const mounted = (request: IncomingMessage, response: ServerResponse) => {
    const url = request.url ?? '/';
    const queryAt = url.search(/[?#]/);
    const pathname = queryAt === -1 ? url : url.slice(0, queryAt);
    if (!owns(pathname)) {
      response.writeHead(notFound.status, notFound.headers).end(request.method === 'HEAD' ? undefined : notFound.body);
      return;
    }
    const carrier = request as IncomingMessage & { originalUrl?: string };
    carrier.originalUrl ??= url;
    request.url = url.slice(mount.length) || '/';
    if (request.url.startsWith('?')) request.url = `/${request.url}`;
    listener(request, response);
  };
  return Object.assign(mounted, { path: mount || '/', owns });
}
