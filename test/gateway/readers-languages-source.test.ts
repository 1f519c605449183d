import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { decodeHtmlText, escapeHtmlText } from '../../src/gateway/statement/html-placeholders.ts';
import { segmentStatement } from '../../src/gateway/statement/segment-statement.ts';
import { dataset } from '../../src/upstreams/problems/data/index.ts';
import { createTranslator } from '../../src/upstreams/translation/translator.ts';
import { askWithHeaders as ask } from '../helpers/ask-with-headers.ts';
import { sharedStack } from '../helpers/shared-stack.ts';
import { startStack, type Stack } from '../helpers/start-stack.ts';

/**
 * The reader who wants the language the problems are written in gets the originals, marked ORIGINAL,
 * with no call once that language is known (declared by TRANSLATION_SOURCE_LANGUAGE, or detected by
 * the service the first time); and provenance says how much of a machine translation is one.
 */
const PAGE = /* GraphQL */ `{
  problems(first: 20) {
    nodes { id title statement translation { language title statement provenance { kind sourceLanguage partial translatedShare } } }
  }
}`;
const ORIGINALS = new Map(dataset.problems.map((problem) => [problem.id, problem]));

type Node = { id: string; translation: { language: string; title: string; statement: string; provenance: Record<string, unknown> } };

function expectOriginals(nodes: Node[], language: string) {
  expect(nodes).toHaveLength(20);
  for (const node of nodes) {
    expect(node.translation).toEqual({
      language,
      title: ORIGINALS.get(node.id)!.title,
      statement: ORIGINALS.get(node.id)!.statement,
      provenance: { kind: 'ORIGINAL', sourceLanguage: language, partial: false, translatedShare: 0 },
    });
  }
}

describe("readers' languages: the originals' own language", () => {
  let stack: Stack;
  // Translations only: a gateway starting checks the service's readiness with a detection of its own.
  const calls = () => stack.translation.stats.byRoute['POST /translate'] ?? 0;

  beforeAll(async () => {
    stack = await startStack({ settings: { problemsCacheTtlSeconds: 0 } });
  });
  afterAll(async () => {
    await stack?.close();
  });
  beforeEach(() => stack.translation.resetStats());

  it('serves an en-US reader the originals of a catalogue declared English (TRANSLATION_SOURCE_LANGUAGE): 200, ORIGINAL, no call', async () => {
    const declared = await stack.addGateway({ settings: { problemsCacheTtlSeconds: 0, translationSourceLanguage: 'EN' } });
    const page = await ask(declared.gatewayUrl, PAGE, { 'accept-language': 'en-US' });
    expect(page.status).toBe(200);
    expect(page.errors).toBeUndefined();
    expectOriginals(page.data.problems.nodes, 'en');
    expect(page.headers.get('content-language')).toBe('en');
    // An explicit `to:` in the source's language, regional or not, is the original too.
    const explicit = await ask(declared.gatewayUrl, /* GraphQL */ `{ problem(id: "p1001") { a: translation(to: "en") { language provenance { kind } } b: translation(to: "en-GB") { language provenance { kind } } } }`);
    expect(explicit.errors).toBeUndefined();
    expect(explicit.data.problem).toEqual({ a: { language: 'en', provenance: { kind: 'ORIGINAL' } }, b: { language: 'en', provenance: { kind: 'ORIGINAL' } } });
    expect(calls()).toBe(0);

    // A Spanish reader still gets a machine translation, one call for the page, from the declared language.
    const spanish = await ask(declared.gatewayUrl, PAGE, { 'accept-language': 'es' });
    expect(spanish.errors).toBeUndefined();
    for (const node of spanish.data.problems.nodes) {
      expect(node.translation).toMatchObject({ language: 'es', provenance: { kind: 'MACHINE', sourceLanguage: 'en', partial: false, translatedShare: 1 } });
    }
    expect(calls()).toBe(1);
    await declared.close();
  });

  it('learns the language from the first English page (one call), then serves English readers with no call', async () => {
    // No translation cache: what spares the later calls is knowing the language, not cached texts.
    const fresh = await stack.addGateway({ settings: { problemsCacheTtlSeconds: 0, translationCacheMaxBytes: 0 } });
    const first = await ask(fresh.gatewayUrl, PAGE, { 'accept-language': 'en-US,en;q=0.9' });
    expect(first.status).toBe(200);
    expect(first.errors).toBeUndefined();
    // Nothing was translated: the service found English and gave it back; never labelled MACHINE.
    expectOriginals(first.data.problems.nodes, 'en');
    expect(calls()).toBe(1);

    stack.translation.resetStats();
    const again = await ask(fresh.gatewayUrl, PAGE, { 'accept-language': 'en-US' });
    expect(again.data).toEqual(first.data);
    const explicit = await ask(fresh.gatewayUrl, /* GraphQL */ `{ problem(id: "p1003") { translation(to: "EN") { language provenance { kind } } } }`);
    expect(explicit.data.problem.translation).toEqual({ language: 'en', provenance: { kind: 'ORIGINAL' } });
    expect(calls()).toBe(0);

    // What an English reader was served is never what a Spanish reader gets.
    const spanish = await ask(fresh.gatewayUrl, PAGE, { 'accept-language': 'es' });
    for (const node of spanish.data.problems.nodes) expect(node.translation).toMatchObject({ language: 'es', provenance: { kind: 'MACHINE' } });
    expect(calls()).toBe(1);
    await fresh.close();
  });

  it('keeps an English answer and a Spanish one apart in the response cache', async () => {
    const cached = await stack.addGateway({ settings: { problemsCacheTtlSeconds: 0, responseCacheTtlSeconds: 60, translationSourceLanguage: 'en' } });
    const query = /* GraphQL */ `{ problem(id: "p1004") { translation { language provenance { kind } } } }`;
    const english = await ask(cached.gatewayUrl, query, { 'accept-language': 'en-US' });
    const spanish = await ask(cached.gatewayUrl, query, { 'accept-language': 'es' });
    const englishAgain = await ask(cached.gatewayUrl, query, { 'accept-language': 'en-US' });
    expect(english.data.problem.translation).toEqual({ language: 'en', provenance: { kind: 'ORIGINAL' } });
    expect(spanish.data.problem.translation).toEqual({ language: 'es', provenance: { kind: 'MACHINE' } });
    expect(englishAgain.data).toEqual(english.data);
    expect(calls()).toBe(1);
    await cached.close();
  });
});

