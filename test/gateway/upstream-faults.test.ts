import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../helpers/start-stack.ts';
import { standInTranslation, titleOf, translatedTitleOf } from '../helpers/stand-in-translation.ts';

/**
 * One test per row of the fault table in README "How the link works": the translation stand-in is
 * made to misbehave on purpose; the problems data must stand, and each failing batch must give one
 * error naming the service. Caches are off so every query reaches the upstream.
 */
describe('upstream faults', () => {
  let stack: Stack;
  const PAGE = /* GraphQL */ `{ problems(first: 5) { nodes { id title translation(to: "es") { title statement } } } }`;
  const translateCalls = () => stack.translation.stats.byRoute['POST /translate'] ?? 0;

  beforeAll(async () => {
    stack = await startStack({
      settings: { translationCacheTtlSeconds: 0, problemsCacheTtlSeconds: 0, translationTimeoutMs: 2000 },
    });
  });
  afterAll(async () => {
    await stack?.close();
  });
  afterEach(() => {
    stack.translation.clearFaults();
    stack.translation.resetStats();
  });

  /** Problems data intact, every translation null, exactly one error for the one failed batch. */
  async function expectTranslationFieldsFailed(expected: Record<string, unknown>, query: Stack['query'] = stack.query) {
    const result = await query(PAGE);
    const nodes = result.data.problems.nodes;
    expect(nodes).toHaveLength(5);
    for (const node of nodes) {
      expect(node.title).toBe(titleOf(node.id));
      expect(node.translation).toBeNull();
    }
    expect(result.errors).toHaveLength(1);
    const [error] = result.errors!;
    expect(error.path).toEqual(['problems', 'nodes', 0, 'translation']);
    expect(error.extensions).toEqual({ service: 'translation', ...expected });
    expect(result.text).not.toMatch(/127\.0\.0\.1|stack|<html|Traceback|secret internals/i);
    return error;
  }

  it('translation down: translation fields null, one UPSTREAM_UNAVAILABLE error', async () => {
    const down = await stack.addGateway({ settings: { translationUrl: 'http://127.0.0.1:9', translationCacheTtlSeconds: 0, problemsCacheTtlSeconds: 0 } });
    const error = await expectTranslationFieldsFailed({ code: 'UPSTREAM_UNAVAILABLE' }, down.query);
    expect(error.message).toBe('The translation service could not be reached.');
  });

  it('translation slower than TRANSLATION_TIMEOUT_MS: one UPSTREAM_TIMEOUT error', async () => {
    stack.translation.setFaults({ hang: true, routes: ['POST /translate'] });
    const error = await expectTranslationFieldsFailed({ code: 'UPSTREAM_TIMEOUT' });
    expect(error.message).toBe('The translation service did not answer in time.');
  });

  it('translation 5xx: one UPSTREAM_ERROR with the status, not retried when not transient', async () => {
    stack.translation.setFaults({ status: 500, body: '{"error":"Traceback: secret internals"}' });
    const error = await expectTranslationFieldsFailed({ code: 'UPSTREAM_ERROR', status: 500 });
    expect(error.message).toBe('The translation service failed (HTTP 500).');
    // A 500 may be one text's (LibreTranslate's "Cannot translate text"): the call is halved once to
    // see; both halves failing too, it is the service's, and narrowing stops there.
    expect(translateCalls()).toBe(3);
  });

  it('translation 429 with a Retry-After beyond the budget: one UPSTREAM_RATE_LIMITED with retryAfter', async () => {
    stack.translation.setFaults({ status: 429, retryAfter: 120 });
    const error = await expectTranslationFieldsFailed({ code: 'UPSTREAM_RATE_LIMITED', status: 429, retryAfter: 120 });
    expect(error.message).toBe('The translation service is rate limiting the gateway; retry in 120 s.');
    // Waiting 120 s would break the 2 s budget, so the gateway did not retry.
    expect(translateCalls()).toBe(1);
  });

  it('translation answering with a body that is not JSON: one UPSTREAM_ERROR', async () => {
    stack.translation.setFaults({ badBody: 'not-json' });
    const error = await expectTranslationFieldsFailed({ code: 'UPSTREAM_ERROR', status: 200 });
    expect(error.message).toBe('The translation service answered with a body that is not JSON.');
  });

  it('translation answering JSON of the wrong shape: one UPSTREAM_ERROR', async () => {
    stack.translation.setFaults({ badBody: 'wrong-shape' });
    const error = await expectTranslationFieldsFailed({ code: 'UPSTREAM_ERROR' });
    expect(error.message).toMatch(/^The translation service returned /);
  });

  it('translation answering fewer items than texts: an error, never a shifted translation', async () => {
    stack.translation.setFaults({ badBody: 'short-array' });
    const error = await expectTranslationFieldsFailed({ code: 'UPSTREAM_ERROR' });
    const [, returned, sent] = /^The translation service returned (\d+) translations for (\d+) texts\.$/.exec(error.message) ?? [];
    expect(Number(returned)).toBe(Number(sent) - 1);
    expect(Number(sent)).toBe((stack.translation.stats.lastRequests.at(-1)?.body as { q: string[] }).q.length);
  });

  it('retries a transient failure and then answers, honouring Retry-After', async () => {
    stack.translation.setFaults({ status: 503, retryAfter: 0, failFirst: 1, routes: ['POST /translate'] });
    const result = await stack.query(PAGE);
    expect(result.errors).toBeUndefined();
    for (const node of result.data.problems.nodes) expect(node.translation.title).toBe(translatedTitleOf(node.id, 'es'));
    expect(translateCalls()).toBe(2);
  });

  it('rides out a flaky service that fails every 2nd call', async () => {
    stack.translation.setFaults({ status: 502, everyNth: 2, routes: ['POST /translate'] });
    for (let round = 0; round < 3; round += 1) {
      const result = await stack.query(PAGE);
      expect(result.errors).toBeUndefined();
    }
  });

  it('an unsupported language: an error naming the argument and the languages offered', async () => {
    const result = await stack.query(/* GraphQL */ `{ problem(id: "p1001") { title translation(to: "zz") { title } } }`);
    expect(result.data.problem.title).toBe(titleOf('p1001'));
    expect(result.data.problem.translation).toBeNull();
    expect(result.errors).toHaveLength(1);
    expect(result.errors![0].extensions).toEqual({ code: 'UNSUPPORTED_LANGUAGE', service: 'translation', argument: 'to' });
    expect(result.errors![0].message).toBe('The translation service does not offer "zz" for `to`; it offers: de, en, es, fr, it, pt.');
  });

  it('a text over the character limit: the request refused up front (400), naming the argument, its length and the limit', async () => {
    const result = await stack.query(/* GraphQL */ `query ($t: String!) { translation { translate(text: $t, to: "es") { text } } }`, { t: 'a'.repeat(5001) });
    expect(result.status).toBe(400);
    expect(result.data).toBeUndefined();
    expect(result.errors![0].extensions).toEqual({ code: 'BAD_USER_INPUT', argument: 'text', limit: 5000, actual: 5001 });
    expect(result.errors![0].message).toBe('Argument "text" is 5001 characters long; at most 5000 are allowed for translation.');
    expect(translateCalls()).toBe(0);
  });

  it('a service limit lower than the gateway knows: the upstream 400 explained, not quoted', async () => {
    stack.translation.configure({ maxTextLength: 20 });
    try {
      const result = await stack.query(/* GraphQL */ `{ translation { translate(text: "Print the answer modulo the prime number.", to: "es") { text } } }`);
      expect(result.errors![0].extensions).toEqual({ code: 'UPSTREAM_BAD_REQUEST', service: 'translation', status: 400, limit: 5000 });
      expect(result.errors![0].message).toMatch(/TRANSLATION_MAX_TEXT_LENGTH/);
      expect(result.text).not.toMatch(/over the|limit of 20/);
    } finally {
      stack.translation.configure({ maxTextLength: 5000 });
    }
  });

  it('a failing language list: the error sits on `translation.languages`, not on a hidden operation', async () => {
    stack.translation.setFaults({ status: 500, routes: ['GET /languages'] });
    // A fresh gateway: the language list, once fetched, is reused for an hour.
    const fresh = await stack.addGateway({ settings: { translationCacheTtlSeconds: 0, problemsCacheTtlSeconds: 0 } });
    const result = await fresh.query(/* GraphQL */ `{ translation { languages { code } } }`);
    expect(result.data.translation.languages).toBeNull();
    expect(result.errors).toHaveLength(1);
    expect(result.errors![0]).toMatchObject({ path: ['translation', 'languages'], extensions: { code: 'UPSTREAM_ERROR', service: 'translation', status: 500 } });
    expect(result.text).not.toContain('TranslationApi_');
  });

  it('a PROBLEMS_URL given with its /graphql endpoint is called as the base URL, never /graphql/graphql', async () => {
    const other = await stack.addGateway({ settings: { problemsUrl: `${stack.upstreamSettings.problemsUrl}/graphql/` } });
    expect((await other.query('{ problem(id: "p1001") { id } }')).data).toEqual({ problem: { id: 'p1001' } });
  });

  it('problems down: a clear error naming the problems service, and translation-only queries still answer', async () => {
    const down = await stack.addGateway({ settings: { problemsUrl: 'http://127.0.0.1:9' } });
    {
      const result = await down.query(/* GraphQL */ `{ problems(first: 2) { nodes { id } } translation { translate(text: "Print the sum.", to: "es") { text } } }`);
      expect(result.data.problems).toBeNull();
      expect(result.data.translation.translate.text).toBe(standInTranslation('Print the sum.', 'es'));
      expect(result.errors).toHaveLength(1);
      expect(result.errors![0]).toMatchObject({
        message: 'The problems service could not be reached.',
        path: ['problems'],
        extensions: { code: 'UPSTREAM_UNAVAILABLE', service: 'problems' },
      });
      const alone = await down.query(/* GraphQL */ `{ translation { languages { code } } }`);
      expect(alone.errors).toBeUndefined();
    }
  });
});
