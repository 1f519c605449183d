import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../helpers/start-stack.ts';

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
    stack = await startStack({ settings: { translationBatchSize: 50, problemsCacheTtlSeconds: 0 } });
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

  it('translates a page of 20 problems (title + statement) in one call cold, and none warm', async () => {
    const cold = await stack.query(page(20, 'es'));
    expect(cold.errors).toBeUndefined();
    expect(translateCalls()).toBe(1);
    const distinct = new Set(cold.data.problems.nodes.flatMap((node: { title: string; statement: string }) => [node.title, node.statement]));
    expect(sentTexts()).toEqual([expect.arrayContaining([...distinct])]);
    expect(sentTexts()[0]).toHaveLength(distinct.size);

    stack.translation.resetStats();
    const warm = await stack.query(page(20, 'es'));
    expect(translateCalls()).toBe(0);
    expect(warm.data).toEqual(cold.data);
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
    expect(stack.translation.stats.lastRequests.map((request) => (request.body as { target: string }).target).sort()).toEqual(['fr', 'it']);
  });

  it('splits over the batch limit into the fewest calls', async () => {
    const small = await stack.addGateway({ settings: { translationBatchSize: 7, problemsCacheTtlSeconds: 0 } });
    // 10 problems × (title + statement) = 20 distinct texts; at 7 a call that is ceil(20 / 7) = 3 calls.
    const result = await small.query(page(10, 'de'));
    expect(result.errors).toBeUndefined();
    expect(translateCalls()).toBe(3);
    const sizes = stack.translation.stats.lastRequests.map((request) => (request.body as { q: string[] }).q.length).sort();
    expect(sizes).toEqual([6, 7, 7]);
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
