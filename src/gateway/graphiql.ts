import type { GraphQLSchema } from 'graphql';
import type { GraphiQLOptions, YogaServerOptions } from 'graphql-yoga';
import { renderGraphiQLPage } from './graphiql/assets.ts';
import { graphiqlExamplesFor } from './graphiql/examples.ts';
import { gatewayRequestOf } from './request/gateway-request.ts';

export { useGraphiQLAssets } from './graphiql/assets.ts';

export interface GraphiQLPageOptions {
  /** Whether clients must send a gateway key (GATEWAY_API_KEYS set): the page then hints at the header. */
  keysRequired: boolean;
  /** The schema served, from which the example tabs are written (its list field, pagination shape and fields). */
  schema: GraphQLSchema;
}

export interface GraphiQLServingOptions extends GraphiQLPageOptions {
  /** Whether a request without a request object of the gateway's is for the GraphQL endpoint itself; yoga would serve the page on any path ending in it. */
  onPath: (request: Request) => boolean;
}

/** What the headers editor holds when a gateway key is required. */
export const GATEWAY_KEY_HEADERS_HINT = JSON.stringify({ Authorization: 'Bearer <your gateway key>' }, null, 2);

/** The GraphiQL options of the page: title, example tabs, and the key hint when keys are required. */
export function graphiqlOptions({ keysRequired, schema }: GraphiQLPageOptions): GraphiQLOptions {
  const headers = keysRequired ? GATEWAY_KEY_HEADERS_HINT : undefined;
  const examples = graphiqlExamplesFor(schema);
  return {
    title: 'Problems + Translation gateway',
    defaultQuery: examples[0]?.query ?? '{ __typename }\n',
    defaultTabs: examples.map(({ query }) => ({ query, variables: null, headers: headers ?? null })),
    // Yoga passes `headers` to GraphiQL as the headers of every new tab.
    ...(headers ? { headers } : {}),
  };
}

/**
 * The yoga options that shape the GraphiQL page served on GET /graphql from a browser. The page loads
 * nothing from outside the gateway: its files are served by `useGraphiQLAssets()`, which must be in
 * the yoga plugins.
 */
export function graphiqlYogaOptions({ onPath, ...options }: GraphiQLServingOptions): Pick<YogaServerOptions<object, object>, 'graphiql' | 'renderGraphiQL'> {
  const page = graphiqlOptions(options);
  return {
    graphiql: (request, serverContext) => {
      // The route as the guards decided it, below the mount when an app mounted the gateway.
      const gateway = gatewayRequestOf(serverContext);
      if (gateway ? gateway.route !== 'graphql' : !onPath(request)) return false;
      // Mounted, the page is served at the mount path itself: its files are below it.
      return gateway?.mountPath ? { ...page, assetsBase: `${gateway.mountPath}/` } : page;
    },
    renderGraphiQL: renderGraphiQLPage,
  };
}
