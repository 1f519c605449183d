import type { RequestListener } from 'node:http';
import { printSchema, type GraphQLSchema } from 'graphql';
import type { Registry } from 'prom-client';
import { useDeferStream } from '@graphql-yoga/plugin-defer-stream';
import { createYoga, useSchema, type Plugin, type YogaServerInstance } from 'graphql-yoga';
import { useDisableIntrospection } from '@graphql-yoga/plugin-disable-introspection';
import { createResponseCache } from './execution/cache/response-cache.ts';
import { useResponseCache } from './execution/cache/use-response-cache.ts';
import { identifyCallerGuard, requireKeyGuard } from './guards/client-key.ts';
import { useContentTypeCase } from './guards/content-type-case.ts';
import { csrfGuard } from './guards/csrf.ts';
import { conditionsGuard, executionLimitsGuard, useDocumentLimits, variablesDepthGuard } from './guards/operation-limits.ts';
import { createMemoryRateLimitStore, type RateLimitStore } from './guards/rate-limit-store.ts';
import { rateLimitGuards } from './guards/rate-limits.ts';
import { declaredLengthGuard, useRequestBody } from './guards/request-body.ts';
import { createRouteTable, routeGuard } from './guards/route.ts';
import { translationArgumentsGuard } from './guards/translation-arguments.ts';
import { loadTrustedDocuments, usePersistedQueries } from './guards/persisted-documents.ts';
import { graphiqlYogaOptions, useGraphiQLAssets } from './graphiql.ts';
import { buildMesh, problemsSnapshotPath } from './mesh.ts';
import { fragmentTypenameTransform } from './execution/delegate/fragment-typename-transform.ts';
import { deferredFieldsTransform } from './execution/delegate/deferred-fields-transform.ts';
import { createForwarding } from './execution/forward/forwarding.ts';
import { useExecution } from './execution/use-execution.ts';
import type { GatewayLog } from './observability/gateway-log.ts';
import type { TranslationCache } from './translation/translation-cache.ts';
import { translationRuntimeFor, useTranslationRuntime } from './translation/translation-runtime.ts';
import { startCuratedTranslations } from './translation/curated/index.ts';
import { translationPrewarmFor, type PrewarmTarget } from './translation/prewarm/translation-prewarm.ts';
import { composeSteps } from './upstream/upstream-call.ts';
import { createUpstreamFetch } from './upstream/upstream-fetch.ts';
import { createObservability, startTracing } from './observability/index.ts';
import type { RequestLog } from './observability/request-log.ts';
import { logErrorCauses } from './observability/mesh-logger.ts';
import { observeArrivalGuard } from './observability/use-request-observation.ts';
import { errorMasking, useErrorMasking } from './pipeline/error-masking.ts';
import type { GuardList } from './request/guards.ts';
import { createNodeAdapter, type NodeAdapter, type NodeAdapterOptions } from './pipeline/node-adapter.ts';
import { documentPlanner } from './pipeline/document-planner.ts';
import { useGatewayPipeline } from './pipeline/yoga-adapter.ts';
import { toPublicSchema } from './public-schema.ts';
import { sha256Of } from '../shared/hash.ts';
import { createSharedStores } from './shared-stores.ts';
import { useSelectionOrder } from './execution/shape/use-selection-order.ts';
import { SETTINGS, SettingsError, settingsFromOptions, type GatewaySettings } from './settings.ts';
import { upstreamStepsBySchema, useUpstreamCalls } from './upstream/upstream-calls.ts';
import { createEngineSlot, releasedWhenSent, type Disposable, type EngineSlot } from './schema/engine-slot.ts';
import type { IntrospectedSchema } from './schema/introspection.ts';
import { createLiveProblemsSchema } from './schema/live-problems-schema.ts';
import { nextTurn } from './schema/next-turn.ts';
import { watchSchemaDrift } from './schema/schema-drift.ts';
import { createSchemaMetrics } from './schema/schema-metrics.ts';
import { invalidTrustedDocuments } from './schema/stale-trusted-documents.ts';
import { staleSdkOperationsLine } from '../sdk/stale-operations.ts';

