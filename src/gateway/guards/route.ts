import { GRAPHIQL_ASSETS_FOLDER, GRAPHIQL_ASSET_NAMES } from '../graphiql/assets.ts';
import { ErrorCode } from '../errors.ts';
import { readOnlyRefusal } from '../observability/read-only-endpoint.ts';
import { gatewayError } from '../request/early-answer.ts';
import type { HeadGuard } from '../request/guards.ts';
import type { Route } from '../request/route.ts';

export interface RouteTableOptions {
  /** @default '/graphql' */
  graphqlEndpoint?: string;
  /** Serve GraphiQL's files (GATEWAY_GRAPHIQL). */
  graphiql: boolean;
  /** Serve /metrics (METRICS_ENABLED). */
  metrics: boolean;
}

export interface RouteTable {
  graphqlEndpoint: string;
  /** The route of a URL path, compared exactly (after WHATWG URL normalization, as yoga sees it); undefined = 404. */
  routeFor(pathname: string): Route | undefined;
}

export const HEALTHCHECK_PATH = '/healthcheck';
export const READINESS_PATH = '/readiness';
export const METRICS_PATH = '/metrics';

/**
 * The one table of paths the gateway serves. Every other spelling (a trailing or doubled slash, other
 * case, percent-encoded letters, a prefix, another folder) is not a route: yoga would run GraphQL for
 * any path that merely ends in the endpoint, so the decision is exact and made here only.
 */
export function createRouteTable({ graphqlEndpoint = '/graphql', graphiql, metrics }: RouteTableOptions): RouteTable {
  const routes = new Map<string, Route>([
    [graphqlEndpoint, 'graphql'],
    [HEALTHCHECK_PATH, 'healthcheck'],
    [READINESS_PATH, 'readiness'],
  ]);
  if (metrics) routes.set(METRICS_PATH, 'metrics');
  if (graphiql) {
    // The page loads its files relative to the endpoint: `/graphql` → `/graphiql/<name>`.
    const folder = `${graphqlEndpoint.replace(/[^/]*$/, '')}${GRAPHIQL_ASSETS_FOLDER}/`;
    for (const name of GRAPHIQL_ASSET_NAMES) routes.set(folder + name, 'graphiql-asset');
  }
  return { graphqlEndpoint, routeFor: (pathname) => routes.get(pathname) };
}

/**
 * First of the head guards: routes the request by the table, answers /healthcheck (liveness: the
 * process answers) and 404 for any path not in the table, before any other guard sees it; decides
 * whether the request asks for GraphQL: the endpoint, not a CORS preflight, and not a GET without an
 * operation (the GraphiQL page, or an empty request yoga refuses without running anything).
 */
export function routeGuard(table: RouteTable): HeadGuard {
  const notFound = gatewayError(404, `Not found: GraphQL is served at ${table.graphqlEndpoint}.`, ErrorCode.NotFound);
  return {
    name: 'route',
    check(request) {
      // Mounted by an app, the gateway serves GraphQL at the mount path itself.
      const mountRoot = request.mountPath !== undefined && (request.pathname === '/' || request.pathname === '');
      const route = table.routeFor(mountRoot ? table.graphqlEndpoint : request.pathname);
      if (!route) return request.mountPath === undefined ? notFound : gatewayError(404, `Not found: GraphQL is served at ${request.mountPath}.`, ErrorCode.NotFound);
      const { method } = request.head;
      request.route = route;
      request.graphql = route === 'graphql' && method !== 'OPTIONS' && !(method === 'GET' && !request.hasQueryParameter);
      if (route !== 'healthcheck') return undefined;
      return readOnlyRefusal(method) ?? { status: 200, headers: HEALTHCHECK_HEADERS, body: method === 'HEAD' ? null : '{"status":"alive"}' };
    },
  };
}

const HEALTHCHECK_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };
