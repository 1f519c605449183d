import type { RequestListener } from 'node:http';
import type { GraphQLError, GraphQLSchema } from 'graphql';
import type { Registry } from 'prom-client';
import { useDeferStream } from '@graphql-yoga/plugin-defer-stream';
import { createYoga, maskError, useSchema, type YogaServerInstance } from 'graphql-yoga';
import { createMemoryRateLimitStore, type RateLimitStore } from './guards/rate-limit-store.ts';
import { answerOnNodeHttp } from './pipeline/node-adapter.ts';
import { createResponseCache } from './execution/cache/response-cache.ts';
import { createRouteTable } from './guards/route.ts';
import { budgetCounter, translationBudgetOf } from './guards/rate-limits.ts';
import { useClientGuards } from './pipeline/yoga-adapter.ts';
import { errorMasking } from './pipeline/error-masking.ts';
import { graphiqlYogaOptions } from './graphiql.ts';
import { buildMesh, type BuildMeshOptions } from './mesh.ts';
import { createObservability, startTracing, type RequestLog } from './observability/index.ts';
import { logErrorCauses } from './observability/mesh-logger.ts';
import { upstreamErrorIn } from './errors.ts';
import { toPublicSchema } from './public-schema.ts';
import { translationArgumentRefusal } from './translation/use-translation-arguments.ts';
import { createSharedStores } from './redis/index.ts';
import { useSelectionOrder } from './use-selection-order.ts';
import { settingsFromOptions } from './settings-from-options.ts';
import { SettingsError, type GatewaySettings } from './settings.ts';
import { createUpstreamSteps } from './upstream/upstream-calls.ts';

export interface GatewayOptions extends Omit<BuildMeshOptions, 'settings' | 'upstreamSteps' | 'onTranslationServed'> {
  /**
   * Settings over those read from the environment, validated the same way (see README
   * "Environment" for each; e.g. `{ problemsUrl, problemsApiKey, gatewayApiKeys: ['k'] }`).
   * `problemsUrl` and `translationUrl` are required, here or in the environment.
   */
  settings?: Partial<GatewaySettings>;
  /** Where per-client rate-limit counters live. @default in-process */
  rateLimitStore?: RateLimitStore;
  /** Path of the GraphQL endpoint. @default '/graphql' */
  graphqlEndpoint?: string;
  /** Where the one log line of each GraphQL request goes; `false` for none. @default a JSON line on stdout */
  requestLog?: RequestLog | false;
}

export interface Gateway {
  /** The yoga server underneath (also a Node request listener and a fetch handler). */
  yoga: YogaServerInstance<object, object>;
  /** Fetch-style handler: `(request: Request) => Promise<Response>` (Deno, Bun, workers, tests). */
  fetch: (request: Request) => Promise<Response>;
  /** Node request listener: `http.createServer(gateway.listener)`, or Express `app.use(gateway.graphqlEndpoint, gateway.listener)`. */
  listener: RequestListener;
  /** Where GraphQL is served, e.g. `/graphql`. */
  graphqlEndpoint: string;
  /** The unified schema clients see. */
  schema: GraphQLSchema;
  linksLeftOut: { name: string; reason: string }[];
  /** This gateway's Prometheus registry (served on /metrics unless METRICS_ENABLED=false). */
  metrics: Registry;
  /** Exports the finished trace spans now (tracing is on when OTEL_EXPORTER_OTLP_ENDPOINT is set). */
  flushTraces(): Promise<void>;
  /** Stops the mesh, closes upstream connections and exports the last trace spans. */
  close(): Promise<void>;
}

/**
 * Builds the gateway: the mesh from .meshrc.yaml, served by graphql-yoga. Nothing listens yet, and
 * the process environment is neither read nor written: the settings given are all it uses.
 */
