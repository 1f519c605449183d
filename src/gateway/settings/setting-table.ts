import {
  MAX_TIMER_MS,
  baseUrl,
  boolean,
  choice,
  decimal,
  integer,
  keyPrefix,
  keys,
  language,
  languages,
  origins,
  port,
  production,
  proxies,
  path,
  secret,
  url,
  type SettingKind,
} from './setting-kinds.ts';

/**
 * Every setting of the gateway, declared once: its variable, the kind of value it holds (type and
 * bounds), its default and one line of doc. From this table derive the settings type, the reader of
 * the environment, the options of `createGateway`, the configuration reference
 * (docs/configuration.md) and the check for misspelt variables (settings.ts). Grouped by feature;
 * every default lives here, none in the code that uses a setting.
 */
export interface Setting<T = unknown, Optional extends boolean = boolean> {
  readonly variable: string;
  readonly kind: SettingKind<T>;
  /** A value, or one that depends on NODE_ENV. Optional settings have none: unset has a meaning. */
  readonly default: Optional extends true ? undefined : T | ((settings: { production: boolean }) => T);
  /** One line for the README (Markdown). */
  readonly doc: string;
  /** The default as the README states it, where the value alone says too little. */
  readonly shownDefault?: string;
  readonly optional: Optional;
}

function setting<T>(entry: { variable: string; kind: SettingKind<T>; default: NoInfer<T> | ((settings: { production: boolean }) => NoInfer<T>); doc: string; shownDefault?: string }): Setting<T, false> {
  return { ...entry, optional: false };
}

/** A setting whose absence means something (`unset` says what) rather than a value. */
function optional<T>(entry: { variable: string; kind: SettingKind<T>; unset: string; doc: string }): Setting<T, true> {
  return { variable: entry.variable, kind: entry.kind, default: undefined, doc: entry.doc, shownDefault: `unset: ${entry.unset}`, optional: true };
}

/** Whole seconds a timer can hold. */
const MAX_TIMER_SECONDS = Math.floor(MAX_TIMER_MS / 1000);

const notInProduction = ({ production }: { production: boolean }) => !production;

const upstreams = {
  problemsUrl: optional({
    variable: 'PROBLEMS_URL',
    kind: baseUrl('/graphql'),
    unset: 'local stand-in; required in production',
    doc: 'base URL of the problems service; the gateway calls `<PROBLEMS_URL>/graphql` (a trailing `/graphql` is tolerated)',
  }),
  problemsApiKey: optional({ variable: 'PROBLEMS_API_KEY', kind: secret, unset: 'no header (a key is generated for the stand-in)', doc: 'sent upstream as `Authorization: Bearer …`' }),
  translationUrl: optional({ variable: 'TRANSLATION_URL', kind: baseUrl(), unset: 'local stand-in; required in production', doc: 'base URL of a LibreTranslate-compatible service' }),
  translationApiKey: optional({
    variable: 'TRANSLATION_API_KEY',
    kind: secret,
    unset: 'no key (a key is generated for the stand-in)',
    doc: 'sent upstream as `Authorization: Bearer …` and as the `api_key` body field',
  }),
  translationKeyInBody: setting({
    variable: 'TRANSLATION_KEY_IN_BODY',
    kind: boolean,
    default: true,
    doc: '`false` stops sending the key as `api_key` in request bodies (stock LibreTranslate reads it only from there)',
  }),
  problemsTimeoutMs: setting({ variable: 'PROBLEMS_TIMEOUT_MS', kind: integer(1, MAX_TIMER_MS), default: 10_000, doc: 'time budget of one problems call, retries and waits included' }),
  translationTimeoutMs: setting({ variable: 'TRANSLATION_TIMEOUT_MS', kind: integer(1, MAX_TIMER_MS), default: 15_000, doc: 'time budget of one translation call, retries and waits included' }),
  upstreamRetries: setting({ variable: 'UPSTREAM_RETRIES', kind: integer(0, 10), default: 2, doc: 'extra attempts for a call safe to repeat, on a transport failure or 429/502/503/504' }),
  problemsMaxResponseBytes: setting({
    variable: 'PROBLEMS_MAX_RESPONSE_BYTES',
    kind: integer(1),
    default: 10 * 1024 * 1024,
    shownDefault: '`10485760` (10 MiB)',
    doc: 'largest problems answer read (`UPSTREAM_RESPONSE_TOO_LARGE` past it)',
  }),
  translationMaxResponseBytes: setting({
    variable: 'TRANSLATION_MAX_RESPONSE_BYTES',
    kind: integer(1),
    default: 16 * 1024 * 1024,
    shownDefault: '`16777216` (16 MiB)',
    doc: 'the same for translation answers (a full batch of the longest texts stays well under it)',
  }),
  upstreamBreakerFailures: setting({
    variable: 'UPSTREAM_BREAKER_FAILURES',
    kind: integer(0, 1000),
    default: 5,
    doc: 'consecutive failed calls to one service (timeouts, refused or reset connections, 5xx, unusable bodies; a call with its retries counts once) that open its circuit; failures of one client alone, while others are served, open only that client\'s; `0` turns the breaker off',
  }),
  upstreamBreakerCooldownMs: setting({
    variable: 'UPSTREAM_BREAKER_COOLDOWN_MS',
    kind: integer(1, MAX_TIMER_MS),
    default: 10_000,
    doc: 'how long an open circuit fails that service\'s fields at once before up to 3 probe calls decide',
  }),
  upstreamBreakerFailurePercent: setting({
    variable: 'UPSTREAM_BREAKER_FAILURE_PERCENT',
    kind: integer(0, 100),
    default: 50,
    doc: 'share of a service\'s calls within the window that, failed, also opens it (once the window holds 10 calls); `0` turns this rule off',
  }),
  upstreamBreakerWindowMs: setting({ variable: 'UPSTREAM_BREAKER_WINDOW_MS', kind: integer(10, MAX_TIMER_MS), default: 10_000, doc: 'the window of that share' }),
  standIns: optional({
    variable: 'STAND_INS',
    kind: boolean,
    unset: 'stand-ins in development only',
    doc: '`true` runs the stand-ins for unset upstream URLs even in production (a demo; every log line and `/readiness` say so); `false` never runs them',
  }),
};

const translation = {
  translationBatchSize: setting({ variable: 'TRANSLATION_BATCH_SIZE', kind: integer(1), default: 200, doc: 'most texts in one `POST /translate`' }),
  translationConcurrency: setting({ variable: 'TRANSLATION_CONCURRENCY', kind: integer(1, 64), default: 4, doc: 'most translation calls in flight for one request' }),
  translationMaxCharsPerCall: optional({
    variable: 'TRANSLATION_MAX_CHARS_PER_CALL',
    kind: integer(1),
    unset: 'no bound',
    doc: 'most characters in one `POST /translate`; limits the service publishes or is seen to enforce can lower it, never raise it',
  }),
  translationMaxCallsPerRequest: setting({
    variable: 'TRANSLATION_MAX_CALLS_PER_REQUEST',
    kind: integer(1),
    default: 100,
    doc: 'most translation calls one client request may cause, whatever the service answers',
  }),
  translationMaxTextLength: setting({
    variable: 'TRANSLATION_MAX_TEXT_LENGTH',
    kind: integer(1),
    default: 5000,
    doc: 'longest text sent for translation, in characters; set it to the service\'s own limit',
  }),
  translationDefaultLanguages: setting({
    variable: 'TRANSLATION_DEFAULT_LANGUAGES',
    kind: languages,
    default: [],
    shownDefault: 'none: the original when the reader\'s languages are not offered',
    doc: 'comma-separated language tags (`es-419,es,en`) tried in order, after the request\'s own `Accept-Language`, by translation fields without `to:` (see [Readers\' languages](#readers-languages))',
  }),
  translationSourceLanguage: optional({
    variable: 'TRANSLATION_SOURCE_LANGUAGE',
    kind: language,
    unset: 'detected by the translation service, and kept per statement',
    doc: 'the language the problems are written in (`en`): a reader who wants it gets the original, marked `ORIGINAL`, with no call to the translation service (see [Readers\' languages](#readers-languages))',
  }),
  translationCuratedDir: optional({
    variable: 'TRANSLATION_CURATED_DIR',
    kind: path,
    unset: 'none (with `REDIS_URL`, those another replica publishes)',
    doc: 'directory of curated translations, `<dir>/<problem id>/<language>.md`, served before any machine translation and followed while running (format in [Readers\' languages](#readers-languages)); a path that is no directory stops start-up',
  }),
  translationCuratedStale: setting({
    variable: 'TRANSLATION_CURATED_STALE',
    kind: choice(['machine', 'serve']),
    default: 'machine',
    doc: 'a curated translation made from another statement than the problem\'s current one: `machine` serves a fresh machine translation instead, `serve` serves it marked `stale`',
  }),
  translationCuratedRescanSeconds: setting({
    variable: 'TRANSLATION_CURATED_RESCAN_SECONDS',
    kind: integer(0, MAX_TIMER_SECONDS),
    default: 30,
    doc: 'how often the curated directory (or the set shared through Redis) is read again for changes a file watcher misses; `0`: the watcher only',
  }),
  translationPrewarm: setting({
    variable: 'TRANSLATION_PREWARM',
    kind: languages,
    default: [],
    shownDefault: 'unset: off',
    doc: 'comma-separated languages (`es,fr,de`) into which every problem\'s title and statement is translated in the background, so readers of those languages never wait for the service (see [Prewarming](#prewarming-translations))',
  }),
  translationPrewarmCallsPerSecond: setting({
    variable: 'TRANSLATION_PREWARM_CALLS_PER_SECOND',
    kind: integer(1, 1000),
    default: 2,
    doc: 'most translation calls prewarming makes in any second, all replicas sharing `REDIS_URL` together (without Redis, per replica); readers\' own calls are not counted and go first',
  }),
  translationPrewarmRefreshSeconds: setting({
    variable: 'TRANSLATION_PREWARM_REFRESH_SECONDS',
    kind: integer(1, MAX_TIMER_SECONDS),
    default: 3600,
    doc: 'how long after a language\'s last walk over the catalogue the next begins (changed texts are translated again, unchanged ones cost nothing); keep it under `TRANSLATION_CACHE_TTL_SECONDS`',
  }),
};

const clientsAndLimits = {
  gatewayApiKeys: setting({
    variable: 'GATEWAY_API_KEYS',
    kind: keys,
    default: [],
    shownDefault: 'unset: open, with a warning',
    doc: 'comma-separated keys clients must present as `Authorization: Bearer <key>`',
  }),
  corsOrigins: setting({ variable: 'CORS_ORIGINS', kind: origins, default: '*', doc: 'comma-separated origins browsers may call from, or `*`' }),
  trustProxy: setting({
    variable: 'TRUST_PROXY',
    kind: proxies,
    default: false,
    doc: '`true` (one proxy) or the number of reverse proxies appending to `X-Forwarded-For`, to tell clients apart by address; never set it without such proxies',
  }),
  rateLimitRequests: setting({
    variable: 'RATE_LIMIT_REQUESTS',
    kind: integer(1),
    default: 300,
    doc: 'GraphQL operations per client (its key, or its address) per window; over it 429 with `Retry-After`',
  }),
  translationRateLimitRequests: setting({ variable: 'TRANSLATION_RATE_LIMIT_REQUESTS', kind: integer(1), default: 60, doc: 'requests that reach translation, per client and window' }),
  rateLimitWindowSeconds: setting({ variable: 'RATE_LIMIT_WINDOW_SECONDS', kind: integer(1), default: 60, doc: 'length of the rate-limit window, in seconds' }),
  maxDepth: setting({ variable: 'MAX_DEPTH', kind: integer(1), default: 10, doc: 'deepest nesting of an operation (introspection excepted)' }),
  maxAliases: setting({ variable: 'MAX_ALIASES', kind: integer(0), default: 15, doc: 'aliases per operation' }),
  maxTokens: setting({ variable: 'MAX_TOKENS', kind: integer(1), default: 2000, doc: 'tokens per document (counted while parsing)' }),
  maxDirectives: setting({ variable: 'MAX_DIRECTIVES', kind: integer(0), default: 50, doc: 'directives per operation' }),
  maxRootFields: setting({ variable: 'MAX_ROOT_FIELDS', kind: integer(1), default: 20, doc: 'root fields per operation' }),
  maxCost: setting({
    variable: 'MAX_COST',
    kind: integer(1),
    default: 5000,
    doc: 'estimated cost of an operation: 1 per field, multiplied through `first:`; `Problem.translation` 20, `translate`/`detect` 10, `translateMany` 10 a text, `languages` 5',
  }),
  maxArgumentLength: setting({ variable: 'MAX_ARGUMENT_LENGTH', kind: integer(1), default: 10_000, doc: 'longest string in any argument, variables included' }),
  maxBatchOperations: setting({ variable: 'MAX_BATCH_OPERATIONS', kind: integer(1), default: 10, doc: 'operations in one batched request (a JSON array)' }),
  maxBodyBytes: setting({ variable: 'MAX_BODY_BYTES', kind: integer(1), default: 1024 * 1024, shownDefault: '`1048576` (1 MiB)', doc: 'largest request body; larger gets 413' }),
  trustedDocuments: optional({
    variable: 'TRUSTED_DOCUMENTS',
    kind: path,
    unset: 'any operation',
    doc: 'path of a trusted-documents manifest (`{ "<sha256>": "<document>" }`): only its operations run, and APQ registration is off',
  }),
};

const caches = {
  translationCacheTtlSeconds: setting({
    variable: 'TRANSLATION_CACHE_TTL_SECONDS',
    kind: integer(0),
    default: 21_600,
    shownDefault: '`21600` (6 h)',
    doc: 'how long a translation is reused (`0` = no cache)',
  }),
  translationCacheMaxBytes: setting({
    variable: 'TRANSLATION_CACHE_MAX_BYTES',
    kind: integer(0),
    default: 64 * 1024 * 1024,
    shownDefault: '`67108864` (64 MiB)',
    doc: 'memory bound of the translation cache, in process and, with `REDIS_URL`, in Redis (all replicas together); `0` turns it off',
  }),
  problemsCacheTtlSeconds: setting({ variable: 'PROBLEMS_CACHE_TTL_SECONDS', kind: integer(0), default: 10, doc: 'how long a problems answer is reused, per client credential (`0` = off)' }),
  responseCacheTtlSeconds: setting({
    variable: 'RESPONSE_CACHE_TTL_SECONDS',
    kind: integer(0),
    default: 60,
    doc: 'how long a whole answer is reused for the same document, variables and credential (`0` = off)',
  }),
  persistedQueriesTtlSeconds: setting({
    variable: 'PERSISTED_QUERIES_TTL_SECONDS',
    kind: integer(0),
    default: 86_400,
    shownDefault: '`86400` (24 h)',
    doc: 'how long an automatic persisted query is kept (`0` = APQ off)',
  }),
};

const redis = {
  redisUrl: optional({
    variable: 'REDIS_URL',
    kind: url(['redis:', 'rediss:']),
    unset: 'in-process',
    doc: 'one Redis shared by replicas for caches, persisted queries and rate limits (`redis://` or `rediss://`). A Redis that refuses the credential (`WRONGPASS`, `NOAUTH`) stops start-up with one line; an unreachable one is waited for in the background (degraded). Start-up says `redis: connected to host:port` when it connects',
  }),
  redisPrefix: setting({ variable: 'REDIS_PREFIX', kind: keyPrefix, default: 'problems-translation-gateway', doc: 'what every Redis key the gateway writes starts with' }),
  redisTimeoutMs: setting({
    variable: 'REDIS_TIMEOUT_MS',
    // At most 150: the rate-limit guard gives its store 200 ms in all, fallback included.
    kind: integer(1, 150),
    default: 100,
    doc: 'budget of one Redis operation; past it a read is a miss and the rate limit counts in process',
  }),
  redisCacheMaxBytes: setting({
    variable: 'REDIS_CACHE_MAX_BYTES',
    kind: integer(0),
    default: 32 * 1024 * 1024,
    shownDefault: '`33554432` (32 MiB)',
    doc: 'most bytes the problems answers take in Redis, all replicas together, and as much again the whole answers; `0` keeps neither there (see docs/operations.md, Redis memory)',
  }),
};

const schemaAndExecution = {
  problemsSchemaPollSeconds: setting({
    variable: 'PROBLEMS_SCHEMA_POLL_SECONDS',
    kind: decimal(0, MAX_TIMER_MS / 1000),
    default: 60,
    doc: 'how often the problems service\'s schema is introspected again while the gateway runs (decimals allowed); a changed schema is swapped in without a restart or a dropped request (see [Pointing at real upstreams](#pointing-at-real-upstreams)); `0` turns polling off (a refused operation still triggers a check)',
  }),
  problemsSchemaMaxTypes: setting({
    variable: 'PROBLEMS_SCHEMA_MAX_TYPES',
    kind: integer(1),
    default: 500,
    doc: 'largest problems schema the gateway builds, in named types: a larger one is refused (at start: the gateway does not start; while running: the schema served stays, `/readiness` says why). Each step of a build holds requests up in proportion to the schema (the longest, Mesh merging the sources, for about 100 ms at the defaults); raising a bound lengthens that wait',
  }),
  problemsSchemaMaxFields: setting({
    variable: 'PROBLEMS_SCHEMA_MAX_FIELDS',
    kind: integer(1),
    default: 5000,
    doc: 'the same in fields (of object, interface and input types) and their arguments',
  }),
  problemsSchemaMaxEnumValues: setting({
    variable: 'PROBLEMS_SCHEMA_MAX_ENUM_VALUES',
    kind: integer(1),
    default: 5000,
    doc: 'the same in enum values (all enums together)',
  }),
  introspection: setting({ variable: 'GATEWAY_INTROSPECTION', kind: boolean, default: notInProduction, shownDefault: 'on; off in production', doc: 'allow `__schema` / `__type`' }),
  graphiql: setting({ variable: 'GATEWAY_GRAPHIQL', kind: boolean, default: notInProduction, shownDefault: 'on; off in production', doc: 'serve GraphiQL to browsers' }),
  fastPathEnabled: setting({
    variable: 'FAST_PATH_ENABLED',
    kind: boolean,
    default: true,
    doc: '`false` sends every operation through Mesh\'s delegation, even one the problems service could answer whole',
  }),
};

const operations = {
  port: setting({ variable: 'PORT', kind: port, default: 4000, doc: 'port the gateway listens on' }),
  production: setting({
    variable: 'NODE_ENV',
    kind: production,
    default: false,
    shownDefault: 'development',
    doc: '`production`: errors masked, no suggestions, introspection and GraphiQL off, no stand-ins',
  }),
  metricsEnabled: setting({ variable: 'METRICS_ENABLED', kind: boolean, default: true, doc: 'serve Prometheus metrics on `GET /metrics`' }),
  otlpEndpoint: optional({
    variable: 'OTEL_EXPORTER_OTLP_ENDPOINT',
    kind: baseUrl(),
    unset: 'no tracing',
    doc: 'OTLP/HTTP collector base URL; turns tracing on (`OTEL_EXPORTER_OTLP_HEADERS`, `OTEL_SERVICE_NAME`, `OTEL_RESOURCE_ATTRIBUTES` honoured)',
  }),
  shutdownTimeoutMs: setting({
    variable: 'SHUTDOWN_TIMEOUT_MS',
    kind: integer(0, MAX_TIMER_MS),
    default: 10_000,
    doc: 'on SIGTERM/SIGINT, how long `npm start` lets requests in flight finish before it cuts them off (keep it under the orchestrator\'s grace period)',
  }),
};

/** The table by feature, in the order the README lists them. */
export const SETTING_GROUPS = [
  { title: 'Upstreams', settings: upstreams },
  { title: 'Translation', settings: translation },
  { title: 'Clients and limits', settings: clientsAndLimits },
  { title: 'Caches', settings: caches },
  { title: 'Redis', settings: redis },
  { title: 'Schema and execution', settings: schemaAndExecution },
  { title: 'Operations', settings: operations },
] as const satisfies readonly { title: string; settings: Record<string, Setting> }[];

/** Every setting by its name in code (the option of `createGateway`). */
export const SETTINGS = { ...upstreams, ...translation, ...clientsAndLimits, ...caches, ...redis, ...schemaAndExecution, ...operations };

type Table = typeof SETTINGS;
type ValueOf<S> = S extends Setting<infer T, boolean> ? T : never;
type OptionalNames = { [K in keyof Table]: Table[K] extends Setting<unknown, true> ? K : never }[keyof Table];

/** The settings a gateway runs on, as the table declares them (see SETTINGS for each one's doc). */
export type GatewaySettings = { [K in Exclude<keyof Table, OptionalNames>]: ValueOf<Table[K]> } & { [K in OptionalNames]?: ValueOf<Table[K]> };
