import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { escapeHtmlText } from '../../src/gateway/statement/html-placeholders.ts';
import { segmentStatement } from '../../src/gateway/statement/segment-statement.ts';
import { dataset } from '../../src/upstreams/problems/data/index.ts';
import { startStack, type Stack } from '../helpers/start-stack.ts';

/** What the link sends for a problem: its title and its statement's prose segments, all as HTML. */
const linkTexts = (problem: { title: string; statement: string }) => [escapeHtmlText(problem.title), ...segmentStatement(problem.statement).segments];
const distinctTexts = (problems: readonly { title: string; statement: string }[]) => new Set(problems.flatMap(linkTexts));

/**
 * A batch limit with room for the first page of 20 problems, counted from their segments: each
 * statement is several texts now, so the limit is set from the data rather than guessed.
 */
const PAGE_OF_20 = distinctTexts(dataset.problems.slice(0, 20)).size;

/**
 * Call counts come from the translation stand-in's own counter: what the gateway actually sent.
 * Each test uses texts or languages no earlier test translated, since the cache outlives a test.
 */
describe('translation batching and caching', () => {
  let stack: Stack;
  const translateCalls = () => stack.translation.stats.byRoute['POST /translate'] ?? 0;
  const sentTexts = () =>
    stack.translation.stats.lastRequests.filter((request) => request.path === '/translate').map((request) => (request.body as { q: string[] }).q);

  beforeAll(async () => {
    stack = await startStack({ settings: { translationBatchSize: PAGE_OF_20, problemsCacheTtlSeconds: 0 } });
    stack.translation.configure({ maxBatchSize: PAGE_OF_20 });
  });
  afterAll(async () => {
    await stack?.close();
  });
  beforeEach(() => stack.translation.resetStats());

  const page = (first: number, to: string, after?: string) => /* GraphQL */ `{
    problems(first: ${first}${after ? `, after: "${after}"` : ''}) {
      pageInfo { endCursor }
      nodes { id title statement translation(to: "${to}") { title statement } }
    }
  }`;

  it('translates a page of 20 problems (title + statement segments) in one call cold, and none warm', async () => {
    const cold = await stack.query(page(20, 'es'));
    expect(cold.errors).toBeUndefined();
    expect(translateCalls()).toBe(1);
    const distinct = distinctTexts(cold.data.problems.nodes);
    // Equal segments ("Input", "Output:", shared sentences) go once: far fewer than every segment of every statement.
    expect(distinct.size).toBeLessThan(cold.data.problems.nodes.flatMap(linkTexts).length);
    expect(sentTexts()).toEqual([expect.arrayContaining([...distinct])]);
    expect(sentTexts()[0]).toHaveLength(distinct.size);

    stack.translation.resetStats();
    const warm = await stack.query(page(20, 'es'));
    expect(translateCalls()).toBe(0);
    expect(warm.data).toEqual(cold.data);
  });

  it.each([
    ['TRANSLATION_CACHE_TTL_SECONDS=0', { translationCacheTtlSeconds: 0 }],
    ['TRANSLATION_CACHE_MAX_BYTES=0', { translationCacheMaxBytes: 0 }],
  ])('with the translation cache off (%s), a page asked again is translated again: no translation is reused whole either', async (_, settings) => {
    const off = await stack.addGateway({ settings: { ...settings, translationBatchSize: PAGE_OF_20, problemsCacheTtlSeconds: 0, responseCacheTtlSeconds: 0 } });
    const first = await off.query(page(3, 'pt'));
    const second = await off.query(page(3, 'pt'));
    expect(second.data).toEqual(first.data);
    expect(translateCalls()).toBe(2);
  });

  it('serves a different query that needs the same texts from the cache', async () => {
    await stack.query(/* GraphQL */ `{ problem(id: "p1021") { translation(to: "it") { title } } }`);
    stack.translation.resetStats();
    const result = await stack.query(/* GraphQL */ `{ problems(first: 1, after: null, filter: { search: "" }, sort: { field: ID }) { nodes { id } } problem(id: "p1021") { title translation(to: "it") { title statement } } }`);
    expect(result.errors).toBeUndefined();
    expect(translateCalls()).toBe(0);
    const [direct] = await stack.query(/* GraphQL */ `{ translation { translateMany(texts: ["${result.data.problem.title}"], to: "it") { text } } }`).then((r) => r.data.translation.translateMany);
    expect(result.data.problem.translation.title).toBe(direct.text);
  });

  it('sends equal texts once', async () => {
    const result = await stack.query(/* GraphQL */ `{
      translation {
        translateMany(texts: ["Print the answer modulo the prime.", "Print the answer modulo the prime.", "Read the input."], to: "pt") { text }
        one: translate(text: "Read the input.", to: "pt") { text }
      }
    }`);
    expect(result.errors).toBeUndefined();
    expect(translateCalls()).toBe(1);
    expect(sentTexts()).toEqual([['Print the answer modulo the prime.', 'Read the input.']]);
    const [first, second, third] = result.data.translation.translateMany;
    expect(first.text).toBe(second.text);
    expect(result.data.translation.one.text).toBe(third.text);
  });

  it('batches per target language: aliases to two languages cost two calls', async () => {
    const result = await stack.query(/* GraphQL */ `{
      problems(first: 5, after: null, sort: { field: RATING, direction: DESC }) {
        nodes { fr: translation(to: "fr") { title } it: translation(to: "it") { title } }
      }
    }`);
    expect(result.errors).toBeUndefined();
    expect(translateCalls()).toBe(2);
    expect(stack.translation.stats.lastRequests.filter((request) => request.path === '/translate').map((request) => (request.body as { target: string }).target).sort()).toEqual(['fr', 'it']);
  });

  it('splits over the batch limit into the fewest calls', async () => {
    const problems = await stack.query(/* GraphQL */ `{ problems(first: 10) { nodes { title statement } } }`);
    // The page's distinct texts (titles and segments), and a limit that needs three calls for them.
    const texts = distinctTexts(problems.data.problems.nodes).size;
    const batchSize = Math.ceil(texts / 3);
    const small = await stack.addGateway({ settings: { translationBatchSize: batchSize, problemsCacheTtlSeconds: 0 } });
    const result = await small.query(page(10, 'de'));
    expect(result.errors).toBeUndefined();
    expect(translateCalls()).toBe(Math.ceil(texts / batchSize));
    expect(translateCalls()).toBe(3);
    // (A new gateway asks for the language list first, to map `to`.)
    const sizes = sentTexts().map((q) => q.length).sort((a, b) => a - b);
    expect(sizes).toEqual([texts - 2 * batchSize, batchSize, batchSize]);
  });

  it('puts translateMany results in the order of the texts', async () => {
    const texts = ['Each test case', 'The shortest path', 'Output', 'Given a tree'];
    const result = await stack.query(/* GraphQL */ `query ($texts: [String!]!) { translation { translateMany(texts: $texts, to: "fr", from: "en") { text } } }`, { texts });
    expect(result.errors).toBeUndefined();
    const singles = await Promise.all(
      texts.map((text) => stack.query(/* GraphQL */ `query ($t: String!) { translation { translate(text: $t, to: "fr", from: "en") { text } } }`, { t: text })),
    );
    expect(result.data.translation.translateMany.map((item: { text: string }) => item.text)).toEqual(
      singles.map((single) => single.data.translation.translate.text),
    );
  });

  it('shares one upstream call between concurrent requests for the same texts', async () => {
    const query = page(4, 'pt');
    const results = await Promise.all([stack.query(query), stack.query(query), stack.query(query)]);
    for (const result of results) expect(result.errors).toBeUndefined();
    expect(translateCalls()).toBe(1);
    expect(results[1].data).toEqual(results[0].data);
  });
});
