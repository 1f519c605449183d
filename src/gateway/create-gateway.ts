import type { RequestListener } from 'node:http';
import type { GraphQLSchema } from 'graphql';
import type { Registry } from 'prom-client';
import { useCSRFPrevention } from '@graphql-yoga/plugin-csrf-prevention';
import { useDisableIntrospection } from '@graphql-yoga/plugin-disable-introspection';
import { createYoga, useSchema, type YogaServerInstance } from 'graphql-yoga';
import { graphiqlYogaOptions, useGraphiQLAssets } from './graphiql.ts';
import { buildMesh, type BuildMeshOptions } from './mesh.ts';
import { createObservability, type RequestLog } from './observability/index.ts';
import { useClientKeys } from './plugins/use-client-keys.ts';
import { useKnownRoutes } from './plugins/use-known-routes.ts';
import { useErrorMasking } from './plugins/use-error-masking.ts';
import { useOperationLimits } from './plugins/use-operation-limits.ts';
import { useRateLimits } from './plugins/use-rate-limits.ts';
import { useUtf8Body } from './plugins/use-utf8-body.ts';
import { createMemoryRateLimitStore, type RateLimitStore } from './plugins/rate-limit-store.ts';
import { toPublicSchema } from './public-schema.ts';
import { PER_CALL_SETTINGS, VARIABLE_OF_SETTING, settingsFromOptions } from './settings-from-options.ts';
import type { GatewaySettings } from './settings.ts';

export interface GatewayOptions extends Omit<BuildMeshOptions, 'settings' | 'upstreamPlugins' | 'onTranslationServed'> {
  /**
   * Settings over those read from the environment, validated the same way (see README
   * "Environment" for each; e.g. `{ problemsUrl, problemsApiKey, gatewayApiKeys: ['k'] }`).
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

/** Builds the gateway: the mesh from .meshrc.yaml, served by graphql-yoga. Nothing listens yet. */
export async function createGateway({
  graphqlEndpoint = '/graphql',
  settings,
  rateLimitStore,
  requestLog,
  ...meshOptions
}: GatewayOptions = {}): Promise<Gateway> {
  const resolvedSettings = settingsFromOptions(settings);
  // Mesh reads upstream URLs and keys from the environment on every call ({env.X} in .meshrc.yaml):
  // given in code, they are written there, so one process serves one set of upstreams.
  // URLs are written back normalized (no trailing slash or `/graphql`), whatever their source, so
  // Mesh calls exactly `<PROBLEMS_URL>/graphql`.
  for (const setting of PER_CALL_SETTINGS) {
    const value = setting === 'problemsUrl' || setting === 'translationUrl' ? resolvedSettings[setting] : settings?.[setting];
    if (value !== undefined) process.env[VARIABLE_OF_SETTING[setting]] = String(value);
  }
  const observability = createObservability({ settings: resolvedSettings, graphqlEndpoint, requestLog });
  const { mesh, linksLeftOut, destroy } = await buildMesh({
    ...meshOptions,
    settings: resolvedSettings,
    upstreamPlugins: observability.meshPlugins,
    onTranslationServed: observability.onTranslationServed,
  });
  const schema = toPublicSchema(mesh.schema);
  const clientKeys = useClientKeys({ keys: resolvedSettings.gatewayApiKeys, graphqlEndpoint, trustProxy: resolvedSettings.trustProxy });
  const yoga = createYoga({
    plugins: [
      // First: a path the gateway does not serve never reaches GraphQL (or any plugin below).
      useKnownRoutes({
        graphqlEndpoint,
        paths: ['/healthcheck', '/readiness', '/metrics'],
        prefixes: [graphqlEndpoint.replace(/[^/]*$/, 'graphiql/')],
      }),
      // GraphiQL's own files (scripts, styles, Monaco workers), so the page needs nothing from outside.
      ...(resolvedSettings.graphiql ? [useGraphiQLAssets()] : []),
      // Early, so every request gets an id and is measured, those refused below included; serves /readiness and /metrics.
      ...observability.yogaPlugins,
      // Before anything is parsed: who is calling, and may they call now.
      clientKeys.identify,
      useRateLimits({
        store: rateLimitStore ?? createMemoryRateLimitStore(),
        requests: resolvedSettings.rateLimitRequests,
        translationRequests: resolvedSettings.translationRateLimitRequests,
        windowMs: resolvedSettings.rateLimitWindowSeconds * 1000,
        graphqlEndpoint,
        onRejected: observability.onRateLimited,
      }),
      // After the rate limits, so that wrong keys are counted like any request before the 401.
      clientKeys.enforce,
      // Browsers may only send requests that a cross-site form could not forge.
      useCSRFPrevention({ requestHeaders: ['x-graphql-yoga-csrf', 'graphql-require-preflight'] }),
      useUtf8Body(),
      // mesh.plugins carries Mesh's execution engine and the per-request in-context SDK.
      ...mesh.plugins,
      useSchema(schema),
      useDisableIntrospection({ isDisabled: () => !resolvedSettings.introspection }),
      ...useOperationLimits({
        maxDepth: resolvedSettings.maxDepth,
        maxAliases: resolvedSettings.maxAliases,
        maxTokens: resolvedSettings.maxTokens,
        maxDirectives: resolvedSettings.maxDirectives,
        maxRootFields: resolvedSettings.maxRootFields,
        maxCost: resolvedSettings.maxCost,
        maxArgumentLength: resolvedSettings.maxArgumentLength,
        blockFieldSuggestions: resolvedSettings.production,
      }),
      useErrorMasking({ production: resolvedSettings.production }),
    ],
    graphqlEndpoint,
    healthCheckEndpoint: '/healthcheck',
    landingPage: false,
    logging: false,
    cors: { origin: resolvedSettings.corsOrigins === '*' ? '*' : resolvedSettings.corsOrigins },
    batching: { limit: resolvedSettings.maxBatchOperations },
    maxRequestBodySize: resolvedSettings.maxBodyBytes,
    ...(resolvedSettings.graphiql ? graphiqlYogaOptions({ keysRequired: resolvedSettings.gatewayApiKeys.length > 0 }) : { graphiql: false }),
  }) as unknown as YogaServerInstance<object, object>;
  return {
    yoga,
    fetch: (request) => Promise.resolve(yoga.fetch(request)),
    listener: yoga as unknown as RequestListener,
    graphqlEndpoint,
    schema,
    linksLeftOut,
    metrics: observability.metrics,
    flushTraces: observability.flushTraces,
    close: async () => {
      await yoga.dispose();
      await destroy();
      await observability.close();
    },
  };
}
