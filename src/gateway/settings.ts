import { parseLanguageTag } from './translation/language-tags.ts';

/**
 * The gateway's settings, read from the environment (see the table in README.md).
 * Every variable is optional: without the upstream URLs, `npm start` runs the local stand-ins.
 * A bad value stops start-up with one line naming the variable; secret values are never echoed.
 */
export interface GatewaySettings {
  /** `PORT`: where the gateway listens. @default 4000 */
  port: number;
  /** `PROBLEMS_URL`: base URL of the problems service (the gateway calls `<url>/graphql`). */
  problemsUrl?: string;
  /** `PROBLEMS_API_KEY`: sent to the problems service as `Authorization: Bearer …`. */
  problemsApiKey?: string;
  /** `TRANSLATION_URL`: base URL of the LibreTranslate-compatible translation service. */
  translationUrl?: string;
  /** `TRANSLATION_API_KEY`: sent to the translation service as a Bearer header (and `api_key`, see below). */
  translationApiKey?: string;
  /**
   * `TRANSLATION_KEY_IN_BODY`: also send the translation key as the `api_key` body field, which is
   * where a stock LibreTranslate server reads it. @default true
   */
  translationKeyInBody: boolean;
  /** `GATEWAY_API_KEYS`: comma-separated keys clients must present; empty = open (development). */
  gatewayApiKeys: string[];
  /** `REDIS_URL`: shared store for several replicas; unset = in-process. */
  redisUrl?: string;
  /**
   * `REDIS_PREFIX`: what every key the gateway writes in Redis starts with, so several deployments
   * can share one Redis. @default problems-translation-gateway (the package name)
   */
  redisPrefix: string;
  /**
   * `REDIS_TIMEOUT_MS`: budget of one Redis operation; past it the cache misses and the rate limit
   * counts in process. At most 150: the rate-limit guard gives its store 200 ms in all, fallback
   * included. @default 100
   */
  redisTimeoutMs: number;
  /** `REDIS_CACHE_MAX_BYTES`: most bytes the problems answers take in Redis, and so the whole answers, each across all replicas; 0 keeps neither there. @default 33554432 (32 MiB) */
  redisCacheMaxBytes: number;
  /** `PROBLEMS_TIMEOUT_MS`: budget for one problems call, retries included. @default 10000 */
  problemsTimeoutMs: number;
  /** `TRANSLATION_TIMEOUT_MS`: budget for one translation call, retries included. @default 15000 */
  translationTimeoutMs: number;
  /** `UPSTREAM_RETRIES`: extra attempts for a call that is safe to repeat (transport failure, 429, 502–504). @default 2 */
  upstreamRetries: number;
  /**
   * `UPSTREAM_BREAKER_FAILURES`: consecutive failed calls to one service (timeouts, refused or reset
   * connections, 5xx, unusable bodies; each call counted once, retries included) that open its
   * circuit: its calls then fail at once with UPSTREAM_UNAVAILABLE until a probe succeeds. 0 turns
   * the breaker off. @default 5, applied by the breaker (upstream/circuit-breaker.ts), like the three below
   */
  upstreamBreakerFailures?: number;
  /**
   * `UPSTREAM_BREAKER_COOLDOWN_MS`: how long an open circuit fails its service's calls at once before
   * a few probe calls decide whether to close it (a failed probe opens it for as long again).
   * @default 10000
   */
  upstreamBreakerCooldownMs?: number;
  /**
   * `UPSTREAM_BREAKER_FAILURE_PERCENT`: share of a service's calls within UPSTREAM_BREAKER_WINDOW_MS
   * that, failed, opens its circuit too, once the window holds 10 calls or more (a service failing
   * every other call is not caught by the consecutive count). 0 turns this rule off. @default 50
   */
  upstreamBreakerFailurePercent?: number;
  /** `UPSTREAM_BREAKER_WINDOW_MS`: the window UPSTREAM_BREAKER_FAILURE_PERCENT looks at. @default 10000 */
  upstreamBreakerWindowMs?: number;
  /** `TRANSLATION_BATCH_SIZE`: most texts in one `POST /translate`; more are split into the fewest calls. @default 200 */
  translationBatchSize: number;
  /** `TRANSLATION_CONCURRENCY`: most translation calls in flight for one request's batches. @default 4 */
  translationConcurrency: number;
  /**
   * `TRANSLATION_MAX_CHARS_PER_CALL`: most characters in one `POST /translate`, summed over its texts;
   * what the service is seen to accept (or publishes) may lower it, never raise it. @default no bound
   */
  translationMaxCharsPerCall?: number;
  /**
   * `TRANSLATION_MAX_CALLS_PER_REQUEST`: most translation calls (translate, detect) one
   * client request may cause, whatever happens upstream; each call may be tried 1 + UPSTREAM_RETRIES
   * times. @default 100, applied by the translation runtime
   */
  translationMaxCallsPerRequest?: number;
  /** `TRANSLATION_MAX_TEXT_LENGTH`: longest text (characters) sent for translation; longer is refused up front. @default 5000 */
  translationMaxTextLength: number;
  /** `TRANSLATION_CACHE_TTL_SECONDS`: how long a translation is reused; 0 turns the cache off. @default 21600 (6 h) */
  translationCacheTtlSeconds: number;
  /**
   * `TRANSLATION_DEFAULT_LANGUAGES`: comma-separated language tags (`es-419,es,en`) tried, in order,
   * for translation fields without `to:` after the reader's own `Accept-Language`; when none of them
   * is offered either, the original is served. @default none
   */
  translationDefaultLanguages: string[];
  /**
   * `TRANSLATION_CURATED_DIR`: directory of curated translations, `<dir>/<problem id>/<language>.md`
   * (format in README "Readers' languages"), served before any machine translation and followed
   * while running. Unset: none (with REDIS_URL, those another replica shares are served).
   */
  translationCuratedDir?: string;
  /**
   * `TRANSLATION_CURATED_STALE`: what to serve when a curated translation was made from another
   * statement than the problem's current one: `machine`, a fresh machine translation in its place;
   * `serve`, the curated one all the same, marked stale. @default machine
   */
  translationCuratedStale: 'machine' | 'serve';
  /**
   * `TRANSLATION_CURATED_RESCAN_SECONDS`: how often the curated directory (and, with REDIS_URL, the
   * set replicas share) is read again for changes a file watcher misses; 0: the watcher only. @default 30
   */
  translationCuratedRescanSeconds: number;
  /** `TRANSLATION_CACHE_MAX_BYTES`: memory bound of the translation cache, in process (LRU) and in Redis (all replicas together); 0 turns it off. @default 67108864 (64 MiB) */
  translationCacheMaxBytes: number;
  /**
   * `TRANSLATION_PREWARM`: comma-separated languages (`es,fr,de`) into which the gateway translates
   * every problem's title and statement in the background, paced and in spare capacity only, so that
   * readers of those languages find them cached. Unset: off.
   */
  translationPrewarm?: string[];
  /**
   * `TRANSLATION_PREWARM_CALLS_PER_SECOND`: most translation calls prewarming makes in any one
   * second, all replicas sharing Redis together, else per replica (readers' own calls are not
   * counted, and always go first). @default 2, applied by the prewarming (translation/prewarm/),
   * like the one below
   */
  translationPrewarmCallsPerSecond?: number;
  /**
   * `TRANSLATION_PREWARM_REFRESH_SECONDS`: how long after a language's last walk over the catalogue
   * the next begins: unchanged texts are cache hits, changed ones are translated again. Keep it under
   * TRANSLATION_CACHE_TTL_SECONDS so prewarmed translations never expire. @default 3600
   */
  translationPrewarmRefreshSeconds?: number;
  /** `PROBLEMS_CACHE_TTL_SECONDS`: how long a problems answer is reused, per client credential; 0 = off. @default 10 */
  problemsCacheTtlSeconds: number;
  /**
   * `PROBLEMS_SCHEMA_POLL_SECONDS`: how often the problems service's schema is introspected again
   * while the gateway runs (decimals allowed, e.g. `0.5`); a changed schema is swapped in without a
   * restart and without dropping a request. 0 turns polling off (a refused operation still triggers a
   * check). @default 60
   */
  problemsSchemaPollSeconds: number;
  /**
   * `RESPONSE_CACHE_TTL_SECONDS`: how long a whole answer to a query is reused for the same document,
   * variables and credential, without executing it again; 0 turns the response cache off. Answers
   * holding only translations live as long as TRANSLATION_CACHE_TTL_SECONDS. @default 60
   */
  responseCacheTtlSeconds: number;
  /**
   * `PERSISTED_QUERIES_TTL_SECONDS`: how long a document registered by automatic persisted queries
   * (APQ: Apollo's PersistedQueryLink, urql's persistedExchange) is kept under its SHA-256 hash;
   * 0 turns APQ off (clients are told PersistedQueryNotSupported and send the text). @default 86400
   */
  persistedQueriesTtlSeconds: number;
  /**
   * `TRUSTED_DOCUMENTS`: path of a JSON manifest `{ "<hash>": "<document>" }` (graphql-codegen's client
   * preset writes one with `persistedDocuments: true`); when set, only its operations run, by hash
   * or by their exact text, and APQ registration is off. Unset: any operation runs.
   */
  trustedDocuments?: string;
  /**
   * `PROBLEMS_MAX_RESPONSE_BYTES`: largest problems answer the gateway reads; reading stops there and
   * the call fails with UPSTREAM_RESPONSE_TOO_LARGE, so a runaway answer cannot fill memory.
   * @default 10485760 (10 MiB), applied where answers are read (upstream/answer-size-limit.ts)
   */
  problemsMaxResponseBytes?: number;
  /**
   * `TRANSLATION_MAX_RESPONSE_BYTES`: the same bound for translation answers; a full batch of the
   * longest texts, JSON-escaped, stays well under it. @default 16777216 (16 MiB), applied likewise
   */
  translationMaxResponseBytes?: number;
  /** `NODE_ENV=production`: errors masked, field suggestions off, introspection and GraphiQL off unless enabled. */
  production: boolean;
  /** `GATEWAY_INTROSPECTION`: allow `__schema`/`__type` queries. @default true, false in production */
  introspection: boolean;
  /** `GATEWAY_GRAPHIQL`: serve GraphiQL to browsers on GET /graphql. @default true, false in production */
  graphiql: boolean;
  /** `CORS_ORIGINS`: comma-separated origins allowed to call from browsers, or `*`. @default * */
  corsOrigins: string[] | '*';
  /** `RATE_LIMIT_REQUESTS`: GraphQL requests one client may make per window. @default 300 */
  rateLimitRequests: number;
  /** `TRANSLATION_RATE_LIMIT_REQUESTS`: requests touching translation one client may make per window. @default 60 */
  translationRateLimitRequests: number;
  /** `RATE_LIMIT_WINDOW_SECONDS`: length of the rate-limit window. @default 60 */
  rateLimitWindowSeconds: number;
  /**
   * `TRUST_PROXY`: the gateway runs behind reverse proxies that append to `X-Forwarded-For`: `true`
   * (one) or their number (`2`: a load balancer in front of a proxy). Clients are then told apart by
   * the address the farthest of them appended (counted from the right), not by the proxy's. Only
   * behind such proxies: anyone else could pick their own address. @default false
   */
  trustProxy: boolean | number;
  /** `MAX_DEPTH`: deepest field nesting allowed (introspection excepted). @default 10 */
  maxDepth: number;
  /** `MAX_ALIASES`: aliases allowed in one operation. @default 15 */
  maxAliases: number;
  /** `MAX_TOKENS`: tokens allowed in one document. @default 2000 */
  maxTokens: number;
  /** `MAX_DIRECTIVES`: directives allowed in one operation. @default 50 */
  maxDirectives: number;
  /** `MAX_ROOT_FIELDS`: root fields allowed in one operation. @default 20 */
  maxRootFields: number;
  /** `MAX_COST`: estimated cost allowed for one operation (see README "Security"). @default 5000 */
  maxCost: number;
  /** `MAX_ARGUMENT_LENGTH`: longest string any argument may hold, variables included. @default 10000 */
  maxArgumentLength: number;
  /** `MAX_BATCH_OPERATIONS`: operations allowed in one batched HTTP request (a JSON array). @default 10 */
  maxBatchOperations: number;
  /** `MAX_BODY_BYTES`: largest request body accepted; larger gets 413. @default 1048576 (1 MiB) */
  maxBodyBytes: number;
  /**
   * `FAST_PATH_ENABLED`: send an operation that only the problems service answers to it whole, in
   * one call, instead of delegating it field by field through Mesh; the answer is the same either
   * way (README "Performance"). `false` delegates every operation. @default true
   */
  fastPathEnabled: boolean;
  /** `METRICS_ENABLED`: serve Prometheus metrics on GET /metrics (open, like /healthcheck: firewall it or turn it off). @default true */
  metricsEnabled: boolean;
  /**
   * `OTEL_EXPORTER_OTLP_ENDPOINT`: base URL of an OpenTelemetry collector; when set, each request and
   * upstream call is traced and exported as OTLP/HTTP JSON to `<url>/v1/traces`. Unset: no tracing.
   */
  otlpEndpoint?: string;
  /**
   * `SHUTDOWN_TIMEOUT_MS`: on SIGTERM or SIGINT, how long `npm start` lets requests in flight finish
   * before it cuts them off and exits. Keep it under the orchestrator's own grace period. Unset here
   * (an embedding app shuts down its own server); `npm start` then waits 10000 ms.
   */
  shutdownTimeoutMs?: number;
  /**
   * `STAND_INS`: whether `npm start` runs the local stand-ins (fake data) for upstreams whose URL is
   * not set. Unset: in development yes, in production never, so a missing URL stops start-up instead
   * of serving fake data. Given to a gateway, `true` means stand-ins serve it, and /readiness says so.
   */
  standIns?: boolean;
}

/** A setting that cannot be used; `message` is one line that names the variable. */
export class SettingsError extends Error {
  readonly variable: string;

  constructor(variable: string, message: string) {
    super(`${variable}: ${message}`);
    this.variable = variable;
    this.name = 'SettingsError';
  }
}

type Env = Record<string, string | undefined>;

const MAX_TIMER_MS = 2_147_483_647;

/** The settings held by `env`: an entry passes the process environment, once; the library never reads it itself. */
export function readSettings(env: Env): GatewaySettings {
  const production = present(env, 'NODE_ENV') === 'production';
  return {
    port: readPort(env, 'PORT', 4000),
    problemsUrl: readBaseUrl(env, 'PROBLEMS_URL', '/graphql'),
    problemsApiKey: readSecret(env, 'PROBLEMS_API_KEY'),
    translationUrl: readBaseUrl(env, 'TRANSLATION_URL'),
    translationApiKey: readSecret(env, 'TRANSLATION_API_KEY'),
    translationKeyInBody: readBoolean(env, 'TRANSLATION_KEY_IN_BODY', true),
    gatewayApiKeys: readList(env, 'GATEWAY_API_KEYS'),
    redisUrl: readUrl(env, 'REDIS_URL', ['redis:', 'rediss:']),
    redisPrefix: readKeyPrefix(env, 'REDIS_PREFIX', 'problems-translation-gateway'),
    redisTimeoutMs: readInteger(env, 'REDIS_TIMEOUT_MS', 100, 1, 150),
    redisCacheMaxBytes: readInteger(env, 'REDIS_CACHE_MAX_BYTES', 32 * 1024 * 1024, 0),
    // Node's timers hold at most 2^31 - 1 ms; a larger value would fire at once.
    problemsTimeoutMs: readInteger(env, 'PROBLEMS_TIMEOUT_MS', 10_000, 1, MAX_TIMER_MS),
    translationTimeoutMs: readInteger(env, 'TRANSLATION_TIMEOUT_MS', 15_000, 1, MAX_TIMER_MS),
    upstreamRetries: readInteger(env, 'UPSTREAM_RETRIES', 2, 0, 10),
    upstreamBreakerFailures: readOptionalInteger(env, 'UPSTREAM_BREAKER_FAILURES', 0, 1000),
    upstreamBreakerCooldownMs: readOptionalInteger(env, 'UPSTREAM_BREAKER_COOLDOWN_MS', 1, MAX_TIMER_MS),
    upstreamBreakerFailurePercent: readOptionalInteger(env, 'UPSTREAM_BREAKER_FAILURE_PERCENT', 0, 100),
    upstreamBreakerWindowMs: readOptionalInteger(env, 'UPSTREAM_BREAKER_WINDOW_MS', 10, MAX_TIMER_MS),
    translationBatchSize: readInteger(env, 'TRANSLATION_BATCH_SIZE', 200, 1),
    translationConcurrency: readInteger(env, 'TRANSLATION_CONCURRENCY', 4, 1, 64),
    translationMaxCharsPerCall: readOptionalInteger(env, 'TRANSLATION_MAX_CHARS_PER_CALL', 1),
    translationMaxCallsPerRequest: readOptionalInteger(env, 'TRANSLATION_MAX_CALLS_PER_REQUEST', 1),
    translationMaxTextLength: readInteger(env, 'TRANSLATION_MAX_TEXT_LENGTH', 5000, 1),
    translationCacheTtlSeconds: readInteger(env, 'TRANSLATION_CACHE_TTL_SECONDS', 21_600, 0),
    translationCacheMaxBytes: readInteger(env, 'TRANSLATION_CACHE_MAX_BYTES', 64 * 1024 * 1024, 0),
    translationDefaultLanguages: readLanguageList(env, 'TRANSLATION_DEFAULT_LANGUAGES') ?? [],
    translationCuratedDir: present(env, 'TRANSLATION_CURATED_DIR'),
    translationCuratedStale: readChoice(env, 'TRANSLATION_CURATED_STALE', ['machine', 'serve'], 'machine'),
    translationCuratedRescanSeconds: readInteger(env, 'TRANSLATION_CURATED_RESCAN_SECONDS', 30, 0, MAX_TIMER_MS / 1000),
    translationPrewarm: readLanguageList(env, 'TRANSLATION_PREWARM'),
    translationPrewarmCallsPerSecond: readOptionalInteger(env, 'TRANSLATION_PREWARM_CALLS_PER_SECOND', 1, 1000),
    translationPrewarmRefreshSeconds: readOptionalInteger(env, 'TRANSLATION_PREWARM_REFRESH_SECONDS', 1, MAX_TIMER_MS / 1000),
    problemsCacheTtlSeconds: readInteger(env, 'PROBLEMS_CACHE_TTL_SECONDS', 10, 0),
    problemsSchemaPollSeconds: readDecimal(env, 'PROBLEMS_SCHEMA_POLL_SECONDS', 60, 0, MAX_TIMER_MS / 1000),
    responseCacheTtlSeconds: readInteger(env, 'RESPONSE_CACHE_TTL_SECONDS', 60, 0),
    persistedQueriesTtlSeconds: readInteger(env, 'PERSISTED_QUERIES_TTL_SECONDS', 86_400, 0),
    trustedDocuments: present(env, 'TRUSTED_DOCUMENTS'),
    problemsMaxResponseBytes: readOptionalInteger(env, 'PROBLEMS_MAX_RESPONSE_BYTES', 1),
    translationMaxResponseBytes: readOptionalInteger(env, 'TRANSLATION_MAX_RESPONSE_BYTES', 1),
    production,
    introspection: readBoolean(env, 'GATEWAY_INTROSPECTION', !production),
    graphiql: readBoolean(env, 'GATEWAY_GRAPHIQL', !production),
    corsOrigins: readOrigins(env, 'CORS_ORIGINS'),
    rateLimitRequests: readInteger(env, 'RATE_LIMIT_REQUESTS', 300, 1),
    translationRateLimitRequests: readInteger(env, 'TRANSLATION_RATE_LIMIT_REQUESTS', 60, 1),
    rateLimitWindowSeconds: readInteger(env, 'RATE_LIMIT_WINDOW_SECONDS', 60, 1),
    trustProxy: /^\s*\d+\s*$/.test(env.TRUST_PROXY ?? '') ? readInteger(env, 'TRUST_PROXY', 0, 0, 10) : readBoolean(env, 'TRUST_PROXY', false),
    maxDepth: readInteger(env, 'MAX_DEPTH', 10, 1),
    maxAliases: readInteger(env, 'MAX_ALIASES', 15, 0),
    maxTokens: readInteger(env, 'MAX_TOKENS', 2000, 1),
    maxDirectives: readInteger(env, 'MAX_DIRECTIVES', 50, 0),
    maxRootFields: readInteger(env, 'MAX_ROOT_FIELDS', 20, 1),
    maxCost: readInteger(env, 'MAX_COST', 5000, 1),
    maxArgumentLength: readInteger(env, 'MAX_ARGUMENT_LENGTH', 10_000, 1),
    maxBatchOperations: readInteger(env, 'MAX_BATCH_OPERATIONS', 10, 1),
    maxBodyBytes: readInteger(env, 'MAX_BODY_BYTES', 1024 * 1024, 1),
    fastPathEnabled: readBoolean(env, 'FAST_PATH_ENABLED', true),
    metricsEnabled: readBoolean(env, 'METRICS_ENABLED', true),
    otlpEndpoint: readBaseUrl(env, 'OTEL_EXPORTER_OTLP_ENDPOINT'),
    shutdownTimeoutMs: present(env, 'SHUTDOWN_TIMEOUT_MS') === undefined ? undefined : readInteger(env, 'SHUTDOWN_TIMEOUT_MS', 0, 0, MAX_TIMER_MS),
    standIns: present(env, 'STAND_INS') === undefined ? undefined : readBoolean(env, 'STAND_INS', false),
  };
}

function present(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

export function readPort(env: Env, name: string, fallback: number): number {
  const raw = present(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) > 65535) {
    throw new SettingsError(name, `expected a port number from 0 to 65535, got "${raw}"`);
  }
  return Number(raw);
}

function readInteger(env: Env, name: string, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const raw = present(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `${min} or more` : `from ${min} to ${max}`;
    throw new SettingsError(name, `expected a whole number ${range}, got "${raw}"`);
  }
  return Number(raw);
}

/** A number of at most three decimals (milliseconds, when it counts seconds), from `min` to `max`. */
function readDecimal(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = present(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+(\.\d{1,3})?$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new SettingsError(name, `expected a number from ${min} to ${max} (at most three decimals), got "${raw}"`);
  }
  return Number(raw);
}

/** A whole number whose default the code using it applies. */
function readOptionalInteger(env: Env, name: string, min: number, max = Number.MAX_SAFE_INTEGER): number | undefined {
  return present(env, name) === undefined ? undefined : readInteger(env, name, min, min, max);
}

function readUrl(env: Env, name: string, protocols: string[]): string | undefined {
  const raw = present(env, name);
  if (raw === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    // The raw value is not echoed: a URL may carry credentials (redis://:password@host).
    throw new SettingsError(name, `not a valid URL (expected ${protocols.join(' or ')}//host[:port])`);
  }
  if (!protocols.includes(url.protocol)) {
    throw new SettingsError(name, `expected a ${protocols.join(' or ')} URL, got one with "${url.protocol}"`);
  }
  return raw;
}

/**
 * A base URL the gateway appends paths to: http(s) only, no trailing slash. If a user gives the full
 * endpoint (`…/graphql` for PROBLEMS_URL) the suffix is dropped rather than doubled.
 */
function readBaseUrl(env: Env, name: string, endpointSuffix?: string): string | undefined {
  const raw = readUrl(env, name, ['http:', 'https:']);
  if (raw === undefined) return undefined;
  const url = new URL(raw);
  if (url.search || url.hash) throw new SettingsError(name, 'a base URL takes no query string or fragment');
  let base = raw.replace(/\/+$/, '');
  if (endpointSuffix && base.endsWith(endpointSuffix)) base = base.slice(0, -endpointSuffix.length);
  return base;
}

/** A Redis key prefix: printable, no spaces (keys are read in redis-cli and SCAN patterns). */
function readKeyPrefix(env: Env, name: string, fallback: string): string {
  const raw = present(env, name);
  if (raw === undefined) return fallback;
  if (!/^[A-Za-z0-9._:{}-]{1,100}$/.test(raw)) {
    throw new SettingsError(name, `expected 1 to 100 letters, digits or . _ : - { }, got "${raw}"`);
  }
  return raw;
}

function readSecret(env: Env, name: string): string | undefined {
  const value = present(env, name);
  if (value !== undefined && /[\s,]/.test(value)) {
    throw new SettingsError(name, 'a key may not contain spaces or commas');
  }
  return value;
}