/** Settings given in code: any of them, each possibly `undefined` (as an unset variable passed through is), which counts as not given. */
export type SettingsOptions = { [Setting in keyof GatewaySettings]?: GatewaySettings[Setting] | undefined };

export interface GatewayOptions {
  /**
   * Settings over the defaults, validated as the environment variables behind them are (see README
   * "Configuration" for each; e.g. `{ problemsUrl, translationUrl, gatewayApiKeys: ['k'] }`). The
   * process environment is never read: `problemsUrl` and `translationUrl` are required here.
   */
  settings?: SettingsOptions;
  /** Where per-client rate-limit counters live. @default in-process */
  rateLimitStore?: RateLimitStore;
  /** Where translations are kept. @default in-process LRU bounded by TRANSLATION_CACHE_MAX_BYTES */
  translationCache?: TranslationCache;
  /** Directory holding `.meshrc.yaml`. @default the project root */
  baseDir?: string;
  /**
   * SDL file to build the problems source from, pinned: the service is not introspected, at start or
   * later, and the schema never changes while the gateway runs. Lets tests (and users trying a new
   * upstream) start the gateway against a schema of their choice. Unset, the service's own schema is
   * introspected at start and every PROBLEMS_SCHEMA_POLL_SECONDS, with the snapshot `.meshrc.yaml`
   * names as the fallback at start. @default none: the service's schema, live
   */
  problemsSchemaPath?: string;
  /** Where start-up notes and Mesh's warnings and errors go (one line each, with a level). @default console.warn */
  log?: GatewayLog;
  /**
   * Called when an engine built from a replaced problems schema (its mesh, yoga and caches) has been
   * released, its last request ended: its memory is garbage from then on. `npm start` runs a full
   * garbage collection then, so the process gives it back; an app owns its heap and decides. @default none
   */
  onEngineReleased?: () => void;
  /**
   * Path of the GraphQL endpoint on a server of its own. Mounted by an app (Express or Connect
   * `app.use(path, gateway.listener)`, or `mountAt(path, gateway.listener)` for node:http, Fastify
   * and Koa), the gateway serves GraphQL at the mount path instead, its other routes below it.
   * @default '/graphql'
   */
  graphqlEndpoint?: string;
  /** Where the one log line of each GraphQL request goes; `false` for none. @default a JSON line on stdout */
  requestLog?: RequestLog | false;
  /**
   * Checks of the app's own, by phase, run after the gateway's in each phase by both ways of
   * answering (see `GuardList`): e.g. `{ head: [{ name: 'tenant', check: (request) => … }] }`.
   * @default none
   */
  guards?: Partial<GuardList>;
  /** The clock the upstream circuit breaker measures its window and cool-down by (tests move it). @default Date.now */
  breakerClock?: () => number;
}

/**
 * The graphql-yoga server underneath, as an app reaches it: its fetch handler, with a server context
 * of the caller's. (Typed narrowly so that the package's declarations never reach yoga's own typings,
 * which do not check without `skipLibCheck`.)
 */
export interface GatewayYoga {
  fetch(request: Request, ...serverContext: object[]): Promise<Response> | Response;
}

