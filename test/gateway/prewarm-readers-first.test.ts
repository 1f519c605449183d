import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../helpers/start-stack.ts';
import { until, watchTranslateCalls } from '../helpers/translate-calls.ts';

const PAGE = /* GraphQL */ `
  query Page($to: String!, $after: String) {
    problems(first: 20, after: $after) { nodes { id translation(to: $to) { title } } pageInfo { endCursor } }
  }
`;

/** Readers one after another, each a cold page (new page, or new language): their latencies and the span they covered. */
async function coldReaders(replica: Pick<Stack, 'query'>, languages: string[], pages: number) {
  const latencies: number[] = [];
  const started = performance.now();
  for (const to of languages) {
    let after: string | undefined;
    for (let page = 0; page < pages; page += 1) {
      const begun = performance.now();
      const answer = await replica.query(PAGE, { to, after });
      latencies.push(performance.now() - begun);
      expect(answer.errors).toBeUndefined();
      after = answer.data.problems.pageInfo.endCursor;
    }
  }
  return { latencies, from: started, to: performance.now() };
}

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

  it('takes no more of a reader\'s time than no prewarming does', async () => {
    const plain = await stack.addGateway();
    const alone = await coldReaders(plain, ['fr', 'it'], 3);
    const calls = watchTranslateCalls(stack.translation);
    const warming = await stack.addGateway({ settings: { translationPrewarm: ['pt'], translationPrewarmCallsPerSecond: 100 }, log: (line) => lines.push(line) });
    await until(() => calls.of('pt').length >= 1, 'prewarming under way');
    const beside = await coldReaders(warming, ['fr', 'it'], 3);
    calls.stop();
    const during = calls.of('pt').filter((call) => call.at > beside.from && call.at < beside.to).length;
    console.log(`readers first: cold page of 20, median ${median(alone.latencies).toFixed(0)} ms alone, ${median(beside.latencies).toFixed(0)} ms beside prewarming (${during} pt calls while they read)`);
    // A ratio, not a time: readers beside prewarming take about what they take alone.
    expect(median(beside.latencies) / median(alone.latencies)).toBeLessThan(2);
  });

  it('starts no page while readers keep translation calls in flight, and goes on once they stop', async () => {
    const own: string[] = [];
    const calls = watchTranslateCalls(stack.translation);
    const warming = await stack.addGateway({ settings: { translationPrewarm: ['de'], translationPrewarmCallsPerSecond: 100 }, log: (line) => own.push(line) });
    // Right after a page's call went out: the next page is due within a few hundred ms.
    await until(() => calls.of('de').length >= 1, 'prewarming under way');
    const from = performance.now();
    // Readers one after another for 2 s, each one call of 150 ms.
    for (let reader = 0; performance.now() - from < 2000; reader += 1) {
      const answer = await warming.query('query($text: String!) { translation { translate(text: $text, to: "fr") { text } } }', { text: `Read the input of case ${reader}.` });
      expect(answer.errors).toBeUndefined();
    }
    const to = performance.now();
    await until(() => own.some((line) => line.startsWith('translation prewarm: de complete')), 'the de walk', 90_000);
    calls.stop();
    // The calls of the page under way when the readers came all left together, at once.
    const during = calls.of('de').filter((call) => call.at > from + 100 && call.at < to);
    const readers = calls.of('fr').length;
    console.log(`readers first: ${readers} reader calls back to back over ${(to - from).toFixed(0)} ms; de calls meanwhile ${during.length}, after ${calls.of('de').filter((call) => call.at >= to).length}`);
    expect(readers).toBeGreaterThan(5);
    expect(during).toEqual([]);
    expect(calls.of('de').filter((call) => call.at >= to).length).toBeGreaterThan(0);
  });
});
