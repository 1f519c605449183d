import { gatewayRequestOf } from '../request/gateway-request.ts';
import type { Plugin } from 'graphql-yoga';
import type { Registry } from 'prom-client';
import { refuseUnlessRead } from './read-only-endpoint.ts';

export interface MetricsEndpointOptions {
  registry: Registry;
  /** @default '/metrics' */
  endpoint?: string;
}

/**
 * Serves the registry in the Prometheus text format on GET `endpoint`. Open like /healthcheck (a
 * scraper carries no gateway key): it holds counts and operation names, never a key or a variable,
 * but firewall it on a public gateway, or turn it off with `METRICS_ENABLED=false`.
 */
export function useMetricsEndpoint({ registry, endpoint = '/metrics' }: MetricsEndpointOptions): Plugin {
  return {
    async onRequest({ request, url, endResponse, serverContext }) {
      // The path as routed (below the mount, when an app mounted the gateway).
      if ((gatewayRequestOf(serverContext)?.pathname ?? url.pathname) !== endpoint) return;
      if (refuseUnlessRead(request, endResponse)) return;
      const body = await registry.metrics();
      endResponse(new Response(request.method === 'HEAD' ? null : body, { headers: { 'content-type': registry.contentType, 'cache-control': 'no-store' } }));
    },
  };
}