export interface Gateway {
  /** The yoga server underneath, behind the head guards of the node:http adapter; `fetch` runs them itself. */
  yoga: GatewayYoga;
  /** Fetch-style handler: `(request: Request) => Promise<Response>` (Deno, Bun, workers, tests). */
  fetch: (request: Request) => Promise<Response>;
  /** Node request listener: `http.createServer(gateway.listener)`, or Express/Connect `app.use('/any/path', gateway.listener)`. */
  listener: RequestListener;
  /**
   * The same for the server's 'checkContinue' event (`server.on('checkContinue', gateway.checkContinue)`):
   * a request sent with `Expect: 100-continue` gets `100 Continue` only once the head guards (route,
   * key, rate limit, declared length…) let it through, so a refused client uploads no body. Without
   * it, node:http sends `100 Continue` itself before `listener` runs.
   */
  checkContinue: RequestListener;
  /** Where GraphQL is served, e.g. `/graphql`. */
  graphqlEndpoint: string;
  /** The names of the guards by phase and of yoga's plugins, in the order they apply. */
  pipeline: { guards: Record<keyof GuardList, string[]>; plugins: string[] };
  /** The unified schema clients see, as the problems schema now served makes it. */
  readonly schema: GraphQLSchema;
  /** Links the problems schema now served cannot carry, with the reason. */
  readonly linksLeftOut: { name: string; reason: string }[];
  /** This gateway's Prometheus registry (served on /metrics unless METRICS_ENABLED=false). */
  metrics: Registry;
  /** Exports the finished trace spans now (tracing is on when OTEL_EXPORTER_OTLP_ENDPOINT is set). */
  flushTraces(): Promise<void>;
  /** Stops following the problems schema and the mesh, closes upstream connections and exports the last trace spans. */
  close(): Promise<void>;
}

/**
 * Builds the gateway: the mesh from .meshrc.yaml over the problems service's schema as it is now,
 * served by graphql-yoga, and follows that schema while it runs. Nothing listens yet, and the
 * process environment is neither read nor written: the settings given are all it uses.
 */
