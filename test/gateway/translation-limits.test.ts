import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { escapeHtmlText } from '../../src/gateway/statement/html-placeholders.ts';
import { segmentStatement } from '../../src/gateway/statement/segment-statement.ts';
import { dataset } from '../../src/upstreams/problems/data/index.ts';
import { startStack, type Stack } from '../helpers/start-stack.ts';
import { standInTranslation } from '../helpers/stand-in-translation.ts';

/** What the link sends for a page: each distinct title and statement segment, as HTML. */
const distinctTexts = (problems: readonly { title: string; statement: string }[]) => [
  ...new Set(problems.flatMap((problem) => [escapeHtmlText(problem.title), ...segmentStatement(problem.statement).segments])),
];

// A deployment as hosted setups run LibreTranslate: a few texts and about a thousand characters per
// request. Any 3 texts of these pages fit in 1,200 characters, so the least calls is ⌈texts / 3⌉.
const BATCH_LIMIT = 3;
const CHAR_LIMIT = 1200;

const page = (to: string, after?: string) => /* GraphQL */ `{
  problems(first: 20${after ? `, after: "${after}"` : ''}) {
    pageInfo { endCursor }
    nodes { id translation(to: "${to}") { title statement } }
  }
}`;

/**
 * Call counts from the translation stand-in's own counter. The reference answers come from the same
 * stand-in without limits, through the stack's own gateway: the limited gateway must give the same.
 */