function readList(env: Env, name: string): string[] {
  const raw = present(env, name);
  if (raw === undefined) return [];
  const items = raw.split(',').map((item) => item.trim());
  if (items.some((item) => item === '' || /\s/.test(item))) {
    throw new SettingsError(name, 'expected comma-separated keys with no empty entries or spaces');
  }
  return items;
}

/** Most languages one list may name: each is a walk over the whole catalogue. */
const MAX_LISTED_LANGUAGES = 50;

/** Comma-separated language tags (BCP 47, any case), each once; undefined when unset or empty. */
function readLanguageList(env: Env, name: string): string[] | undefined {
  const raw = present(env, name);
  if (raw === undefined) return undefined;
  const tags = raw.split(',').map((item) => item.trim()).filter((item) => item !== '');
  for (const tag of tags) {
    if (!parseLanguageTag(tag)) throw new SettingsError(name, `expected comma-separated language tags such as es,fr,pt-BR, got "${tag.slice(0, 40)}"`);
  }
  const distinct = [...new Set(tags.map((tag) => parseLanguageTag(tag)!.canonical))];
  if (distinct.length > MAX_LISTED_LANGUAGES) throw new SettingsError(name, `at most ${MAX_LISTED_LANGUAGES} languages, got ${distinct.length}`);
  return distinct.length > 0 ? distinct : undefined;
}

