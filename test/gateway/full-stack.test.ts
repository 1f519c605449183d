import { buildClientSchema, getIntrospectionQuery, lexicographicSortSchema, printSchema } from 'graphql';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCHEMA_FILE } from '../../src/cli/write-schema.ts';
import { decodeHtmlText, escapeHtmlText } from '../../src/gateway/statement/html-placeholders.ts';
import { segmentStatement } from '../../src/gateway/statement/segment-statement.ts';
import { recordUpstreamRequests } from '../helpers/record-upstream-requests.ts';
import type { GatewaySettings } from '../../src/gateway/settings.ts';
import { PROBLEMS_KEY, TRANSLATION_KEY, startStack, type Stack } from '../helpers/start-stack.ts';
import { protectedSpans } from './statement-spans.ts';
import { standInTranslation, titleOf } from '../helpers/stand-in-translation.ts';

/** Asks the translation stand-in directly, to compare with what the gateway returns. */
async function translateDirectly(stack: Stack, q: string[], target: string, format: 'text' | 'html' = 'text'): Promise<string[]> {
  const response = await fetch(`${stack.upstreamSettings.translationUrl}/translate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${TRANSLATION_KEY}` },
    body: JSON.stringify({ q, source: 'auto', target, format }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { translatedText: string[] }).translatedText;
}