describe('translation against a service with batch and character limits', () => {
  let stack: Stack;
  const translateCalls = () => stack.translation.stats.byRoute['POST /translate'] ?? 0;
  const reference: Record<string, unknown> = {};
  let secondCursor: string;

  beforeAll(async () => {
    stack = await startStack({ settings: { problemsCacheTtlSeconds: 0 } });
    // Unlimited: a page of 20 is one call cold and none warm, as before.
    const first = await stack.query(page('es'));
    expect(translateCalls()).toBe(1);
    reference.es = first.data;
    secondCursor = first.data.problems.pageInfo.endCursor;
    stack.translation.resetStats();
    await stack.query(page('es'));
    expect(translateCalls()).toBe(0);
    stack.translation.resetStats();
    reference.fr = (await stack.query(page('fr', secondCursor))).data;
    expect(translateCalls()).toBe(1);
  });
  afterAll(async () => {
    await stack?.close();
  });
  beforeEach(() => {
    stack.translation.configure({ batchLimit: BATCH_LIMIT, charLimit: CHAR_LIMIT });
    stack.translation.resetStats();
  });

  it('translates a page of 20 whole: splits the refused batch, learns the limit, and sizes the next page to fit from the start', async () => {
    const limited = await stack.addGateway({ settings: { problemsCacheTtlSeconds: 0 } });
    const cold = await limited.query(page('es'));
    expect(cold.errors).toBeUndefined();
    expect(cold.data).toEqual(reference.es);
    const texts = distinctTexts(dataset.problems.slice(0, 20)).length;
    const least = Math.ceil(texts / BATCH_LIMIT);
    const coldCalls = translateCalls();
    // The limits it publishes are read once, at the first refusal.
    expect(stack.translation.stats.byRoute['GET /frontend/settings']).toBe(1);
    expect(coldCalls).toBeGreaterThanOrEqual(least);
    expect(coldCalls).toBeLessThanOrEqual(least + 6);
    console.info(`limited stand-in, page 1 cold: ${coldCalls} calls for ${texts} texts (least ${least})`);
    // Counted: the refused calls sent again in parts, and the limit learned.
    const metric = async (name: string, labels: string) =>
      Number(new RegExp(`^${name}\\{${labels}\\} (\\d+)$`, 'm').exec(await limited.gateway.metrics.getSingleMetricAsString(name))?.[1]);
    const splitCalls = await metric('gateway_translation_splits_total', 'kind="call"');
    expect(splitCalls).toBeGreaterThan(0);
    expect(splitCalls).toBeLessThanOrEqual(coldCalls - least);
    expect(await metric('gateway_translation_limits_learned_total', 'limit="texts"')).toBe(1);

    stack.translation.resetStats();
    const second = await limited.query(page('fr', secondCursor));
    expect(second.errors).toBeUndefined();
    expect(second.data).toEqual(reference.fr);
    const secondLeast = Math.ceil(distinctTexts(dataset.problems.slice(20, 40)).length / BATCH_LIMIT);
    expect(translateCalls()).toBe(secondLeast);
    console.info(`limited stand-in, page 2 (another language): ${translateCalls()} calls (least ${secondLeast})`);

    stack.translation.resetStats();
    expect((await limited.query(page('es'))).data).toEqual(reference.es);
    expect(translateCalls()).toBe(0);
  });

  it('learns the character limit when the service does not publish it', async () => {
    stack.translation.configure({ batchLimit: undefined, charLimit: 1000, frontendSettings: false });
    try {
      const limited = await stack.addGateway({ settings: { problemsCacheTtlSeconds: 0 } });
      const cold = await limited.query(page('es'));
      expect(cold.errors).toBeUndefined();
      expect(cold.data).toEqual(reference.es);
      const chars = (problems: typeof dataset.problems) => distinctTexts(problems).reduce((sum, text) => sum + [...text].length, 0);
      const coldCalls = translateCalls();
      stack.translation.resetStats();
      expect((await limited.query(page('fr', secondCursor))).data).toEqual(reference.fr);
      const least = Math.ceil(chars(dataset.problems.slice(20, 40)) / 1000);
      console.info(`unpublished 1,000-character limit: page 1 cold ${coldCalls} calls, page 2 ${translateCalls()} (least ${least})`);
      // Learned to within 1/16 of the limit.
      expect(translateCalls()).toBeLessThanOrEqual(Math.ceil(least * 1.15) + 1);
    } finally {
      stack.translation.configure({ frontendSettings: true });
    }
  });

  it('cuts a text longer than the limit at sentence boundaries and returns it whole', async () => {
    const sentences = Array.from({ length: 40 }, (_, index) => `Print the answer for test case ${index + 1}.`);
    const long = sentences.join(' ');
    expect(long.length).toBeGreaterThan(CHAR_LIMIT);
    const query = /* GraphQL */ `query ($t: String!) { translation { translate(text: $t, to: "de", from: "en") { text } } }`;
    stack.translation.configure({ batchLimit: undefined, charLimit: undefined });
    const whole = await stack.query(query, { t: long });
    stack.translation.configure({ batchLimit: BATCH_LIMIT, charLimit: CHAR_LIMIT });
    stack.translation.resetStats();
    const limited = await stack.addGateway({ settings: { problemsCacheTtlSeconds: 0 } });
    const result = await limited.query(query, { t: long });
    expect(result.errors).toBeUndefined();
    expect(result.data.translation.translate.text).toBe(whole.data.translation.translate.text);
  });

  it('refuses only a text with one sentence over the limit, naming the limit, and translates the rest', async () => {
    const limited = await stack.addGateway({ settings: { problemsCacheTtlSeconds: 0 } });
    const result = await limited.query(
      /* GraphQL */ `query ($t: String!) { translation { bad: translate(text: $t, to: "it", from: "en") { text } good: translate(text: "Read the input.", to: "it", from: "en") { text } } }`,
      { t: 'word '.repeat(300).trim() },
    );
    expect(result.data.translation.good.text).toBe(standInTranslation('Read the input.', 'it'));
    expect(result.data.translation.bad).toBeNull();
    expect(result.errors).toHaveLength(1);
    expect(result.errors![0].extensions).toEqual({ code: 'TEXT_TOO_LONG', service: 'translation', limit: CHAR_LIMIT });
    expect(result.errors![0].message).toMatch(/1200 characters, the character limit the translation service publishes/);
    expect(result.text).not.toMatch(/exceeds text limit/);
  });

  /** A page in a language the service does not offer, on a new gateway: one error naming it, not a length. */
  async function expectUnsupportedPage(): Promise<void> {
    const limited = await stack.addGateway({ settings: { problemsCacheTtlSeconds: 0 } });
    const result = await limited.query(page('zz'));
    expect(result.errors).toHaveLength(1);
    expect(result.errors![0].extensions).toEqual({ code: 'UNSUPPORTED_LANGUAGE', service: 'translation', argument: 'to' });
    expect(result.errors![0].message).not.toMatch(/TRANSLATION_MAX_TEXT_LENGTH|character limit/);
  }

  it('names an unsupported language, not a length: from the language list, with no call', async () => {
    await expectUnsupportedPage();
    expect(translateCalls()).toBe(0);
  });

  it('names an unsupported language the list could not vouch for at the first refusal, and stops there', async () => {
    // The list fails once: the code goes to the service as typed, and its refusal is explained.
    stack.translation.setFaults({ status: 500, failFirst: 1, routes: ['GET /languages'] });
    try {
      await expectUnsupportedPage();
      expect(translateCalls()).toBe(1);
    } finally {
      stack.translation.clearFaults();
    }
  });
});
