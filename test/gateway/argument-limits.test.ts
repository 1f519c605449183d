import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { recordUpstreamRequests } from '../helpers/record-upstream-requests.ts';
import { startStack, type GraphQLResponse, type Stack } from '../helpers/start-stack.ts';

/**
 * Refusals of the same kind speak alike: an argument the request itself shows to be out of bounds
 * (a page size, a text's length, any argument's length) is refused whole, with 400 BAD_USER_INPUT
 * naming the argument, the bound (`limit`) and the value (`actual`), before the cost estimate and
 * before any upstream call. Empty texts are answered by the gateway, alike for translate and detect.
 */
describe('argument limits', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack({ settings: { translationCacheTtlSeconds: 0, problemsCacheTtlSeconds: 0 } });
  });
  afterAll(async () => {
    await stack?.close();
  });
  beforeEach(() => {
    stack.translation.resetStats();
  });

  async function send(query: string, variables?: Record<string, unknown>, via: Stack['query'] = stack.query) {
    const recording = recordUpstreamRequests(stack);
    try {
      return { ...(await via(query, variables)), upstream: recording.seen };
    } finally {
      recording.stop();
    }
  }

  /** Refused before execution: 400, no data, one BAD_USER_INPUT, and neither service called. */
  function expectRefused(result: GraphQLResponse & { upstream: unknown }, extensions: Record<string, unknown>, message: string | RegExp): void {
    expect(result.status).toBe(400);
    expect(result.data).toBeUndefined();
    expect(result.errors).toHaveLength(1);
    expect(result.errors![0].extensions).toEqual({ code: 'BAD_USER_INPUT', ...extensions });
    expect(result.errors![0].message).toMatch(message);
    expect(result.upstream).toEqual({ problems: [], translation: [] });
  }

  describe('page sizes', () => {
    it('MUST refuse `first: 101` and `first: 1000` alike, as a range naming the argument, even where the cost would be over the limit', async () => {
      for (const first of [101, 1000, -1]) {
        const plain = await send(`{ problems(first: ${first}) { nodes { id } } }`);
        expectRefused(plain, { argument: 'first', limit: 100, actual: first }, `Argument "first" of Query.problems must be between 0 and 100 (the largest page the problems service returns); got ${first}.`);
        // With the link, `first: 1000` was refused as "estimated cost 6001"; the range comes first.
        const costly = await send(`query ($n: Int) { problems(first: $n) { nodes { translation(to: "es") { title } } } }`, { n: first });
        expectRefused(costly, { argument: 'first', limit: 100, actual: first }, /^Argument "first" of Query\.problems must be between 0 and 100/);
      }
      const nested = await send('{ contests(first: 500) { nodes { id } } }');
      expectRefused(nested, { argument: 'first', limit: 100, actual: 500 }, /^Argument "first" of Query\.contests /);
    });

    it('MUST serve the ends of the range, 0 and 100', async () => {
      const result = await stack.query('{ none: problems(first: 0) { nodes { id } } all: problems(first: 100) { nodes { id } } }');
      expect(result.errors).toBeUndefined();
      expect(result.data.none.nodes).toEqual([]);
      expect(result.data.all.nodes.length).toBeGreaterThan(0);
    });
  });

  describe('text lengths', () => {
    const translate = /* GraphQL */ `query ($t: String!) { translation { translate(text: $t, to: "es") { text } } }`;

    it('MUST refuse a 7,200-character and a 20,000-character text alike: 400, naming the argument, its length and the limit', async () => {
      for (const length of [7_200, 20_000]) {
        const result = await send(translate, { t: 'a'.repeat(length) });
        expectRefused(result, { argument: 'text', limit: 5000, actual: length }, `Argument "text" is ${length} characters long; at most 5000 are allowed for translation.`);
      }
    });

    it('MUST refuse alike for translateMany (naming the item), detect and the link\'s own arguments', async () => {
      const many = await send(`query ($t: [String!]!) { translation { translateMany(texts: $t, to: "es") { text } } }`, { t: ['short', 'b'.repeat(5001)] });
      expectRefused(many, { argument: 'texts', limit: 5000, actual: 5001 }, 'Argument "texts[1]" is 5001 characters long; at most 5000 are allowed for translation.');
      const detect = await send(`query ($t: String!) { translation { detect(text: $t) { code } } }`, { t: 'c'.repeat(7_200) });
      expectRefused(detect, { argument: 'text', limit: 5000, actual: 7200 }, 'Argument "text" is 7200 characters long; at most 5000 are allowed for translation.');
      // Code points are counted, as the service counts them: 5,000 emoji are within the limit.
      const emoji = await stack.query(`query ($t: String!) { translation { detect(text: $t) { code } } }`, { t: '😀'.repeat(5000) });
      expect(emoji.status).toBe(200);
      expect(emoji.errors).toBeUndefined();
    });

    it('MUST refuse an argument over MAX_ARGUMENT_LENGTH in the same voice, whichever limit is the lower', async () => {
      const wide = await stack.addGateway({ settings: { translationMaxTextLength: 20_000, translationCacheTtlSeconds: 0 } });
      const text = await send(translate, { t: 'a'.repeat(15_000) }, wide.query);
      expectRefused(text, { argument: 'text', limit: 10_000, actual: 15_000 }, 'Argument "text" is 15000 characters long; at most 10000 are allowed.');
      const id = await send(`query ($id: ID!) { problem(id: $id) { id } }`, { id: 'p'.repeat(20_000) });
      expectRefused(id, { argument: 'id', limit: 10_000, actual: 20_000 }, 'Argument "id" is 20000 characters long; at most 10000 are allowed.');
    });

    it('MUST translate a text of exactly the limit', async () => {
      const result = await stack.query(translate, { t: 'Print the sum. '.repeat(400).slice(0, 5000) });
      expect(result.errors).toBeUndefined();
      expect(stack.translation.stats.byRoute['POST /translate']).toBe(1);
    });
  });

  describe('empty texts', () => {
    it('MUST answer translate("") with "" and detect("") with no candidates, alike: no error and no call', async () => {
      const result = await send(/* GraphQL */ `{
        translation {
          empty: translate(text: "", to: "ES") { text detectedLanguage { code } }
          blank: translate(text: "  \\n", to: "es", from: "en") { text }
          many: translateMany(texts: ["", " "], to: "fr") { text }
          detect(text: "") { code confidence }
          detectBlank: detect(text: " \\t ") { code }
        }
      }`);
      expect(result.status).toBe(200);
      expect(result.errors).toBeUndefined();
      expect(result.data.translation).toEqual({
        empty: { text: '', detectedLanguage: null },
        blank: { text: '  \n' },
        many: [{ text: '' }, { text: ' ' }],
        detect: [],
        detectBlank: [],
      });
      expect(result.upstream.translation).toEqual([]);
    });

    it('MUST translate the other texts of a translateMany around its blank ones, in order', async () => {
      const result = await stack.query('{ translation { translateMany(texts: ["", "Print the sum.", " "], to: "es") { text } } }');
      expect(result.errors).toBeUndefined();
      expect(result.data.translation.translateMany).toEqual([{ text: '' }, { text: 'Imprime la suma.' }, { text: ' ' }]);
      expect(stack.translation.stats.lastRequests.map((request) => (request.body as { q?: unknown })?.q).filter(Boolean)).toEqual([['Print the sum.']]);
    });
  });
});
