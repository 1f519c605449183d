import { useDisableIntrospection } from '@graphql-yoga/plugin-disable-introspection';
import type { Plugin } from 'graphql-yoga';
import { useGraphiQLAssets } from '../graphiql.ts';
import type { KeyValueStore } from '../cache/key-value-store.ts';
import type { GatewaySettings } from '../settings.ts';
import type { RateLimitStore } from '../guards/rate-limit-store.ts';
import { useRoutes, type RouteTable } from '../guards/route.ts';
import { useClientKeys } from '../guards/client-key.ts';
import { useContentTypeCase } from '../guards/content-type-case.ts';
import { useCsrfCheck } from '../guards/csrf.ts';
import { useErrorMasking } from './error-masking.ts';
import { useOperationLimits } from '../guards/operation-limits.ts';
import { loadTrustedDocuments, usePersistedQueries } from '../client/use-persisted-queries.ts';
import { useRateLimits } from '../guards/rate-limits.ts';
import type { ResponseCache } from '../execution/cache/response-cache.ts';
import { useResponseCache } from '../execution/cache/use-response-cache.ts';
import { useRequestBody } from '../guards/request-body.ts';

export interface ClientGuardsOptions {
  settings: GatewaySettings;
  routes: RouteTable;
  /** Where per-client rate-limit counters live. */
  rateLimitStore: RateLimitStore;
  /** Whole answers to queries (shared with the listener in front of yoga, answer-on-node-http.ts). */
  responseCache: ResponseCache;
  /** Where documents registered by automatic persisted queries live. @default in-process */
  persistedQueryStore?: KeyValueStore;
  /** Plugins that watch every routed request (ids, logs, metrics) and serve /readiness and /metrics. */
  observe: Plugin[];
  /** Told about every request a rate limit refuses, for metrics. */
  onRateLimited?: (budget: 'requests' | 'translation') => void;
}

/**
 * Everything between a client and GraphQL execution, in the order it applies (the order of the list
 * below is the order of the hooks):
 * 1. routes: one path executes GraphQL; anything else is 404 before any other plugin sees it;
 * 2. GraphiQL's files, so the page needs nothing from outside;
 * 3. observation, so every routed request gets an id and is measured, those refused below included;
 * 4. who is calling, then the rate limits, then the key check: wrong keys count like any request
 *    before their 401, so guessing keys is rate-limited;
 * 5. CSRF: a POST a cross-site form could forge needs a header a form cannot send; a body within
 *    MAX_BODY_BYTES and in UTF-8, read once (its media type in any case: `Application/JSON` is
 *    JSON, rewritten in onRequest, before yoga picks a parser);
 *    persisted queries and trusted documents, which turn a hash into its document before anything
 *    below (the response cache keys on the document) reads it;
 * 6. introspection switch, operation limits (shape while validating; cost before executing);
 * 7. the response cache: a query answered before is answered again without executing;
 * 8. error masking: the last word on every error a client receives.
 */
export function useClientGuards({ settings, routes, rateLimitStore, responseCache, persistedQueryStore, observe, onRateLimited }: ClientGuardsOptions): Plugin {
  const clientKeys = useClientKeys({ keys: settings.gatewayApiKeys, trustProxy: settings.trustProxy });
  const guards: Plugin[] = [
    useRoutes(routes),
    ...(settings.graphiql ? [useGraphiQLAssets()] : []),
    ...observe,
    clientKeys.identify,
    useRateLimits({
      store: rateLimitStore,
      requests: settings.rateLimitRequests,
      translationRequests: settings.translationRateLimitRequests,
      windowMs: settings.rateLimitWindowSeconds * 1000,
      maxBatchOperations: settings.maxBatchOperations,
      onRejected: onRateLimited,
    }),
    clientKeys.enforce,
    useContentTypeCase(),
    useCsrfCheck(),
    useRequestBody({ maxBytes: settings.maxBodyBytes }),
    usePersistedQueries({
      store: persistedQueryStore,
      ttlMs: settings.persistedQueriesTtlSeconds * 1000,
      trustedDocuments: settings.trustedDocuments ? loadTrustedDocuments(settings.trustedDocuments) : undefined,
    }),
    useDisableIntrospection({ isDisabled: () => !settings.introspection }),
    ...useOperationLimits({
      maxDepth: settings.maxDepth,
      maxAliases: settings.maxAliases,
      maxTokens: settings.maxTokens,
      maxDirectives: settings.maxDirectives,
      maxRootFields: settings.maxRootFields,
      maxCost: settings.maxCost,
      maxArgumentLength: settings.maxArgumentLength,
      blockFieldSuggestions: settings.production,
    }),
    useResponseCache(responseCache),
    useErrorMasking({ production: settings.production }),
  ];
  return {
    // Envelop puts added plugins right after this one, in the order added.
    onPluginInit({ addPlugin }) {
      for (const guard of guards) addPlugin(guard);
    },
  };
}