describe('provenance of a translation the gateway could only partly put back', () => {
  let stack: Stack;
  const problem = ORIGINALS.get('p1020')!;
  const { segments } = segmentStatement(problem.statement);
  const translator = createTranslator();
  /** Prose characters of a segment as sent: its text, without tags. */
  const prose = (html: string) => decodeHtmlText(html.replace(/<[^>]*>/g, '')).length;

  beforeAll(async () => {
    stack = await startStack({ settings: { problemsCacheTtlSeconds: 0, translationCacheMaxBytes: 0 } });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('says `partial` with the share of characters translated, and marks what stayed English in statementHtml', async () => {
    // The service loses the placeholders of the first segment that has some, and translates the rest.
    const broken = segments.findIndex((segment) => segment.includes('data-p='));
    expect(broken).toBeGreaterThanOrEqual(0);
    const translated = segments.map((segment, index) =>
      index === broken ? translator.translate(segment.replace(/<span [^>]*><\/span>/g, ''), 'en', 'es', 'html') : translator.translate(segment, 'en', 'es', 'html'),
    );
    const title = translator.translate(escapeHtmlText(problem.title), 'en', 'es', 'html');
    stack.translation.setFaults({ status: 200, body: JSON.stringify({ translatedText: [title, ...translated] }), routes: ['POST /translate'] });
    try {
      const answer = await ask(
        stack.gatewayUrl,
        /* GraphQL */ `{ problem(id: "p1020") { translation(to: "es", from: "en") { statement statementHtml provenance { kind sourceLanguage partial translatedShare } } } }`,
      );
      expect(answer.errors).toBeUndefined();
      const { statement, statementHtml, provenance } = answer.data.problem.translation;
      const all = problem.title.length + segments.reduce((sum, segment) => sum + prose(segment), 0);
      const share = Math.round(((all - prose(segments[broken])) / all) * 1000) / 1000;
      expect(provenance).toEqual({ kind: 'MACHINE', sourceLanguage: 'en', partial: true, translatedShare: share });
      expect(share).toBeLessThan(1);
      // The segment stayed English, and the HTML says so on its element.
      const english = decodeHtmlText(segments[broken].replace(/<[^>]*>/g, '')).trim().split(' ').slice(0, 3).join(' ');
      expect(statement).toContain(english);
      expect(statementHtml).toMatch(/^<div lang="es-x-mtfrom-en">/);
      expect(statementHtml).toMatch(new RegExp(`<(p|h\\d|td|th) translate="no" lang="en">${english.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
      expect(statementHtml.match(/translate="no" lang="en"/g)).toHaveLength(1);
    } finally {
      stack.translation.clearFaults();
    }
  });

  it('gives a whole translation `partial: false` and a share of 1', async () => {
    const answer = await ask(stack.gatewayUrl, /* GraphQL */ `{ problem(id: "p1020") { translation(to: "es") { statementHtml provenance { kind partial translatedShare } } } }`);
    expect(answer.errors).toBeUndefined();
    expect(answer.data.problem.translation.provenance).toEqual({ kind: 'MACHINE', partial: false, translatedShare: 1 });
    expect(answer.data.problem.translation.statementHtml).not.toMatch(/lang="en"/);
  });
});

describe("translate without `from`: the text's own language", () => {
  let stack: Awaited<ReturnType<typeof sharedStack>>;
  const translateCalls = () => stack.translation.stats.byRoute['POST /translate'] ?? 0;
  const QUERY = (text: string, args = '') => /* GraphQL */ `{ translation { translate(text: ${JSON.stringify(text)}${args}) { text language provenance { kind sourceLanguage } } } }`;

  beforeAll(async () => {
    stack = await sharedStack('open');
  });
  afterAll(async () => stack?.close());

  it('gives an English text asked in English back marked ORIGINAL, and with no call once its language is known', async () => {
    const text = 'Sort the numbers and print the median of the first half.';
    const english = { text, language: 'en', provenance: { kind: 'ORIGINAL', sourceLanguage: 'en' } };
    const before = translateCalls();
    const first = await ask(stack.gatewayUrl, QUERY(text), { 'accept-language': 'en-US' });
    expect(first.errors).toBeUndefined();
    // The first asks the service, which finds English and gives the text back: the original, never MACHINE.
    expect(first.data.translation.translate).toEqual(english);
    expect(first.headers.get('content-language')).toBe('en');
    expect(translateCalls()).toBe(before + 1);

    const again = await ask(stack.gatewayUrl, QUERY(text), { 'accept-language': 'en-US' });
    expect(again.data.translation.translate).toEqual(english);
    expect(again.headers.get('content-language')).toBe('en');
    const explicit = await ask(stack.gatewayUrl, QUERY(text, ', to: "en-GB"'));
    expect(explicit.data.translation.translate).toEqual(english);
    const many = await stack.query(/* GraphQL */ `{ translation { translateMany(texts: [${JSON.stringify(text)}], to: "en") { text provenance { kind } } } }`);
    expect(many.data.translation.translateMany).toEqual([{ text, provenance: { kind: 'ORIGINAL' } }]);
    expect(translateCalls()).toBe(before + 1);

    // Another language is still translated.
    const spanish = await ask(stack.gatewayUrl, QUERY(text), { 'accept-language': 'es' });
    expect(spanish.data.translation.translate).toMatchObject({ language: 'es', provenance: { kind: 'MACHINE', sourceLanguage: 'en' } });
    expect(spanish.data.translation.translate.text).not.toBe(text);
    expect(translateCalls()).toBe(before + 2);
  });

  it('says ORIGINAL, in the language the service found, when the service gives a text back unchanged', async () => {
    const text = 'Dijkstra and Floyd–Warshall, compared on dense graphs.';
    stack.translation.setFaults({ status: 200, body: JSON.stringify({ translatedText: [text], detectedLanguage: [{ language: 'en', confidence: 90 }] }), routes: ['POST /translate'] });
    try {
      const answer = await ask(stack.gatewayUrl, QUERY(text), { 'accept-language': 'es' });
      expect(answer.errors).toBeUndefined();
      expect(answer.data.translation.translate).toEqual({ text, language: 'en', provenance: { kind: 'ORIGINAL', sourceLanguage: 'en' } });
      // The answer is in English, and its headers say so.
      expect(answer.headers.get('content-language')).toBe('en');
      expect(answer.headers.get('vary')).toMatch(/Accept-Language/);
    } finally {
      stack.translation.clearFaults();
    }
  });
});
