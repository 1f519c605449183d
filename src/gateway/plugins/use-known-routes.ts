import type { Plugin } from 'graphql-yoga';
import { gatewayErrorResponse } from './gateway-error-response.ts';

export interface KnownRoutesOptions {
  /** @default '/graphql' */
  graphqlEndpoint?: string;
  /** Other exact paths the gateway serves, e.g. '/healthcheck', '/readiness', '/metrics'. */
  paths: string[];
  /** Path prefixes the gateway serves, e.g. the GraphiQL assets' folder. */
  prefixes?: string[];
}

/**
 * Answers 404 for every path the gateway does not serve, before any other plugin runs. Yoga would
 * otherwise run GraphQL for any URL that merely ends in the endpoint (`/graphql/`, `/x/graphql`,
 * `/?p=/graphql`), where the key check, rate limits and logs, which look at the exact endpoint,
 * never apply: deny by default instead.
 */
export function useKnownRoutes({ graphqlEndpoint = '/graphql', paths, prefixes = [] }: KnownRoutesOptions): Plugin {
  const exact = new Set([graphqlEndpoint, ...paths]);
  return {
    onRequest({ url, endResponse }) {
      if (exact.has(url.pathname) || prefixes.some((prefix) => url.pathname.startsWith(prefix))) return;
      endResponse(gatewayErrorResponse(404, `Not found: GraphQL is served at ${graphqlEndpoint}.`, 'NOT_FOUND'));
    },
  };
}
