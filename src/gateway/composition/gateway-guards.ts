import { identifyCallerGuard, requireKeyGuard } from '../guards/client-key.ts';
import { csrfGuard } from '../guards/csrf.ts';
import { conditionsGuard, executionLimitsGuard, variablesDepthGuard } from '../guards/operation-limits.ts';
import type { RateLimitStore } from '../guards/rate-limit-store.ts';
import { rateLimitGuards } from '../guards/rate-limits.ts';
import { declaredLengthGuard } from '../guards/request-body.ts';
import { routeGuard, type RouteTable } from '../guards/route.ts';
import { translationArgumentsGuard } from '../guards/translation-arguments.ts';
import type { Observability } from '../observability/index.ts';
import { observeArrivalGuard } from '../observability/use-request-observation.ts';
import type { GuardList } from '../request/guards.ts';
import type { GatewaySettings } from '../settings.ts';

export interface GatewayGuardsOptions {
  settings: GatewaySettings;
  routes: RouteTable;
  /** Where per-client rate-limit counters live. */
  rateLimitStore: RateLimitStore;
  observability: Pick<Observability, 'observers' | 'onRateLimited'>;
  /** The app's own checks, each phase's run after the gateway's. */
  appGuards: Partial<GuardList>;
}

/**
 * Every check a client request goes through, by phase, in order. Both adapters run this list and
 * check nothing of their own (pipeline/guard-list.ts); an app's guards come after the gateway's in
 * each phase.
 */
export function gatewayGuards({ settings, routes, rateLimitStore, observability, appGuards }: GatewayGuardsOptions): GuardList {
  const rateLimits = rateLimitGuards({
    store: rateLimitStore,
    requests: settings.rateLimitRequests,
    translationRequests: settings.translationRateLimitRequests,
    windowMs: settings.rateLimitWindowSeconds * 1000,
    maxBatchOperations: settings.maxBatchOperations,
    onRejected: observability.onRateLimited,
  });
  const guards: GuardList = {
    // On the head, before any body is read: cheap, and they refuse what must not cost more.
    head: [
      // One path executes GraphQL; anything else is 404 before any other guard sees it.
      routeGuard(routes),
      // Every routed request is observed, those refused below included.
      observeArrivalGuard({ observers: observability.observers }),
      // Who is calling, then the requests budget, then the key: wrong keys count like any request
      // before their 401, so guessing keys is rate-limited.
      identifyCallerGuard({ keys: settings.gatewayApiKeys, trustProxy: settings.trustProxy }),
      rateLimits.requests,
      requireKeyGuard(),
      csrfGuard(),
      declaredLengthGuard({ maxBytes: settings.maxBodyBytes }),
      ...(appGuards.head ?? []),
    ],
    // On each operation's parameters, before its document is parsed (and before the response cache).
    params: [variablesDepthGuard, ...(appGuards.params ?? [])],
    // On a batch once parsed: each of its operations spends the budget.
    batch: [rateLimits.batch, ...(appGuards.batch ?? [])],
    // On the validated operation with its variables, just before it runs: translation arguments
    // before the general limits (a text over both is refused by the lower, translation's, limit);
    // the budget spent last, by operations nothing else refused.
    operation: [conditionsGuard, translationArgumentsGuard(settings.translationMaxTextLength), executionLimitsGuard(settings), ...(appGuards.operation ?? []), rateLimits.translation],
  };
  return guards;
}

/** The names of the guards by phase, in the order they apply (`gateway.pipeline.guards`). */
export function guardNames(guards: GuardList): Record<keyof GuardList, string[]> {
  return { head: names(guards.head), params: names(guards.params), batch: names(guards.batch), operation: names(guards.operation) };
}

function names(guards: { name: string }[]): string[] {
  return guards.map(({ name }) => name);
}