describe('the gateway over both stand-ins, over real HTTP', () => {
  let stack: Stack;
  beforeAll(async () => {
    // Caches off: these tests change upstream keys and URLs between identical queries and must see
    // every call go upstream (caching has its own tests).
    stack = await startStack({ settings: { translationCacheTtlSeconds: 0, problemsCacheTtlSeconds: 0 } });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('lists problems with their title and statement in Spanish, in one query', async () => {
    const result = await stack.query(/* GraphQL */ `
      {
        problems(first: 3, sort: { field: ID }) {
          totalCount
          nodes { id title statement translation(to: "es") { language title statement } }
        }
      }
    `);
    expect(result.errors).toBeUndefined();
    expect(result.data.problems.totalCount).toBeGreaterThanOrEqual(150);
    const nodes = result.data.problems.nodes;
    expect(nodes).toHaveLength(3);
    for (const node of nodes) {
      // What the link sends: the title and the statement's prose segments, as HTML.
      const { segments, reassemble } = segmentStatement(node.statement);
      const [title, ...translated] = await translateDirectly(stack, [escapeHtmlText(node.title), ...segments], 'es', 'html');
      expect(node.translation).toEqual({ language: 'es', title: decodeHtmlText(title), statement: reassemble(translated) });
      expect(node.translation.title).not.toBe(node.title);
      expect(node.translation.statement).not.toBe(node.statement);
      expect(protectedSpans(node.translation.statement)).toEqual(protectedSpans(node.statement));
    }
  });

  it('fetches title and statement for the link even when the client asks only for the translation', async () => {
    const result = await stack.query(/* GraphQL */ `{ problem(id: "p1001") { translation(to: "fr") { title } } }`);
    expect(result.errors).toBeUndefined();
    const direct = await stack.query(/* GraphQL */ `{ problem(id: "p1001") { title } }`);
    const [expected] = await translateDirectly(stack, [direct.data.problem.title], 'fr');
    expect(result.data.problem.translation.title).toBe(expected);
  });

  it('answers the translation namespace: languages, translate, translateMany and detect', async () => {
    const result = await stack.query(/* GraphQL */ `
      {
        translation {
          languages { code name targets }
          translate(text: "Find the shortest path.", to: "de") { text detectedLanguage { code confidence } }
          translateMany(texts: ["Print the answer.", "Each test case"], to: "it", from: "en") { text }
          html: translate(text: "<p class=\\"note\\">Print the answer.</p>", to: "es", format: HTML) { text }
          detect(text: "Dado un arreglo de enteros") { code confidence }
        }
      }
    `);
    expect(result.errors).toBeUndefined();
    const { languages, translate, translateMany, html, detect } = result.data.translation;
    expect(languages.map((language: { code: string }) => language.code)).toEqual(expect.arrayContaining(['en', 'es', 'fr', 'de', 'it', 'pt']));
    expect(languages.find((language: { code: string }) => language.code === 'en').targets).toContain('es');
    expect(translate.text).toBe((await translateDirectly(stack, ['Find the shortest path.'], 'de'))[0]);
    expect(translate.detectedLanguage.code).toBe('en');
    expect(translateMany.map((item: { text: string }) => item.text)).toEqual(await translateDirectly(stack, ['Print the answer.', 'Each test case'], 'it'));
    expect(html.text).toMatch(/^<p class="note">.+<\/p>$/);
    expect(html.text).not.toBe('<p class="note">Print the answer.</p>');
    expect(detect[0].code).toBe('es');
  });

  it("keeps the problems service's own languages and Language apart from translation.languages", async () => {
    const result = await stack.query(/* GraphQL */ `
      { languages { id name } translation { languages { code } } }
    `);
    expect(result.errors).toBeUndefined();
    expect(result.data.languages.length).toBeGreaterThanOrEqual(10);
    expect(result.data.languages[0]).toHaveProperty('id');
    expect(result.data.translation.languages[0]).toHaveProperty('code');
  });

  it('refuses a malformed language code before calling either service', async () => {
    stack.translation.resetStats();
    stack.problems.resetStats();
    const result = await stack.query(/* GraphQL */ `{ problem(id: "p1001") { title translation(to: "Spanish please") { title } } }`);
    expect(result.status).toBe(400);
    expect(result.data).toBeUndefined();
    expect(result.errors?.[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT', argument: 'to' } });
    expect(stack.translation.stats.requests + stack.problems.stats.requests).toBe(0);
  });

  describe('when an upstream refuses the gateway key', () => {
    /** Runs `run` against another gateway over the same stand-ins, with `settings` changed. */
    const withSettings = async (settings: Partial<GatewaySettings>, run: (query: Stack['query']) => Promise<void>) => {
      const other = await stack.addGateway({ settings: { translationCacheTtlSeconds: 0, problemsCacheTtlSeconds: 0, ...settings } });
      await run(other.query);
    };
    const crossSource = /* GraphQL */ `{ problem(id: "p1002") { title translation(to: "es") { title } } translation { translate(text: "Print the sum.", to: "es") { text } } }`;

    it('a wrong translation key costs the translation fields only, with an error naming the service', async () => {
      await withSettings({ translationApiKey: 'wrong-key' }, async (query) => {
        const result = await query(crossSource);
        expect(result.data.problem.title).toBe(titleOf('p1002'));
        expect(result.data.problem.translation).toBeNull();
        expect(result.errors?.length).toBeGreaterThanOrEqual(1);
        for (const error of result.errors!) {
          expect(error.extensions).toMatchObject({ code: 'UPSTREAM_AUTH_REFUSED', service: 'translation', status: 403 });
          expect(error.message).toBe("The translation service refused the gateway's API key for it (HTTP 403).");
        }
        expect(result.text).not.toContain('wrong-key');
      });
    });

    it('a missing problems key yields an error naming the problems service, and translation-only fields still answer', async () => {
      await withSettings({ problemsApiKey: undefined }, async (query) => {
        const result = await query(crossSource);
        expect(result.data?.problem ?? null).toBeNull();
        expect(result.data.translation.translate.text).toBe(standInTranslation('Print the sum.', 'es'));
        expect(result.errors?.[0]).toMatchObject({
          path: ['problem'],
          extensions: { code: 'UPSTREAM_AUTH_REFUSED', service: 'problems', status: 401 },
        });
        expect(result.text).not.toContain(PROBLEMS_KEY);
      });
    });

    it('an unreachable translation service is reported as unavailable, without its address', async () => {
      await withSettings({ translationUrl: 'http://127.0.0.1:9' }, async (query) => {
        const result = await query(crossSource);
        expect(result.data.problem.title).toBe(titleOf('p1002'));
        expect(result.errors?.[0].extensions).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', service: 'translation' });
        expect(result.text).not.toContain('127.0.0.1:9');
      });
    });
  });

  it('sends the translation key as a Bearer header and, for LibreTranslate, as api_key (unless switched off)', async () => {
    const ask = () => stack.query(/* GraphQL */ `{ translation { translate(text: "Print the sum.", to: "es") { text } } }`);
    const lastBody = () => stack.translation.stats.lastRequests.at(-1)?.body as Record<string, unknown>;
    expect((await ask()).errors).toBeUndefined();
    expect(lastBody()).toHaveProperty('api_key');
    const headerOnly = await stack.addGateway({ settings: { translationKeyInBody: false, translationCacheTtlSeconds: 0 } });
    // Still accepted: the Bearer header alone carries the key.
    expect((await headerOnly.query(/* GraphQL */ `{ translation { translate(text: "Print the sum.", to: "es") { text } } }`)).errors).toBeUndefined();
    expect(lastBody()).not.toHaveProperty('api_key');
  });

  it('never forwards the client Authorization header upstream: each service gets the gateway\'s own key', async () => {
    const recorder = recordUpstreamRequests(stack);
    try {
      const result = await stack.query(/* GraphQL */ `{ problem(id: "p1001") { id translation(to: "pt") { title } } }`, undefined, {
        authorization: 'Bearer client-key',
      });
      expect(result.errors).toBeUndefined();
      expect(recorder.seen.problems.map((request) => request.headers.authorization)).toEqual([`Bearer ${PROBLEMS_KEY}`]);
      expect(recorder.seen.translation.length).toBeGreaterThan(0);
      for (const request of recorder.seen.translation) expect(request.headers.authorization).toBe(`Bearer ${TRANSLATION_KEY}`);
    } finally {
      recorder.stop();
    }
  });

  it('serves over HTTP the unified schema shipped as schema.graphql (sorted SDL)', async () => {
    const introspection = await stack.query(getIntrospectionQuery());
    expect(introspection.errors).toBeUndefined();
    const served = printSchema(lexicographicSortSchema(buildClientSchema(introspection.data)));
    expect(served).toBe(printSchema(lexicographicSortSchema(stack.gateway.schema)));
    // The shipped file is the record of the public graph: any change to it shows in review.
    expect(`${served}\n`).toBe(await readFile(SCHEMA_FILE, 'utf8'));
    // Mesh's internal HTTP directives stay inside the translation source.
    expect(served).not.toMatch(/@httpOperation|@transport|TranslationApi_/);
  });
});