export async function createGateway({
  graphqlEndpoint = '/graphql',
  settings: givenSettings,
  rateLimitStore,
  requestLog,
  guards: appGuards = {},
  translationCache,
  baseDir,
  problemsSchemaPath,
  log = console.warn,
  onEngineReleased,
  breakerClock,
}: GatewayOptions = {}): Promise<Gateway> {
  const settings = settingsFromOptions(givenSettings);
  for (const setting of ['problemsUrl', 'translationUrl'] as const) {
    if (!settings[setting]) throw new SettingsError(setting, `the gateway needs the service's base URL (option ${setting}, variable ${SETTINGS[setting].variable})`);
  }
  // The snapshot .meshrc.yaml names, read before anything is started that would need closing.
  const snapshotPath = problemsSchemaPath ?? (await problemsSnapshotPath(baseDir, log));
  // With REDIS_URL, replicas share caches and rate limits; resolves (saying so) even if Redis is down.
  const shared = await createSharedStores(settings, log);
  const upstreamFetch = createUpstreamFetch();

  // The problems schema, as the service says it is now (schema/live-problems-schema.ts): introspected
  // at start with the committed snapshot as the fallback, then followed while running. A schema
  // given as problemsSchemaPath is pinned: nothing is introspected.
  const problemsSchema = createLiveProblemsSchema({
    introspection: {
      endpoint: `${settings.problemsUrl}/graphql`,
      apiKey: settings.problemsApiKey,
      timeoutMs: settings.problemsTimeoutMs,
      maxBytes: settings.problemsMaxResponseBytes,
      // The upstream calls' own pools, which take a URL as the mesh's calls do.
      fetch: upstreamFetch.fetch as unknown as typeof fetch,
    },
    snapshotPath,
    givenPath: problemsSchemaPath,
    pollMs: settings.problemsSchemaPollSeconds * 1000,
    bounds: { maxTypes: settings.problemsSchemaMaxTypes, maxFields: settings.problemsSchemaMaxFields, maxEnumValues: settings.problemsSchemaMaxEnumValues },
    onChange: (next) => buildSwap(next),
    onFailure: (reason) => schemaMetrics.failed(reason),
    onAnswer: (answer) => schemaMetrics.answered(answer),
    log,
  });
  const observability = createObservability({
    settings: settings,
    graphqlEndpoint,
    requestLog,
    tracing: await startTracing(settings),
    // Reported beside the upstreams, as degraded when away, never as not ready.
    readinessDependencies: shared ? { redis: () => shared.check() } : undefined,
    problemsSchema: problemsSchema.status,
  });
  await observability.checkKeyAtStart(log);
  const schemaMetrics = createSchemaMetrics(observability.metrics, problemsSchema.status, () => engines?.alive() ?? 0);

  // What every upstream HTTP call goes through (upstream/upstream-calls.ts lists the steps), whether
  // Mesh makes it or the gateway forwards an operation itself, and what crosses the two sources:
  // each engine takes the list of its own schema (the problems cache keys by it). Past the cache,
  // the drift watch: the problems service refusing what the gateway validated is the sign its
  // schema changed, and triggers a check.
  const upstreamStepsFor = upstreamStepsBySchema({
    settings,
    observers: observability.observers,
    problemsStore: shared?.keyValueStore('problems'),
    log,
    breakerClock,
    watch: [watchSchemaDrift(() => problemsSchema.driftSeen())],
  });
  // Readers' languages: operators' curated translations (TRANSLATION_CURATED_DIR, or another
  // replica's through Redis), served before the service's; a bad directory stops start-up.
  const curated = await startCuratedTranslations(settings, { log, registry: observability.metrics, sharedStore: shared?.keyValueStore('curated-translations') }).catch(async (error: unknown) => {
    await shared?.close();
    throw error;
  });
  const translationRuntime = translationRuntimeFor(settings, {
    cache: translationCache ?? shared?.translationCache,
    onServed: observability.onTranslationServed,
    curated: curated?.translations,
  });
  const release = async () => {
    curated?.close();
    problemsSchema.stop();
    // The statement worker thread, if it started; then the upstream connections and Redis (else
    // its reconnection loop would keep the process alive).
    await translationRuntime.statements.close();
    await upstreamFetch.close();
    await shared?.close();
  };
  const routes = createRouteTable({ graphqlEndpoint, graphiql: settings.graphiql, metrics: settings.metricsEnabled });
  const rateLimits = rateLimitGuards({
    store: rateLimitStore ?? shared?.rateLimitStore ?? createMemoryRateLimitStore(),
    requests: settings.rateLimitRequests,
    translationRequests: settings.translationRateLimitRequests,
    windowMs: settings.rateLimitWindowSeconds * 1000,
    maxBatchOperations: settings.maxBatchOperations,
    onRejected: observability.onRateLimited,
  });
  const trustedDocuments = settings.trustedDocuments ? loadTrustedDocuments(settings.trustedDocuments) : undefined;
  if (trustedDocuments) log(`trusted documents: ${Object.keys(trustedDocuments).length} loaded from ${settings.trustedDocuments}; any other operation is refused`, 'info');
  const trustedTexts = trustedDocuments && new Set(Object.values(trustedDocuments));
  const maskErrors = errorMasking({ production: settings.production });
  // One set of CORS options for yoga and for the node:http adapter in front of it: the same headers either way.
  const cors = { origin: settings.corsOrigins === '*' ? '*' : settings.corsOrigins };

  // Every check a client request goes through, by phase, in order. Both adapters run this list and
  // check nothing of their own (pipeline/guard-list.ts).
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

  // A link (or a name) left out stays left out schema after schema: said once, not at every swap.
  const said = new Set<string>();
  const logOnce: GatewayLog = (line, level) => {
    if (line.startsWith('link ') || line.startsWith('names ')) {
      if (said.has(line)) return;
      said.add(line);
    }
    log(line, level);
  };

  // Everything derived from one problems schema: the mesh, the forwarded operations, the public
  // schema, the response cache's admission policy, yoga and its stages, the node:http adapter. A
  // request runs on the engine current when it arrives; a new schema gets a new engine, built beside
  // the old one (schema/engine-slot.ts).
  const buildEngine = async (problems: IntrospectedSchema): Promise<Engine> => {
    const upstreamSteps = upstreamStepsFor(problems.hash);
    const built = await buildMesh({
      settings,
      baseDir,
      problemsSchema: problems.sdl,
      log: logOnce,
      fetch: upstreamFetch.fetch,
      plugins: (sources) => [useUpstreamCalls(sources, upstreamSteps), useTranslationRuntime(translationRuntime)],
      sourceTransforms: () => [fragmentTypenameTransform(), deferredFieldsTransform()],
    });
    const { mesh, linksLeftOut } = built;
    // Requests are served between the build's stages (nextTurn), each of which runs whole.
    await nextTurn();
    // Aborts the calls forwarded operations have in flight when the engine is disposed (once its
    // requests have ended) or the gateway closes, as Mesh's own executor does.
    const disposal = new AbortController();
    try {
      const forwarding = await createForwarding({ settings, built, baseDir, send: composeSteps(upstreamSteps), network: upstreamFetch.fetch, signal: disposal.signal, log: logOnce });
      await nextTurn();
      const schema = toPublicSchema(mesh.schema);
      await nextTurn();
      const stale = trustedDocuments ? invalidTrustedDocuments(schema, trustedDocuments) : [];
      if (stale.length > 0) {
        log(`trusted documents that no longer validate against problems schema ${problems.hash.slice(0, 12)} (they answer GRAPHQL_VALIDATION_FAILED): ${stale.join(', ')}`, 'warn');
      }
      const staleSdk = staleSdkOperationsLine(schema, problems.hash);
      if (staleSdk) log(staleSdk, 'warn');
      await nextTurn();
      const responseCache = createResponseCache({
        sharedStore: shared?.keyValueStore('responses'),
        ttlMs: settings.responseCacheTtlSeconds * 1000,
        translationOnlyTtlMs: settings.translationCacheTtlSeconds * 1000,
        policy: admissionPolicyOf(schema, settings, trustedDocuments),
        // Answers that may translate also vary by the default languages and the curated set in force.
        translationVariant: translationRuntime.variant,
      });
      await nextTurn();

      // yoga's plugins by name, in the order their hooks run.
      const stages: [string, object | object[]][] = [
          // Execution: Mesh's engine and per-request in-context SDK, over the public schema, with @defer
          // and @stream (Mesh executes with graphql-tools' executor, which delivers increments).
          ['mesh', mesh.plugins],
          ['public schema', useSchema(schema)],
          ['defer and stream', useDeferStream()],
          // The guard list, as yoga's hooks: head guards for requests that did not come through the
          // node:http adapter, then params, batch and operation guards where yoga reaches them.
          ['guards', useGatewayPipeline(guards)],
          // The routes' own answers: GraphiQL's files (the page needs nothing from outside), /readiness,
          // /metrics; and the request log, metrics and traces of what yoga answers.
          ['graphiql files', settings.graphiql ? [useGraphiQLAssets()] : []],
          ['observation, readiness, metrics', observability.yogaPlugins],
          // The body: its media type in any spelling (`Application/JSON` is JSON) before yoga picks a
          // parser, then read once, bounded and checked as UTF-8.
          ['content type', useContentTypeCase()],
          ['request body', useRequestBody({ maxBytes: settings.maxBodyBytes })],
          // The parameters: persisted-query hashes and trusted documents turned into their documents
          // before anything below (the response cache keys on the document) reads them.
          ['persisted documents', usePersistedQueries({
            store: shared?.keyValueStore('persisted-queries'),
            ttlMs: settings.persistedQueriesTtlSeconds * 1000,
            trustedDocuments,
          })],
          // The document: introspection switch, then the size and shape limits while parsing and
          // validating (after Mesh's plugins: their parser wraps whichever parser Mesh sets).
          ['introspection switch', useDisableIntrospection({ isDisabled: () => !settings.introspection })],
          ['document limits', useDocumentLimits({
            maxDepth: settings.maxDepth,
            maxAliases: settings.maxAliases,
            maxTokens: settings.maxTokens,
            maxDirectives: settings.maxDirectives,
            blockFieldSuggestions: settings.production,
          })],
          // The answer: in selection order before the response cache keeps it; a query answered before
          // is answered again without executing.
          ['selection order', useSelectionOrder()],
          ['response cache', useResponseCache(responseCache)],
          // How what reaches execution runs: forwarded whole to the problems service, or delegated by Mesh.
          ['execution', useExecution({ forwarding })],
          // The one masking step: the last word on every error a client receives.
          ['error masking', useErrorMasking(maskErrors)],
      ];
      const yoga = createYoga({
        plugins: stages.flatMap(([, plugins]) => plugins) as Plugin[],
        // Every path: the route guard alone decides which paths serve what (exactly, and below the mount
        // when an app mounted the gateway); yoga's own match would refuse a mount path not ending in it.
        graphqlEndpoint: '*',
        // /healthcheck is answered by the route guard: yoga's own check answers any URL that merely ends
        // in its path, and no serialized URL ends in a space.
        healthCheckEndpoint: ' ',
        landingPage: false,
        logging: false,
        // The error masking stage is the one masking step, for yoga's answers as for the node:http
        // adapter's (pipeline/error-masking.ts).
        maskedErrors: false,
        cors,
        batching: { limit: settings.maxBatchOperations },
        // MAX_BODY_BYTES is enforced by the declared-length guard and useRequestBody, which reads each body once.
        maxRequestBodySize: false,
        ...(settings.graphiql
          ? graphiqlYogaOptions({ keysRequired: settings.gatewayApiKeys.length > 0, schema, onPath: (request) => routes.routeFor(new URL(request.url).pathname) === 'graphql' })
          : { graphiql: false }),
      }) as unknown as YogaServerInstance<object, object>;
      // Every request enters here: head guards before any body is read; repeated queries, and queries
      // the fast path has forwarded before, answered on node:http; the rest is yoga's.
      const listener = createNodeAdapter({
        guards,
        cache: responseCache,
        maskErrors,
        observers: observability.observers,
        cors,
        direct: forwarding && {
          operations: forwarding.prepared,
          // The first request of a text takes the same way as the thousandth: planned here, once.
          plan: documentPlanner({ checks: (context) => yoga.getEnveloped(context), forwarding, trustedTexts }),
          // Mesh logs the causes of errors only under NODE_ENV=production, which the production setting follows.
          onErrors: settings.production ? (errors) => logErrorCauses(mesh.logger, errors) : undefined,
        },
        next: yoga as unknown as NodeAdapterOptions['next'],
      });
      return {
        hash: problems.hash,
        schema,
        linksLeftOut,
        execute: mesh.execute,
        yoga,
        listener,
        plugins: stages.map(([name]) => name),
        dispose: async () => {
          await yoga.dispose();
          disposal.abort();
          mesh.destroy();
        },
      };
    } catch (error) {
      disposal.abort();
      mesh.destroy();
      throw error;
    }
  };

  // The first engine: on the live schema, or on the snapshot when the service cannot be introspected
  // (said in one line, and in /readiness).
  let engines: EngineSlot<Engine>;
  try {
    const initial = await problemsSchema.start();
    const first = await buildEngine(initial).catch((error: unknown) => {
      // Never the snapshot in its place: it would not match a service that answers, and say ready.
      if (problemsSchema.status().source !== 'live') throw error;
      throw new Error(`the problems service's schema cannot be built (${(error as Error).message}); the gateway does not start on the committed snapshot, which does not match the service`);
    });
    engines = createEngineSlot(first, {
      onDisposeError: (error) => log(`problems schema: an engine failed to close: ${(error as Error).message}`, 'warn'),
      onReleased: onEngineReleased,
    });
  } catch (error) {
    await release();
    throw error;
  }
  // Built beside the current engine, then swapped in whole when the live schema says (in the turn it
  // tells the new hash); a schema that fails to build leaves the current one serving
  // (live-problems-schema.ts says so once and counts it).
  let closing = false;
  const buildSwap = async (next: IntrospectedSchema) => {
    const engine = await buildEngine(next);
    return () => {
      // Built while the gateway was closing: nothing will serve it.
      if (closing) return void engine.dispose().catch(() => undefined);
      engines.swap(engine);
      schemaMetrics.reloaded();
    };
  };
  problemsSchema.follow();
  // TRANSLATION_PREWARM: the catalogue translated in the background, in spare capacity, through the
  // current engine's own execution of the link, held for one page at a time like a request.
  const prewarm = translationPrewarmFor(settings, {
    target: () => {
      const lease = engines.lease();
      return { execute: lease.engine.execute, schema: lease.engine.schema, release: lease.release };
    },
    runtime: translationRuntime,
    shared,
    metrics: observability.metrics,
    log,
  });

  // A request runs on the engine current when it arrives, and holds it until its response is sent.
  const leased =
    (serve: (adapter: NodeAdapter) => RequestListener): RequestListener =>
    (request, response) => {
      const lease = engines.lease();
      response.once('close', lease.release);
      serve(lease.engine.listener)(request, response);
    };
  const listener = leased((adapter) => adapter);
  const checkContinue = leased((adapter) => adapter.checkContinue);
  const yoga: GatewayYoga = {
    fetch: async (request, ...serverContext) => {
      const lease = engines.lease();
      try {
        return releasedWhenSent(await lease.engine.yoga.fetch(request, ...serverContext), lease.release);
      } catch (error) {
        lease.release();
        throw error;
      }
    },
  };
  const first = engines.current();
  return {
    yoga,
    fetch: (request) => Promise.resolve(yoga.fetch(request)),
    listener,
    checkContinue,
    graphqlEndpoint,
    pipeline: {
      guards: { head: names(guards.head), params: names(guards.params), batch: names(guards.batch), operation: names(guards.operation) },
      plugins: first.plugins,
    },
    get schema() {
      return engines.current().schema;
    },
    get linksLeftOut() {
      return engines.current().linksLeftOut;
    },
    metrics: observability.metrics,
    flushTraces: observability.flushTraces,
    close: async () => {
      // Prewarming first: no page starts once the gateway is closing.
      await prewarm.stop();
      closing = true;
      problemsSchema.stop();
      await engines.close();
      await release();
      await observability.close();
    },
  };
}

