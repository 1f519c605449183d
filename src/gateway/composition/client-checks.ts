import type { GatewayLog } from '../gateway-log.ts';
import { loadTrustedDocuments } from '../guards/persisted-documents.ts';
import { createMemoryRateLimitStore, type RateLimitStore } from '../guards/rate-limit-store.ts';
import { createRouteTable, type RouteTable } from '../guards/route.ts';
import type { Observability } from '../observability/index.ts';
import type { GuardList } from '../request/guards.ts';
import type { GatewaySettings } from '../settings.ts';
import type { SharedStores } from '../shared-stores.ts';
import { gatewayGuards } from './gateway-guards.ts';

export interface ClientChecks {
  /** The gateway's routes below where it is mounted. */
  routes: RouteTable;
  /** TRUSTED_DOCUMENTS by id, when only those may run. */
  trustedDocuments: Record<string, string> | undefined;
  /** Every check a client request goes through, by phase, in order (gateway-guards.ts). */
  guards: GuardList;
}

export interface ClientChecksOptions {
  graphqlEndpoint: string;
  /** The app's own store, else the replicas' shared one (REDIS_URL), else counters in this process. */
  rateLimitStore: RateLimitStore | undefined;
  shared: SharedStores | undefined;
  observability: Pick<Observability, 'observers' | 'onRateLimited'>;
  appGuards: Partial<GuardList>;
  log: GatewayLog;
}

/** What a client request is checked against: the routes, the trusted documents (said once, at start) and the guard list. */
export function clientChecks(settings: GatewaySettings, { graphqlEndpoint, rateLimitStore, shared, observability, appGuards, log }: ClientChecksOptions): ClientChecks {
  const routes = createRouteTable({ graphqlEndpoint, graphiql: settings.graphiql, metrics: settings.metricsEnabled });
  const trustedDocuments = settings.trustedDocuments ? loadTrustedDocuments(settings.trustedDocuments) : undefined;
  if (trustedDocuments) log(`trusted documents: ${Object.keys(trustedDocuments).length} loaded from ${settings.trustedDocuments}; any other operation is refused`, 'info');
  const guards = gatewayGuards({
    settings,
    routes,
    rateLimitStore: rateLimitStore ?? shared?.rateLimitStore ?? createMemoryRateLimitStore(),
    observability,
    appGuards,
  });
  return { routes, trustedDocuments, guards };
}
