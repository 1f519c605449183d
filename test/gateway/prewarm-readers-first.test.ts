import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../helpers/start-stack.ts';
import { until, watchTranslateCalls } from '../helpers/translate-calls.ts';

const PAGE = /* GraphQL */ `
  query Page($to: String!, $after: String) {
    problems(first: 20, after: $after) { nodes { id translation(to: $to) { title } } pageInfo { endCursor } }
  }
`;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * Readers first: while readers' translation calls come one after another, prewarming starts no
 * page. The translation service takes 150 ms a call here, as a neural one may, so a reader's page
 * keeps a call in flight most of the time it takes.
 */
describe('translation prewarming yields to readers', () => {
  let stack: Stack;
  const lines: string[] = [];

  beforeAll(async () => {
    stack = await startStack();
    stack.translation.setFaults({ latencyMs: 150, routes: ['POST /translate'] });
  });
  afterAll(() => stack?.close());

  it('takes no more of a reader\'s time than a gateway without prewarming, at the same moments', async () => {
    const plain = await stack.addGateway();
    const calls = watchTranslateCalls(stack.translation);
    const warming = await stack.addGateway({ settings: { translationPrewarm: ['pt'], translationPrewarmCallsPerSecond: 2 }, log: (line) => lines.push(line) });
    await until(() => calls.of('pt').length >= 1, 'prewarming under way');
    // Cold pages in pairs, one on each gateway, in turn first: machine load falls on both alike.
    const alone: number[] = [];
    const beside: number[] = [];
    const timed = async (replica: Pick<Stack, 'query'>, to: string, after: string | undefined, into: number[]) => {
      const begun = performance.now();
      const answer = await replica.query(PAGE, { to, after });
      into.push(performance.now() - begun);
      expect(answer.errors).toBeUndefined();
      return answer.data.problems.pageInfo.endCursor as string;
    };
    // Pages the walk has not reached yet (it starts at the first problem): their statements are new
    // to both gateways, so neither reader finds work prewarming did for it.
    const cursor = async (first: number, after?: string) =>
      (await plain.query('query($first: Int, $after: String) { problems(first: $first, after: $after) { pageInfo { endCursor } } }', { first, after })).data.problems.pageInfo.endCursor as string;
    const c120 = await cursor(20, await cursor(100));
    const pages = [c120, await cursor(20, c120)];
    // Each gateway's first translating request starts its statement thread and reads the languages.
    for (const replica of [plain, warming]) await replica.query(PAGE, { to: 'es' });
    const from = performance.now();
    let turn = 0;
    for (const to of ['fr', 'it', 'de', 'es']) {
      for (const after of pages) {
        const pair = [[plain, alone], [warming, beside]] as const;
        const [first, second] = turn++ % 2 === 0 ? pair : [pair[1], pair[0]];
        await timed(first[0], to, after, first[1]);
        await timed(second[0], to, after, second[1]);
      }
    }
    const to = performance.now();
    calls.stop();
    const during = calls.of('pt').filter((call) => call.at > from && call.at < to).length;
    const complete = lines.some((line) => line.startsWith('translation prewarm: pt complete'));
    console.log(`readers first: cold page of 20, median ${median(alone).toFixed(0)} ms without prewarming, ${median(beside).toFixed(0)} ms beside it (${during} pt calls meanwhile; walk ${complete ? 'complete' : 'still under way'} at the end)`);
    expect(during).toBeGreaterThan(0);
    // A ratio, not a time.
    expect(median(beside) / median(alone)).toBeLessThan(1.5);
  });

  it('starts no page while readers keep translation calls in flight, and goes on once they stop', async () => {
    const calls = watchTranslateCalls(stack.translation);
    const warming = await stack.addGateway({ settings: { translationPrewarm: ['de'], translationPrewarmCallsPerSecond: 100 } });
    // Right after a page's call went out: the next page is due within a few hundred ms.
    await until(() => calls.of('de').length >= 1, 'prewarming under way');
    const from = performance.now();
    // Readers one after another for 2 s, each one call of 150 ms.
    for (let reader = 0; performance.now() - from < 2000; reader += 1) {
      const answer = await warming.query('query($text: String!) { translation { translate(text: $text, to: "fr") { text } } }', { text: `Read the input of case ${reader}.` });
      expect(answer.errors).toBeUndefined();
    }
    const to = performance.now();
    // Goes on: a page once the readers stopped (no need to walk the rest of the catalogue).
    await until(() => calls.of('de').some((call) => call.at >= to), 'a de page after the readers');
    calls.stop();
    // The calls of the page under way when the readers came all left together, at once.
    const during = calls.of('de').filter((call) => call.at > from + 100 && call.at < to);
    const readers = calls.of('fr').length;
    console.log(`readers first: ${readers} reader calls back to back over ${(to - from).toFixed(0)} ms; de calls meanwhile ${during.length}, after ${calls.of('de').filter((call) => call.at >= to).length}`);
    expect(readers).toBeGreaterThan(2);
    expect(during).toEqual([]);
    expect(calls.of('de').filter((call) => call.at >= to).length).toBeGreaterThan(0);
  });
});