function readOrigins(env: Env, name: string): string[] | '*' {
  const raw = present(env, name);
  if (raw === undefined || raw === '*') return '*';
  return raw.split(',').map((origin) => {
    const trimmed = origin.trim();
    let url: URL | undefined;
    try {
      url = new URL(trimmed);
    } catch {
      url = undefined;
    }
    if (!url || !['http:', 'https:'].includes(url.protocol) || url.origin !== trimmed.replace(/\/$/, '')) {
      throw new SettingsError(name, `expected "*" or comma-separated origins such as https://app.example.com, got "${trimmed}"`);
    }
    return url.origin;
  });
}

function readChoice<T extends string>(env: Env, name: string, choices: readonly T[], fallback: T): T {
  const raw = present(env, name)?.toLowerCase();
  if (raw === undefined) return fallback;
  if (!(choices as readonly string[]).includes(raw)) throw new SettingsError(name, `expected ${choices.join(' or ')}, got "${raw.slice(0, 40)}"`);
  return raw as T;
}

function readBoolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = present(env, name)?.toLowerCase();
  if (raw === undefined) return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new SettingsError(name, `expected true or false, got "${raw}"`);
}

/**
 * Every variable `readSettings` reads, learnt by reading an environment that notes each name asked
 * for: the reader is the one list of names, so a new setting is known here the day it is added.
 */
