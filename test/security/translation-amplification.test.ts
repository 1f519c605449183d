import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { listen, type RunningServer } from '../../src/shared/listen.ts';
import { startStack, type Stack } from '../helpers/start-stack.ts';

/**
 * How many translation calls one client request can cause, whatever the service answers: each case
 * is one that multiplied calls before (counts from the hardening issue in the test names), counted at
 * the translation stand-in, and in flight through a counting proxy in front of it.
 */
describe('translation calls per client request are bounded', () => {
  let stack: Stack;
  let proxy: RunningServer;
  let inFlight = 0;
  let mostInFlight = 0;
  const calls = (route: string) => stack.translation.stats.byRoute[route] ?? 0;

  /** Posts a batched request (a JSON array of operations) and returns the parsed answers. */
  const batch = async (gatewayUrl: string, operations: { query: string; variables?: Record<string, unknown> }[]) => {
    const response = await fetch(gatewayUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(operations) });
    return (await response.json()) as { data?: any; errors?: { extensions?: Record<string, unknown> }[] }[];
  };

  beforeAll(async () => {
    stack = await startStack({ settings: { problemsCacheTtlSeconds: 0 } });
    // Counts the translation calls in flight at once, whatever route.
    proxy = await listen((req: IncomingMessage, res: ServerResponse) => {
      inFlight += 1;
      mostInFlight = Math.max(mostInFlight, inFlight);
      res.on('close', () => (inFlight -= 1));
      stack.translation.listener(req, res);
    });
  });
  afterAll(async () => {
    await proxy?.close();
    await stack?.close();
  });
  beforeEach(() => {
    stack.translation.clearFaults();
    stack.translation.resetStats();
    mostInFlight = 0;
  });

  it('10 identical translateMany operations of 498 texts into an unsupported language: one refused call per 200 texts, not 4,485', async () => {
    const gateway = await stack.addGateway({ settings: { translationCacheTtlSeconds: 0, maxCost: 100_000 } });
    const texts = Array.from({ length: 498 }, (_, index) => `Sentence number ${index}.`);
    const operation = { query: /* GraphQL */ `query ($t: [String!]!) { translation { translateMany(texts: $t, to: "zz") { text } } }`, variables: { t: texts } };
    const answers = await batch(gateway.gatewayUrl, Array.from({ length: 10 }, () => operation));
    expect(answers).toHaveLength(10);
    for (const answer of answers) expect(answer.errors?.[0]?.extensions).toMatchObject({ code: 'UNSUPPORTED_LANGUAGE', argument: 'to' });
    console.info(`10 × 498 texts, unsupported language: ${calls('POST /translate')} POST /translate, ${calls('GET /languages')} GET /languages`);
    expect(calls('POST /translate')).toBeLessThanOrEqual(3);
  });

  it('2 operations of 200 texts while the service answers 503: the failure is shared, not 603 calls', async () => {
    const gateway = await stack.addGateway({ settings: { translationCacheTtlSeconds: 0, translationTimeoutMs: 3000 } });
    stack.translation.setFaults({ status: 503, routes: ['POST /translate'] });
    const texts = Array.from({ length: 200 }, (_, index) => `Line ${index} of the input.`);
    const operation = { query: /* GraphQL */ `query ($t: [String!]!) { translation { translateMany(texts: $t, to: "es") { text } } }`, variables: { t: texts } };
    const answers = await batch(gateway.gatewayUrl, [operation, operation]);
    for (const answer of answers) expect(answer.errors?.[0]?.extensions).toMatchObject({ code: 'UPSTREAM_ERROR', status: 503 });
    // One call, tried 1 + UPSTREAM_RETRIES (2) times.
    console.info(`2 × 200 texts against a 503: ${calls('POST /translate')} POST /translate`);
    expect(calls('POST /translate')).toBeLessThanOrEqual(3);
  });

  it('a failing service ends the request\'s other calls: aliases to five languages cost two failed calls at most, not five', async () => {
    const gateway = await stack.addGateway({ settings: { translationCacheTtlSeconds: 0, translationConcurrency: 1, upstreamRetries: 0 } });
    stack.translation.setFaults({ status: 500, routes: ['POST /translate'] });
    const fields = ['de', 'es', 'fr', 'it', 'pt'].map((to) => `${to}: translate(text: "Read the input.", to: "${to}") { text }`);
    const result = await gateway.query(`{ translation { ${fields.join('\n')} } }`);
    // A lone text failing with 500 while the service answered lately (the key check at start) may be
    // that text's fault (LibreTranslate's "Cannot translate text"): one more call tells, then the
    // service's failure ends the rest.
    expect(calls('POST /translate')).toBe(2);
    expect(result.errors).toHaveLength(2);
    for (const error of result.errors!) expect(error.extensions).toMatchObject({ code: 'UPSTREAM_ERROR', status: 500 });
  });

  it('16 translation roots of translate, translateMany, detect and languages: one call of each kind, not 64', async () => {
    const gateway = await stack.addGateway({ settings: { maxAliases: 100, maxRootFields: 100, translationCacheTtlSeconds: 0 } });
    // Calls of the request only: not the start-up check of the key (a detection of no text).
    stack.translation.resetStats();
    const roots = Array.from(
      { length: 16 },
      (_, index) => `t${index}: translation {
        languages { code }
        translate(text: "Read the input.", to: "fr") { text }
        translateMany(texts: ["Print the answer.", "Each test case"], to: "fr") { text }
        detect(text: "Dado un arreglo de enteros") { code }
      }`,
    );
    const result = await gateway.query(`{ ${roots.join('\n')} }`);
    expect(result.errors).toBeUndefined();
    expect(result.data.t15.detect[0].code).toBe('es');
    expect(calls('POST /translate')).toBe(1);
    expect(calls('POST /detect')).toBe(1);
    expect(calls('GET /languages')).toBe(1);
    // The language list is fetched once per TTL, not per request either.
    await gateway.query(`{ ${roots[0]} }`);
    expect(calls('GET /languages')).toBe(1);
  });

  it('detect is cached, and its calls respect TRANSLATION_CONCURRENCY (32 in flight before)', async () => {
    const gateway = await stack.addGateway({
      settings: { translationUrl: proxy.url, maxAliases: 100, translationConcurrency: 4, translationCacheTtlSeconds: 60 },
    });
    stack.translation.resetStats();
    stack.translation.setFaults({ latencyMs: 30, routes: ['POST /detect'] });
    const fields = Array.from({ length: 32 }, (_, index) => `d${index}: detect(text: "Dado un arreglo de enteros número ${index}") { code }`);
    const result = await gateway.query(`{ translation { ${fields.join('\n')} } }`);
    expect(result.errors).toBeUndefined();
    expect(calls('POST /detect')).toBe(32);
    expect(mostInFlight).toBeLessThanOrEqual(4);
    stack.translation.resetStats();
    await gateway.query(`{ translation { ${fields.join('\n')} } }`);
    expect(calls('POST /detect')).toBe(0);
  });

  it('a batch of operations shares one bound: TRANSLATION_CONCURRENCY in flight and TRANSLATION_MAX_CALLS_PER_REQUEST calls', async () => {
    const gateway = await stack.addGateway({
      settings: { translationUrl: proxy.url, translationConcurrency: 2, translationMaxCallsPerRequest: 3, translationCacheTtlSeconds: 0 },
    });
    stack.translation.setFaults({ latencyMs: 30, routes: ['POST /translate'] });
    const languages = ['de', 'es', 'fr', 'it', 'pt', 'de', 'es', 'fr', 'it', 'pt'];
    const answers = await batch(
      gateway.gatewayUrl,
      languages.map((to, index) => ({ query: `{ translation { translate(text: "Operation ${index} reads the input.", to: "${to}") { text } } }` })),
    );
    expect(calls('POST /translate')).toBe(3);
    expect(mostInFlight).toBeLessThanOrEqual(2);
    const refused = answers.filter((answer) => answer.errors?.[0]?.extensions?.code === 'OPERATION_LIMIT_EXCEEDED');
    expect(refused).toHaveLength(7);
    expect(refused[0].errors![0].extensions).toMatchObject({ service: 'translation', limit: 3 });
  });
});
