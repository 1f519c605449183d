import { describe, expect, it } from 'vitest';
import { SETTINGS, SettingsError, defaultOf, readSettings } from '../../src/gateway/settings.ts';

describe('readSettings', () => {
  it('runs on defaults when nothing is set', () => {
    expect(readSettings({})).toEqual({
      port: 4000,
      problemsUrl: undefined,
      problemsApiKey: undefined,
      translationUrl: undefined,
      translationApiKey: undefined,
      translationKeyInBody: true,
      gatewayApiKeys: [],
      redisUrl: undefined,
      problemsTimeoutMs: 10_000,
      translationTimeoutMs: 15_000,
      upstreamRetries: 2,
      translationBatchSize: 200,
      translationConcurrency: 4,
      translationMaxTextLength: 5000,
      translationCacheTtlSeconds: 21_600,
      translationCacheMaxBytes: 64 * 1024 * 1024,
      translationDefaultLanguages: [],
      translationCuratedDir: undefined,
      translationCuratedStale: 'machine',
      translationCuratedRescanSeconds: 30,
      problemsCacheTtlSeconds: 10,
      problemsSchemaPollSeconds: 60,
      responseCacheTtlSeconds: 60,
      persistedQueriesTtlSeconds: 86_400,
      redisPrefix: 'problems-translation-gateway',
      redisTimeoutMs: 100,
      redisCacheMaxBytes: 32 * 1024 * 1024,
      problemsMaxResponseBytes: 10 * 1024 * 1024,
      problemsSchemaMaxTypes: 500,
      problemsSchemaMaxFields: 5000,
      problemsSchemaMaxEnumValues: 5000,
      translationMaxResponseBytes: 16 * 1024 * 1024,
      translationMaxCallsPerRequest: 100,
      upstreamBreakerFailures: 5,
      upstreamBreakerCooldownMs: 10_000,
      upstreamBreakerFailurePercent: 50,
      upstreamBreakerWindowMs: 10_000,
      translationPrewarm: [],
      translationPrewarmCallsPerSecond: 2,
      translationPrewarmRefreshSeconds: 3600,
      translationSourceLanguage: undefined,
      shutdownTimeoutMs: 10_000,
      // Unset has a meaning of its own: no bound; stand-ins in development only.
      translationMaxCharsPerCall: undefined,
      standIns: undefined,
      trustedDocuments: undefined,
      production: false,
      introspection: true,
      graphiql: true,
      corsOrigins: '*',
      rateLimitRequests: 300,
      translationRateLimitRequests: 60,
      rateLimitWindowSeconds: 60,
      trustProxy: false,
      maxDepth: 10,
      maxAliases: 15,
      maxTokens: 2000,
      maxDirectives: 50,
      maxRootFields: 20,
      maxCost: 5000,
      maxArgumentLength: 10_000,
      maxBatchOperations: 10,
      maxBodyBytes: 1024 * 1024,
      fastPathEnabled: true,
      metricsEnabled: true,
      otlpEndpoint: undefined,
    });
  });

  it('turns introspection and GraphiQL off in production unless asked for', () => {
    expect(readSettings({ NODE_ENV: 'production' })).toMatchObject({ production: true, introspection: false, graphiql: false });
    expect(readSettings({ NODE_ENV: 'production', GATEWAY_INTROSPECTION: 'true', GATEWAY_GRAPHIQL: 'on' })).toMatchObject({
      introspection: true,
      graphiql: true,
    });
  });

  it('reads CORS origins', () => {
    expect(readSettings({ CORS_ORIGINS: 'https://a.example, http://localhost:3000' }).corsOrigins).toEqual(['https://a.example', 'http://localhost:3000']);
  });

  it('reads every variable', () => {
    const settings = readSettings({
      PORT: '8080',
      PROBLEMS_URL: 'https://problems.example.com/',
      PROBLEMS_API_KEY: 'p-key',
      TRANSLATION_URL: 'http://mt.internal:5000',
      TRANSLATION_API_KEY: 't-key',
      TRANSLATION_KEY_IN_BODY: 'false',
      GATEWAY_API_KEYS: 'a, b ,c',
      REDIS_URL: 'redis://localhost:6379',
      METRICS_ENABLED: 'false',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/',
      TRANSLATION_DEFAULT_LANGUAGES: 'es-419, ES ,en',
      TRANSLATION_CURATED_DIR: '/srv/curated',
      TRANSLATION_CURATED_STALE: 'Serve',
      TRANSLATION_CURATED_RESCAN_SECONDS: '0',
    });
    expect(settings).toMatchObject({
      translationDefaultLanguages: ['es-419', 'es', 'en'],
      translationCuratedDir: '/srv/curated',
      translationCuratedStale: 'serve',
      translationCuratedRescanSeconds: 0,
      port: 8080,
      problemsUrl: 'https://problems.example.com',
      translationUrl: 'http://mt.internal:5000',
      translationKeyInBody: false,
      gatewayApiKeys: ['a', 'b', 'c'],
      metricsEnabled: false,
      otlpEndpoint: 'http://collector:4318',
    });
  });

  it('reads PROBLEMS_SCHEMA_POLL_SECONDS with decimals, 0 turning polling off', () => {
    expect(readSettings({ PROBLEMS_SCHEMA_POLL_SECONDS: '0.25' }).problemsSchemaPollSeconds).toBe(0.25);
    expect(readSettings({ PROBLEMS_SCHEMA_POLL_SECONDS: '0' }).problemsSchemaPollSeconds).toBe(0);
    expect(readSettings({ PROBLEMS_SCHEMA_POLL_SECONDS: '300' }).problemsSchemaPollSeconds).toBe(300);
  });

  it('drops a /graphql suffix from PROBLEMS_URL instead of doubling it', () => {
    expect(readSettings({ PROBLEMS_URL: 'http://host:1/graphql' }).problemsUrl).toBe('http://host:1');
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ TRANSLATION_DEFAULT_LANGUAGES: 'es,x klingon' }, 'TRANSLATION_DEFAULT_LANGUAGES'],
    [{ TRANSLATION_CURATED_STALE: 'sometimes' }, 'TRANSLATION_CURATED_STALE'],
    [{ PORT: '70000' }, 'PORT'],
    [{ PROBLEMS_URL: 'not a url' }, 'PROBLEMS_URL'],
    [{ PROBLEMS_URL: 'ftp://host' }, 'PROBLEMS_URL'],
    [{ TRANSLATION_URL: 'http://host/?x=1' }, 'TRANSLATION_URL'],
    [{ TRANSLATION_KEY_IN_BODY: 'maybe' }, 'TRANSLATION_KEY_IN_BODY'],
    [{ PROBLEMS_SCHEMA_POLL_SECONDS: '-1' }, 'PROBLEMS_SCHEMA_POLL_SECONDS'],
    [{ PROBLEMS_SCHEMA_POLL_SECONDS: '0.0001' }, 'PROBLEMS_SCHEMA_POLL_SECONDS'],
    [{ PROBLEMS_SCHEMA_POLL_SECONDS: 'often' }, 'PROBLEMS_SCHEMA_POLL_SECONDS'],
    [{ GATEWAY_API_KEYS: 'a,,b' }, 'GATEWAY_API_KEYS'],
    [{ REDIS_URL: 'http://localhost' }, 'REDIS_URL'],
    [{ TRANSLATION_BATCH_SIZE: '0' }, 'TRANSLATION_BATCH_SIZE'],
    [{ UPSTREAM_RETRIES: '-1' }, 'UPSTREAM_RETRIES'],
    [{ PROBLEMS_TIMEOUT_MS: '1.5' }, 'PROBLEMS_TIMEOUT_MS'],
    [{ TRANSLATION_TIMEOUT_MS: '2147483648' }, 'TRANSLATION_TIMEOUT_MS'],
    [{ CORS_ORIGINS: 'https://a.example/path' }, 'CORS_ORIGINS'],
    [{ MAX_DEPTH: '0' }, 'MAX_DEPTH'],
    [{ METRICS_ENABLED: 'sometimes' }, 'METRICS_ENABLED'],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'grpc://collector:4317' }, 'OTEL_EXPORTER_OTLP_ENDPOINT'],
  ])('refuses %o with one line naming %s', (env, variable) => {
    let caught: unknown;
    try {
      readSettings(env);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(SettingsError);
    expect((caught as SettingsError).variable).toBe(variable);
    expect((caught as Error).message).toMatch(new RegExp(`^${variable}: `));
    expect((caught as Error).message).not.toContain('\n');
  });

  it('never echoes a URL that may carry credentials', () => {
    expect(() => readSettings({ REDIS_URL: 'redis//:hunter2@host' })).toThrow(/^REDIS_URL: (?!.*hunter2)/);
  });
});

describe('defaultOf', () => {
  it('gives each setting the default readSettings gives it, so a lower-level function defaults as the gateway does', () => {
    const defaults = readSettings({});
    const plain = (Object.keys(SETTINGS) as (keyof typeof SETTINGS)[]).filter((name) => typeof SETTINGS[name].default !== 'function');
    expect(plain.length).toBeGreaterThan(40);
    for (const name of plain) expect([name, defaultOf(name)]).toEqual([name, defaults[name]]);
  });

  it('has none to give for a setting whose default depends on production', () => {
    expect(() => defaultOf('introspection')).toThrow('introspection: its default depends on the production setting');
  });
});