export function settingsVariables(): string[] {
  const asked = new Set<string>();
  const noting = new Proxy({} as Env, {
    get(_target, name) {
      if (typeof name === 'string') asked.add(name);
      return undefined;
    },
  });
  readSettings(noting);
  return [...asked];
}

/**
 * Prefixes of standard variables the gateway also reads whose families belong to others: Node's
 * (NODE_OPTIONS, NODE_EXTRA_CA_CERTS…) and OpenTelemetry's (OTEL_SERVICE_NAME…) are not the gateway's
 * to question.
 */
const BORROWED_FAMILIES = new Set(['NODE', 'OTEL']);

export interface UnknownVariable {
  name: string;
  /** The known variable closest in spelling. */
  nearest: string;
}

/**
 * Variables of the gateway's own families (the first word of each known name: PROBLEMS_, RATE_,
 * MAX_…) that the gateway does not read, each with the nearest known name: a misspelt limit would
 * otherwise start with no word, its operator believing it set. Names in another case count too
 * (`rate_limit_requests`). Kubernetes' service links (`REDIS_SERVICE_HOST`, `REDIS_PORT`… for a
 * Service named redis) are the platform's, not a mistake. Values are never looked at.
 */
export function unknownVariables(env: Env, known: readonly string[] = settingsVariables()): UnknownVariable[] {
  const knownNames = new Set(known);
  const families = new Set(known.filter((name) => name.includes('_')).map(familyOf));
  for (const borrowed of BORROWED_FAMILIES) families.delete(borrowed);
  const unknown: UnknownVariable[] = [];
  for (const name of Object.keys(env)) {
    if (knownNames.has(name) || !families.has(familyOf(name.toUpperCase())) || isServiceLink(env, name)) continue;
    unknown.push({ name, nearest: nearestName(name.toUpperCase(), known) });
  }
  return unknown;
}