/** What one problems schema makes of the gateway (see buildEngine). */
interface Engine extends Disposable {
  /** The problems schema's hash. */
  hash: string;
  /** The unified schema clients see. */
  schema: GraphQLSchema;
  linksLeftOut: { name: string; reason: string }[];
  /** Mesh's own execution over this schema, for the gateway's background work (translation prewarming). */
  execute: PrewarmTarget['execute'];
  yoga: YogaServerInstance<object, object>;
  listener: NodeAdapter;
  /** yoga's stages by name, in order. */
  plugins: string[];
}

function names(guards: { name: string }[]): string[] {
  return guards.map(({ name }) => name);
}

/**
 * Everything that decides whether a request may run at all, as one digest: the public schema, the
 * operation limits, introspection and trusted documents. Cached answers are kept under it, so a
 * replica never serves an answer it would have refused to compute (another replica's settings, or
 * this one's before a rolling change).
 */
function admissionPolicyOf(schema: GraphQLSchema, settings: GatewaySettings, trustedDocuments: Record<string, string> | undefined): string {
  const { introspection, maxDepth, maxAliases, maxTokens, maxDirectives, maxRootFields, maxCost, maxArgumentLength, maxBatchOperations, translationMaxTextLength } = settings;
  const limits = { introspection, maxDepth, maxAliases, maxTokens, maxDirectives, maxRootFields, maxCost, maxArgumentLength, maxBatchOperations, translationMaxTextLength };
  const trusted = trustedDocuments ? Object.keys(trustedDocuments).sort() : null;
  return sha256Of(printSchema(schema), JSON.stringify(limits), JSON.stringify(trusted));
}