export async function createGateway({
  graphqlEndpoint = '/graphql',
  settings,
  rateLimitStore,
  requestLog,
  ...meshOptions
}: GatewayOptions = {}): Promise<Gateway> {
  const resolvedSettings = settingsFromOptions(settings);
  for (const [setting, variable] of [['problemsUrl', 'PROBLEMS_URL'], ['translationUrl', 'TRANSLATION_URL']] as const) {
    if (!resolvedSettings[setting]) throw new SettingsError(setting, `the gateway needs the service's base URL (option ${setting}, variable ${variable})`);
  }
  // With REDIS_URL, replicas share caches and rate limits; resolves (saying so) even if Redis is down.
  const shared = await createSharedStores(resolvedSettings, meshOptions.log);
  const observability = createObservability({
    settings: resolvedSettings,
    graphqlEndpoint,
    requestLog,
    tracing: await startTracing(resolvedSettings),
    // Reported beside the upstreams, as degraded when away, never as not ready.
    readinessDependencies: shared ? { redis: () => shared.check() } : undefined,
  });
  const { mesh, linksLeftOut, destroy, preparedOperations } = await buildMesh({
    ...meshOptions,
    translationCache: meshOptions.translationCache ?? shared?.translationCache,
    settings: resolvedSettings,
    upstreamSteps: createUpstreamSteps({ settings: resolvedSettings, observers: observability.observers, problemsStore: shared?.keyValueStore('problems') }),
    onTranslationServed: observability.onTranslationServed,
  }).catch(async (error: unknown) => {
    // Else its reconnection loop would keep the process alive.
    await shared?.close();
    throw error;
  });
  const schema = toPublicSchema(mesh.schema);
  const routes = createRouteTable({ graphqlEndpoint, graphiql: resolvedSettings.graphiql, metrics: resolvedSettings.metricsEnabled });
  const rateLimits = rateLimitStore ?? shared?.rateLimitStore ?? createMemoryRateLimitStore();
  const responseCache = createResponseCache({
    sharedStore: shared?.keyValueStore('responses'),
    ttlMs: resolvedSettings.responseCacheTtlSeconds * 1000,
    translationOnlyTtlMs: resolvedSettings.translationCacheTtlSeconds * 1000,
  });
  // One set of CORS options for yoga and for the listener in front of it: the same headers either way.
  const cors = { origin: resolvedSettings.corsOrigins === '*' ? '*' : resolvedSettings.corsOrigins };
  const yoga = createYoga({
    plugins: [
      // Mesh's execution engine and the per-request in-context SDK.
      ...mesh.plugins,
      useSchema(schema),
      // @defer and @stream: Mesh executes with graphql-tools' executor, which delivers increments.
      useDeferStream(),
      // Before the response cache (in the guards), so what it keeps is in order too.
      useSelectionOrder(),
      // After Mesh's plugins: the operation limits' parser must wrap whichever parser Mesh sets.
      useClientGuards({
        settings: resolvedSettings,
        routes,
        rateLimitStore: rateLimits,
        responseCache,
        persistedQueryStore: shared?.keyValueStore('persisted-queries'),
        observe: observability.yogaPlugins,
        onRateLimited: observability.onRateLimited,
      }),
    ],
    graphqlEndpoint,
    // /healthcheck is answered by the routes (useClientGuards): yoga's own check answers any URL that
    // merely ends in its path, and no serialized URL ends in a space.
    healthCheckEndpoint: ' ',
    landingPage: false,
    logging: false,
    // yoga hides an error whose cause is not a GraphQL error, as unexpected. An upstream failure (a
    // connection refused, say) is one, but it carries the gateway's own message and code
    // (UPSTREAM_UNAVAILABLE): it is left to the gateway's masking, which keeps it, as the direct
    // lane does. Everything else is yoga's to mask, as before.
    maskedErrors: { maskError: (error, message, isDev) => (upstreamErrorIn(error) ? (error as GraphQLError) : maskError(error, message, isDev)) },
    cors,
    batching: { limit: resolvedSettings.maxBatchOperations },
    // MAX_BODY_BYTES is enforced by useRequestBody (client guards), which reads each body once.
    maxRequestBodySize: false,
    ...(resolvedSettings.graphiql
      ? graphiqlYogaOptions({ keysRequired: resolvedSettings.gatewayApiKeys.length > 0, onPath: (request) => routes.routeFor(new URL(request.url).pathname) === 'graphql' })
      : { graphiql: false }),
  }) as unknown as YogaServerInstance<object, object>;
  // Repeated queries, and queries the fast path has forwarded before, are answered on node:http,
  // before yoga (README "Performance"); the rest is yoga's.
  const listener = answerOnNodeHttp({
    graphqlEndpoint,
    cache: responseCache,
    caller: { keys: resolvedSettings.gatewayApiKeys, trustProxy: resolvedSettings.trustProxy },
    requests: { hit: budgetCounter(rateLimits, resolvedSettings.rateLimitWindowSeconds * 1000), limit: resolvedSettings.rateLimitRequests },
    maxBodyBytes: resolvedSettings.maxBodyBytes,
    observers: observability.observers,
    cors,
    direct: preparedOperations && {
      operations: preparedOperations,
      limits: resolvedSettings,
      maskErrors: errorMasking({ production: resolvedSettings.production }),
      // The checks yoga makes of an operation with links (Problem.translation), made again here.
      argumentRefusal: (estimate) => translationArgumentRefusal(estimate, resolvedSettings.translationMaxTextLength),
      translationBudget: translationBudgetOf({
        store: rateLimits,
        translationRequests: resolvedSettings.translationRateLimitRequests,
        windowMs: resolvedSettings.rateLimitWindowSeconds * 1000,
        onRejected: observability.onRateLimited,
      }),
      // Mesh logs the causes of errors only under NODE_ENV=production, which the production setting follows.
      onErrors: resolvedSettings.production ? (errors) => logErrorCauses(mesh.logger, errors) : undefined,
    },
    next: yoga as unknown as RequestListener,
  });
  return {
    yoga,
    fetch: (request) => Promise.resolve(yoga.fetch(request)),
    listener,
    graphqlEndpoint,
    schema,
    linksLeftOut,
    metrics: observability.metrics,
    flushTraces: observability.flushTraces,
    close: async () => {
      await yoga.dispose();
      await destroy();
      await shared?.close();
      await observability.close();
    },
  };
}
