import type { RequestListener } from 'node:http';
import type { GraphQLSchema } from 'graphql';
import type { Registry } from 'prom-client';
import { engineBuilder } from './composition/engine.ts';
import { leaseForPrewarm, serveEngines, withYogaAlone, type EngineServing } from './composition/engine-serving.ts';
import type { GatewayYoga } from './gateway-yoga.ts';
import { guardNames } from './composition/gateway-guards.ts';
import { clientChecks } from './composition/client-checks.ts';
import { startTranslation } from './composition/translation-parts.ts';
import type { RateLimitStore } from './guards/rate-limit-store.ts';
import { problemsSnapshotPath } from './mesh.ts';
import type { GatewayLog } from './gateway-log.ts';
import type { TranslationCache } from './translation/translation-cache.ts';
import { translationPrewarmFor } from './translation/prewarm/translation-prewarm.ts';
import type { PrewarmClock } from './translation/prewarm/prewarm-clock.ts';
import { createUpstreamFetch } from './upstream/upstream-fetch.ts';
import type { Observability } from './observability/index.ts';
import { startObservability } from './composition/observability-parts.ts';
import type { RequestLog } from './observability/request-log.ts';
import type { GuardList } from './request/guards.ts';
import { createSharedStores } from './shared-stores.ts';
import { SETTINGS, SettingsError, settingsFromOptions, type GatewaySettings } from './settings.ts';
import { upstreamStepsBySchema } from './upstream/upstream-calls.ts';
import { liveProblemsSchema } from './composition/problems-schema-parts.ts';
import { watchSchemaDrift } from './schema/schema-drift.ts';
import { createSchemaMetrics } from './schema/schema-metrics.ts';

export type { GatewayYoga } from './gateway-yoga.ts';

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
  /** The clock TRANSLATION_PREWARM paces, refreshes and waits for readers' quiet by (tests move it). @default the system's */
  prewarmClock?: PrewarmClock;
}

export interface Gateway {
  /** The yoga server underneath, reached through the front door as `gateway.fetch` is (with a server context of the caller's). */
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
export async function createGateway(options: GatewayOptions = {}): Promise<Gateway> {
  const { graphqlEndpoint = '/graphql', baseDir, problemsSchemaPath, log = console.warn } = options;
  const settings = settingsFromOptions(options.settings);
  requireUpstreamUrls(settings);
  // The snapshot .meshrc.yaml names, read before anything is started that would need closing.
  const snapshotPath = problemsSchemaPath ?? (await problemsSnapshotPath(baseDir, log));
  // With REDIS_URL, replicas share caches and rate limits; resolves (saying so) even if Redis is down.
  const shared = await createSharedStores(settings, log);
  const upstreamFetch = createUpstreamFetch();

  // The problems schema, introspected at start and followed (composition/problems-schema-parts.ts).
  const problemsSchema = liveProblemsSchema(settings, {
    upstreamFetch,
    snapshotPath,
    givenPath: problemsSchemaPath,
    onChange: (next) => serving.buildSwap(next),
    onFailure: (reason) => schemaMetrics.failed(reason),
    onAnswer: (answer) => schemaMetrics.answered(answer),
    log,
  });
  // Request log, metrics, traces and /readiness (composition/observability-parts.ts).
  const observability = await startObservability(settings, { graphqlEndpoint, requestLog: options.requestLog, problemsSchema: problemsSchema.status, fetch: upstreamFetch.fetch as unknown as typeof fetch, shared, log });
  const schemaMetrics = createSchemaMetrics(observability.metrics, problemsSchema.status, () => serving?.engines.alive() ?? 0);

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
    breakerClock: options.breakerClock,
    watch: [watchSchemaDrift(() => problemsSchema.driftSeen())],
  });
  // Readers' languages (composition/translation-parts.ts): curated translations first, then the service's.
  const translation = await startTranslation(settings, { translationCache: options.translationCache, shared, observability, log, now: options.prewarmClock?.now });
  const release = async () => {
    translation.curated?.close();
    problemsSchema.stop();
    // The statement worker thread, if it started; then the upstream connections and Redis (else
    // its reconnection loop would keep the process alive).
    await translation.runtime.statements.close();
    await upstreamFetch.close();
    await shared?.close();
  };
  // What a client request is checked against, every guard by phase in order (composition/client-checks.ts).
  const checks = clientChecks(settings, { graphqlEndpoint, rateLimitStore: options.rateLimitStore, shared, observability, appGuards: options.guards ?? {}, log });

  // Everything derived from one problems schema (composition/engine.ts), built at start and again
  // for each new schema, beside the one serving (composition/engine-serving.ts).
  const buildEngine = engineBuilder({ settings, baseDir, log, upstreamFetch, upstreamStepsFor, translationRuntime: translation.runtime, shared, observability, ...checks });
  let serving: EngineServing;
  try {
    serving = await serveEngines({ problemsSchema, buildEngine, log, onEngineReleased: options.onEngineReleased, onSwapped: () => schemaMetrics.reloaded() });
  } catch (error) {
    await release();
    throw error;
  }
  problemsSchema.follow();
  // TRANSLATION_PREWARM: the catalogue translated in the background, in spare capacity, through the
  // current engine's own execution of the link, held for one page at a time like a request.
  const prewarm = translationPrewarmFor(settings, { target: () => leaseForPrewarm(serving.engines), runtime: translation.runtime, shared, metrics: observability.metrics, log, clock: options.prewarmClock });

  return gatewayOf(serving, {
    graphqlEndpoint,
    guards: checks.guards,
    observability,
    close: async () => {
      // Prewarming first: no page starts once the gateway is closing.
      await prewarm.stop();
      await serving.close();
      await release();
      await observability.close();
    },
  });
}

/** The upstreams' base URLs: the one setting the gateway cannot default (the environment's are read by the entry, never here). */
function requireUpstreamUrls(settings: GatewaySettings): void {
  for (const setting of ['problemsUrl', 'translationUrl'] as const) {
    if (!settings[setting]) throw new SettingsError(setting, `the gateway needs the service's base URL (option ${setting}, variable ${SETTINGS[setting].variable})`);
  }
}

/** The gateway as its users hold it: the serving engines' doors, and what the engine now serving says. */
function gatewayOf(
  serving: EngineServing,
  { graphqlEndpoint, guards, observability, close }: { graphqlEndpoint: string; guards: GuardList; observability: Observability; close: () => Promise<void> },
): Gateway {
  const { engines, listener, checkContinue, yoga, yogaAlone } = serving;
  const gateway: Gateway = {
    yoga,
    fetch: (request) => Promise.resolve(yoga.fetch(request)),
    listener,
    checkContinue,
    graphqlEndpoint,
    pipeline: { guards: guardNames(guards), plugins: engines.current().plugins },
    get schema() {
      return engines.current().schema;
    },
    get linksLeftOut() {
      return engines.current().linksLeftOut;
    },
    metrics: observability.metrics,
    flushTraces: observability.flushTraces,
    close,
  };
  return withYogaAlone(gateway, yogaAlone);
}
