import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../helpers/start-stack.ts';

const PAGE = /* GraphQL */ `
  query Page($to: String!, $after: String) {
    problems(first: 20, after: $after) { nodes { id translation(to: $to) { title statement } } pageInfo { endCursor } }
  }
`;

async function until(condition: () => boolean, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('translation prewarming (TRANSLATION_PREWARM)', () => {
  let stack: Stack;
  const lines: string[] = [];

  beforeAll(async () => {
    stack = await startStack({ settings: { translationPrewarm: ['es'], translationPrewarmCallsPerSecond: 20 }, log: (line) => lines.push(line) });
  });
  afterAll(() => stack?.close());

  it('makes a cold page in a prewarmed language cost no translation call', async () => {
    await until(() => lines.some((line) => line.startsWith('translation prewarm: es complete')));
    console.log(lines.filter((line) => line.includes('prewarm')));
    const translate = () => stack.translation.stats.byRoute['POST /translate'] ?? 0;
    const cursor = (await stack.query('{ problems(first: 40) { pageInfo { endCursor } } }')).data.problems.pageInfo.endCursor;
    const measure = async (to: string) => {
      const before = translate();
      const started = performance.now();
      const answer = await stack.query(PAGE, { to, after: cursor });
      const ms = performance.now() - started;
      expect(answer.errors).toBeUndefined();
      return { calls: translate() - before, ms };
    };
    const es = await measure('es');
    const fr = await measure('fr');
    console.log({ es, fr });
    expect(es.calls).toBe(0);
    expect(fr.calls).toBeGreaterThan(0);
  });
});
