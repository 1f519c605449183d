import { SettingsError, readSettings, type GatewaySettings } from './settings.ts';

/** The environment variable behind each setting (README "Environment"). */
export const VARIABLE_OF_SETTING: Record<keyof GatewaySettings, string> = {
  port: 'PORT',
  problemsUrl: 'PROBLEMS_URL',
  problemsApiKey: 'PROBLEMS_API_KEY',
  translationUrl: 'TRANSLATION_URL',
  translationApiKey: 'TRANSLATION_API_KEY',
  translationKeyInBody: 'TRANSLATION_KEY_IN_BODY',
  gatewayApiKeys: 'GATEWAY_API_KEYS',
  redisUrl: 'REDIS_URL',
  redisPrefix: 'REDIS_PREFIX',
  redisTimeoutMs: 'REDIS_TIMEOUT_MS',
  redisCacheMaxBytes: 'REDIS_CACHE_MAX_BYTES',
  problemsTimeoutMs: 'PROBLEMS_TIMEOUT_MS',
  translationTimeoutMs: 'TRANSLATION_TIMEOUT_MS',
  upstreamRetries: 'UPSTREAM_RETRIES',
  upstreamBreakerFailures: 'UPSTREAM_BREAKER_FAILURES',
  upstreamBreakerCooldownMs: 'UPSTREAM_BREAKER_COOLDOWN_MS',
  upstreamBreakerFailurePercent: 'UPSTREAM_BREAKER_FAILURE_PERCENT',
  upstreamBreakerWindowMs: 'UPSTREAM_BREAKER_WINDOW_MS',
  translationBatchSize: 'TRANSLATION_BATCH_SIZE',
  translationConcurrency: 'TRANSLATION_CONCURRENCY',
  translationMaxCharsPerCall: 'TRANSLATION_MAX_CHARS_PER_CALL',
  translationMaxCallsPerRequest: 'TRANSLATION_MAX_CALLS_PER_REQUEST',
  translationMaxTextLength: 'TRANSLATION_MAX_TEXT_LENGTH',
  translationCacheTtlSeconds: 'TRANSLATION_CACHE_TTL_SECONDS',
  translationCacheMaxBytes: 'TRANSLATION_CACHE_MAX_BYTES',
  translationDefaultLanguages: 'TRANSLATION_DEFAULT_LANGUAGES',
  translationCuratedDir: 'TRANSLATION_CURATED_DIR',
  translationCuratedStale: 'TRANSLATION_CURATED_STALE',
  translationCuratedRescanSeconds: 'TRANSLATION_CURATED_RESCAN_SECONDS',
  translationPrewarm: 'TRANSLATION_PREWARM',
  translationPrewarmCallsPerSecond: 'TRANSLATION_PREWARM_CALLS_PER_SECOND',
  translationPrewarmRefreshSeconds: 'TRANSLATION_PREWARM_REFRESH_SECONDS',
  problemsCacheTtlSeconds: 'PROBLEMS_CACHE_TTL_SECONDS',
  problemsSchemaPollSeconds: 'PROBLEMS_SCHEMA_POLL_SECONDS',
  responseCacheTtlSeconds: 'RESPONSE_CACHE_TTL_SECONDS',
  persistedQueriesTtlSeconds: 'PERSISTED_QUERIES_TTL_SECONDS',
  trustedDocuments: 'TRUSTED_DOCUMENTS',
  problemsMaxResponseBytes: 'PROBLEMS_MAX_RESPONSE_BYTES',
  translationMaxResponseBytes: 'TRANSLATION_MAX_RESPONSE_BYTES',
  production: 'NODE_ENV',
  introspection: 'GATEWAY_INTROSPECTION',
  graphiql: 'GATEWAY_GRAPHIQL',
  corsOrigins: 'CORS_ORIGINS',
  rateLimitRequests: 'RATE_LIMIT_REQUESTS',
  translationRateLimitRequests: 'TRANSLATION_RATE_LIMIT_REQUESTS',
  rateLimitWindowSeconds: 'RATE_LIMIT_WINDOW_SECONDS',
  trustProxy: 'TRUST_PROXY',
  maxDepth: 'MAX_DEPTH',
  maxAliases: 'MAX_ALIASES',
  maxTokens: 'MAX_TOKENS',
  maxDirectives: 'MAX_DIRECTIVES',
  maxRootFields: 'MAX_ROOT_FIELDS',
  maxCost: 'MAX_COST',
  maxArgumentLength: 'MAX_ARGUMENT_LENGTH',
  maxBatchOperations: 'MAX_BATCH_OPERATIONS',
  maxBodyBytes: 'MAX_BODY_BYTES',
  fastPathEnabled: 'FAST_PATH_ENABLED',
  metricsEnabled: 'METRICS_ENABLED',
  otlpEndpoint: 'OTEL_EXPORTER_OTLP_ENDPOINT',
  shutdownTimeoutMs: 'SHUTDOWN_TIMEOUT_MS',
  standIns: 'STAND_INS',
};

/** A setting given in code, written as the environment would hold it. */
function asEnvironmentValue(setting: keyof GatewaySettings, value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (setting === 'production') return value ? 'production' : 'development';
  if (Array.isArray(value)) return value.join(',');
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw new SettingsError(setting, `expected a string, number, boolean or list, got ${typeof value}`);
}

/**
 * Settings given as an options object (embedding), validated exactly like the environment: each is
 * turned into the text its variable would hold and read by `readSettings`, so a bad value fails with
 * the same one-line error, naming the option and its variable. Options win over `env`, which holds
 * variables to start from (the environment, in an entry; nothing by default: library code never reads
 * the process's environment).
 */
export function settingsFromOptions(options: Partial<GatewaySettings> = {}, env: Record<string, string | undefined> = {}): GatewaySettings {
  const merged: Record<string, string | undefined> = { ...env };
  for (const [setting, value] of Object.entries(options) as [keyof GatewaySettings, unknown][]) {
    const variable = VARIABLE_OF_SETTING[setting];
    if (!variable) throw new SettingsError(setting, 'is not a gateway setting');
    const text = asEnvironmentValue(setting, value);
    if (text !== undefined) merged[variable] = text;
  }
  try {
    return readSettings(merged);
  } catch (error) {
    if (!(error instanceof SettingsError)) throw error;
    const option = (Object.keys(VARIABLE_OF_SETTING) as (keyof GatewaySettings)[]).find((key) => VARIABLE_OF_SETTING[key] === error.variable);
    if (option && option in options) {
      throw new SettingsError(option, `${error.message.slice(error.variable.length + 2)} (option ${option}, variable ${error.variable})`);
    }
    throw error;
  }
}
