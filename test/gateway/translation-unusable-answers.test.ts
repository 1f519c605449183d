import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../helpers/start-stack.ts';

/**
 * A translation service that answers 200 with translations that are no translation: empty or blank
 * strings for non-empty texts. Each such answer is a failed call: nothing of it is cached, served
 * or shared, and once the service answers properly the same texts are translated.
 */
const KEYS = ['unusable-answers-key-a', 'unusable-answers-key-b'];
const as = (key: string) => ({ authorization: `Bearer ${key}` });

describe('unusable translations', () => {
  let stack: Stack;
  const translateCalls = () => stack.translation.stats.byRoute['POST /translate'] ?? 0;
  const unusable = async () =>
    Number(/^gateway_translation_unusable_answers_total (\d+)$/m.exec(await stack.gateway.metrics.metrics())?.[1] ?? 0);

  beforeAll(async () => {
    stack = await startStack({ settings: { gatewayApiKeys: KEYS, responseCacheTtlSeconds: 60 } });
  });
  afterAll(async () => {
    await stack?.close();
  });
  beforeEach(() => {
    stack.translation.clearFaults();
    stack.translation.resetStats();
  });

  const twoTexts = (first: string, second: string) =>
    /* GraphQL */ `{ translation { a: translate(text: "${first}", to: "es", from: "en") { text } b: translate(text: "${second}", to: "es", from: "en") { text } } }`;

  it.each([
    ['empty strings', { status: 200, body: '{"translatedText":["",""]}' }, 'Read the graph.', 'Print the count.'],
    ['blank strings', { status: 200, body: '{"translatedText":["  ","\\n"]}' }, 'Count the edges.', 'Add the numbers.'],
    ['one empty string', { status: 200, body: '{"translatedText":["","x"]}' }, 'Join the sets.', 'Split the string.'],
    ['numbers where texts belong', { status: 200, body: '{"translatedText":[1,2]}' }, 'Sort the list.', 'Find the path.'],
    ['an object where a text belongs', { status: 200, body: '{"translatedText":{"a":1}}' }, 'Walk the tree.', 'Mark the node.'],
  ] as const)('treats %s for non-empty texts as a failed call: not served, not cached, not shared', async (_kind, faults, first, second) => {
    const query = twoTexts(first, second);
    const before = await unusable();
    stack.translation.setFaults({ ...faults, routes: ['POST /translate'] });
    const bad = await stack.query(query, undefined, as(KEYS[0]));
    expect(translateCalls()).toBe(1);
    expect(bad.data?.translation?.a ?? null).toBeNull();
    expect(bad.data?.translation?.b ?? null).toBeNull();
    expect(bad.errors?.[0]?.extensions).toMatchObject({ code: 'UPSTREAM_ERROR', service: 'translation' });
    expect(await unusable()).toBe(before + 1);

    stack.translation.clearFaults();
    // Another client, then the same one: each gets real translations, made by a new call.
    const other = await stack.query(query, undefined, as(KEYS[1]));
    expect(other.errors).toBeUndefined();
    expect(other.data.translation.a.text).not.toBe('');
    expect(other.data.translation.b.text).not.toBe('');
    expect(translateCalls()).toBe(2);
    const same = await stack.query(query, undefined, as(KEYS[0]));
    expect(same.data).toEqual(other.data);
  });

  it('keeps a problem whose texts all came back empty from failing after the service recovers', async () => {
    const page = /* GraphQL */ `{ problem(id: "p1007") { id translation(to: "de") { title statement } } }`;
    stack.translation.setFaults({ badBody: 'empty-texts', routes: ['POST /translate'] });
    const bad = await stack.query(page, undefined, as(KEYS[0]));
    expect(bad.data?.problem?.translation ?? null).toBeNull();
    expect(bad.errors?.[0]?.extensions).toMatchObject({ code: 'UPSTREAM_ERROR', service: 'translation' });
    stack.translation.clearFaults();
    const good = await stack.query(page, undefined, as(KEYS[0]));
    expect(good.errors).toBeUndefined();
    expect(good.data.problem.translation.statement.length).toBeGreaterThan(0);
  });
});
