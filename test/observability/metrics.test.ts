import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryTranslationCache } from '../../src/gateway/translation/translation-cache.ts';
import { startStack, type Stack } from '../helpers/start-stack.ts';
import { CROSS_SOURCE, baseOf } from './helpers.ts';

/** The value of one series in Prometheus text, e.g. `gateway_requests_total{operation="X",outcome="ok"}`; undefined when absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((each) => each.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('Prometheus metrics on GET /metrics', () => {
  let stack: Stack;
  const metricsOf = async (gatewayUrl: string) => {
    const response = await fetch(`${baseOf(gatewayUrl)}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    return response.text();
  };

  beforeAll(async () => {
    stack = await startStack({ settings: { problemsCacheTtlSeconds: 0 } });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('counts a cross-source request by operation and outcome, and its upstream calls by service and status', async () => {
    const result = await stack.query(CROSS_SOURCE);
    expect(result.errors).toBeUndefined();
    const text = await metricsOf(stack.gatewayUrl);
    expect(sample(text, 'gateway_requests_total{operation="ProblemsInSpanish",outcome="ok"}')).toBe(1);
    expect(sample(text, 'gateway_request_duration_seconds_count{operation="ProblemsInSpanish",outcome="ok"}')).toBe(1);
    expect(sample(text, 'gateway_upstream_requests_total{service="problems",status="200"}')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'gateway_upstream_requests_total{service="translation",status="200"}')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'gateway_upstream_request_duration_seconds_count{service="problems"}')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'gateway_upstream_request_duration_seconds_count{service="translation"}')).toBeGreaterThanOrEqual(1);
    // One POST /translate carried every text of the page.
    const calls = stack.translation.stats.byRoute['POST /translate'];
    expect(sample(text, 'gateway_translation_batch_size_count')).toBe(calls);
    expect(sample(text, 'gateway_translation_batch_size_sum')).toBe(stack.translation.stats.translatedTexts);
    expect(sample(text, 'gateway_translation_cache_misses_total')).toBe(stack.translation.stats.translatedTexts);
    expect(sample(text, 'gateway_translation_cache_hits_total')).toBe(0);
  });

  it('counts translation cache hits when another process translated the page, and translations reused whole when this one did', async () => {
    // Two replicas sharing one translation cache, as over Redis; no answer cache in front.
    const translationCache = createMemoryTranslationCache();
    const settings = { problemsCacheTtlSeconds: 0, responseCacheTtlSeconds: 0 };
    const first = await stack.addGateway({ settings, translationCache });
    const second = await stack.addGateway({ settings, translationCache });
    const textsBefore = stack.translation.stats.translatedTexts;
    expect((await first.query(CROSS_SOURCE)).errors).toBeUndefined();
    const translated = stack.translation.stats.translatedTexts - textsBefore;
    expect(translated).toBeGreaterThan(0);
    const calls = stack.translation.stats.byRoute['POST /translate'];
    // The other process: every text from the shared cache, no call.
    expect((await second.query(CROSS_SOURCE)).errors).toBeUndefined();
    let text = await metricsOf(second.gatewayUrl);
    expect(sample(text, 'gateway_translation_cache_hits_total')).toBe(translated);
    expect(sample(text, 'gateway_translation_cache_misses_total')).toBe(0);
    expect(sample(text, 'gateway_translations_reused_total')).toBe(0);
    // Asked again there: each problem's translation reused whole, no text looked up.
    expect((await second.query(CROSS_SOURCE)).errors).toBeUndefined();
    text = await metricsOf(second.gatewayUrl);
    expect(sample(text, 'gateway_translations_reused_total')).toBe(2);
    expect(sample(text, 'gateway_translation_cache_hits_total')).toBe(translated);
    expect(sample(text, 'gateway_requests_total{operation="ProblemsInSpanish",outcome="ok"}')).toBe(2);
    expect(stack.translation.stats.byRoute['POST /translate']).toBe(calls);
  });

  it('counts an upstream failure by its status and the request as an error', async () => {
    const other = await stack.addGateway({ settings: { upstreamRetries: 0, translationCacheTtlSeconds: 0 } });
    stack.translation.setFaults({ status: 503, routes: ['POST /translate'] });
    try {
      const result = await other.query(CROSS_SOURCE);
      expect(result.errors?.[0].extensions?.code).toBe('UPSTREAM_ERROR');
    } finally {
      stack.translation.clearFaults();
    }
    const text = await metricsOf(other.gatewayUrl);
    expect(sample(text, 'gateway_upstream_requests_total{service="translation",status="503"}')).toBe(1);
    expect(sample(text, 'gateway_requests_total{operation="ProblemsInSpanish",outcome="error"}')).toBe(1);
  });

  it('counts a call that got no answer as "timeout" or "network"', async () => {
    const other = await stack.addGateway({ settings: { upstreamRetries: 0, translationCacheTtlSeconds: 0, translationTimeoutMs: 300 } });
    const problemsDown = await stack.addGateway({ settings: { upstreamRetries: 0, problemsUrl: 'http://127.0.0.1:9' } });
    stack.translation.setFaults({ hang: true, routes: ['POST /translate'] });
    try {
      expect((await other.query(CROSS_SOURCE)).errors?.[0].extensions?.code).toBe('UPSTREAM_TIMEOUT');
      expect((await problemsDown.query('{ problems(first: 1) { totalCount } }')).errors?.[0].extensions?.code).toBe('UPSTREAM_UNAVAILABLE');
    } finally {
      stack.translation.clearFaults();
    }
    expect(sample(await metricsOf(other.gatewayUrl), 'gateway_upstream_requests_total{service="translation",status="timeout"}')).toBe(1);
    expect(sample(await metricsOf(problemsDown.gatewayUrl), 'gateway_upstream_requests_total{service="problems",status="network"}')).toBe(1);
  });

  it('counts rate-limit rejections by budget, and the requests as rejected', async () => {
    const limited = await stack.addGateway({ settings: { rateLimitRequests: 1, translationRateLimitRequests: 1_000_000 } });
    expect((await limited.query('query One { __typename }')).status).toBe(200);
    expect((await limited.query('query Two { __typename }')).status).toBe(429);
    const translationLimited = await stack.addGateway({ settings: { translationRateLimitRequests: 1 } });
    expect((await translationLimited.query(CROSS_SOURCE)).errors).toBeUndefined();
    expect((await translationLimited.query(CROSS_SOURCE)).errors?.[0].extensions?.code).toBe('RATE_LIMITED');

    const text = await metricsOf(limited.gatewayUrl);
    expect(sample(text, 'gateway_rate_limit_rejections_total{budget="requests"}')).toBe(1);
    expect(sample(text, 'gateway_rate_limit_rejections_total{budget="translation"}')).toBe(0);
    // Refused before it was parsed: its name is not known.
    expect(sample(text, 'gateway_requests_total{operation="anonymous",outcome="rejected"}')).toBe(1);
    const translationText = await metricsOf(translationLimited.gatewayUrl);
    expect(sample(translationText, 'gateway_rate_limit_rejections_total{budget="translation"}')).toBe(1);
    expect(sample(translationText, 'gateway_requests_total{operation="ProblemsInSpanish",outcome="rejected"}')).toBe(1);
  });

  it('keeps each gateway in its own registry', async () => {
    const first = await stack.addGateway();
    const second = await stack.addGateway();
    await first.query('query OnlyOnFirst { __typename }');
    expect(sample(await metricsOf(first.gatewayUrl), 'gateway_requests_total{operation="OnlyOnFirst",outcome="ok"}')).toBe(1);
    expect(await metricsOf(second.gatewayUrl)).not.toContain('OnlyOnFirst');
  });

  it('bounds operation names: past 100 distinct names, the rest count as "other"', async () => {
    const other = await stack.addGateway();
    for (let index = 0; index < 105; index += 1) await other.query(`query Name${index} { __typename }`);
    await other.query('{ __typename }');
    const text = await metricsOf(other.gatewayUrl);
    const operations = new Set([...text.matchAll(/^gateway_requests_total\{operation="([^"]+)"/gm)].map((match) => match[1]));
    expect(operations.size).toBe(102);
    expect(sample(text, 'gateway_requests_total{operation="Name99",outcome="ok"}')).toBe(1);
    expect(sample(text, 'gateway_requests_total{operation="other",outcome="ok"}')).toBe(5);
    expect(sample(text, 'gateway_requests_total{operation="anonymous",outcome="ok"}')).toBe(1);
  });

  it('counts a refused request as rejected, under a name it cannot mint (junk names must not use up the label budget)', async () => {
    const other = await stack.addGateway();
    expect((await other.query('query Broken { noSuchField }')).status).toBe(400);
    expect(sample(await metricsOf(other.gatewayUrl), 'gateway_requests_total{operation="other",outcome="rejected"}')).toBe(1);
    // A name that ran once keeps its label when later refused.
    expect((await other.query('query Known { __typename }')).status).toBe(200);
    expect((await other.query('query Known { noSuchField }')).status).toBe(400);
    expect(sample(await metricsOf(other.gatewayUrl), 'gateway_requests_total{operation="Known",outcome="rejected"}')).toBe(1);
  });

  it('counts every request in gateway_requests_total exactly as its duration histogram counts it, scrape after scrape', async () => {
    const counted = (text: string) =>
      text
        .split('\n')
        .filter((line) => line.startsWith('gateway_requests_total{'))
        .map((line) => {
          const [series, value] = line.split(' ');
          return { labels: series.slice('gateway_requests_total'.length), value: Number(value) };
        });
    const own = await stack.addGateway();
    for (const round of [1, 2]) {
      await Promise.all([
        own.query('query Counted { __typename }'),
        own.query('query Counted { __typename }'),
        own.query('{ problems(first: 1) { totalCount } }'),
        own.query('{ nope }'),
      ]);
      const text = await metricsOf(own.gatewayUrl);
      const series = counted(text);
      expect(series.map(({ labels }) => labels).sort()).toEqual(['{operation="Counted",outcome="ok"}', '{operation="anonymous",outcome="ok"}', '{operation="anonymous",outcome="rejected"}']);
      for (const { labels, value } of series) expect(value).toBe(sample(text, `gateway_request_duration_seconds_count${labels}`));
      expect(sample(text, 'gateway_requests_total{operation="Counted",outcome="ok"}')).toBe(2 * round);
    }
  });

  it('serves no /metrics when METRICS_ENABLED is false', async () => {
    const other = await stack.addGateway({ settings: { metricsEnabled: false } });
    expect((await fetch(`${baseOf(other.gatewayUrl)}/metrics`)).status).toBe(404);
    expect(await other.gateway.metrics.metrics()).toContain('gateway_requests_total');
  });
});