/** The line an entry prints for an unknown variable (its value is never shown: it may be a key). */
export function unknownVariableLine({ name, nearest }: UnknownVariable): string {
  return `${name} is not a variable the gateway reads; did you mean ${nearest}?`;
}

/**
 * The known name sharing most of `name`'s words (PROBLEMS_KEY: PROBLEMS_API_KEY rather than
 * PROBLEMS_URL, fewer letters away), then closest in spelling.
 */
function nearestName(name: string, known: readonly string[]): string {
  const words = name.split('_');
  let nearest = known[0];
  let best = [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY];
  for (const candidate of known) {
    const candidateWords = new Set(candidate.split('_'));
    const score = [words.filter((word) => !candidateWords.has(word)).length, editDistance(name, candidate)];
    if (score[0] < best[0] || (score[0] === best[0] && score[1] < best[1])) [nearest, best] = [candidate, score];
  }
  return nearest;
}

function familyOf(name: string): string {
  return name.split('_', 1)[0];
}

/** A variable Kubernetes sets for a Service `<X>` (`<X>_SERVICE_HOST` is always among them). */
function isServiceLink(env: Env, name: string): boolean {
  const match = /^([A-Z0-9_]+?)_(SERVICE_HOST|SERVICE_PORT(_\w+)?|PORT(_\d+_(TCP|UDP|SCTP)(_\w+)?)?)$/.exec(name);
  return match !== null && env[`${match[1]}_SERVICE_HOST`] !== undefined;
}

/** Edits (insert, delete, replace, swap two neighbours) from `a` to `b`. */
function editDistance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j += 1) rows[0][j] = j;
  for (let i = 1; i <= a.length; i += 1) {
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      rows[i][j] = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) rows[i][j] = Math.min(rows[i][j], rows[i - 2][j - 2] + 1);
    }
  }
  return rows[a.length][b.length];
}
