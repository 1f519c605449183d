import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../src/gateway/errors.ts';

const STATEMENT_NOT_TRANSLATABLE = ErrorCode.StatementNotTranslatable;
import { dataset } from '../../src/upstreams/problems/data/index.ts';
import { startStack, type Stack } from '../helpers/start-stack.ts';
import { threadCpuMs } from '../helpers/thread-cpu.ts';

const paragraphs = (count: number, line: (index: number) => string) => Array.from({ length: count }, (_, index) => line(index)).join('\n\n');

/** Statements the dataset does not have, put in place of real ones for this file (each file is its own process). */
const STATEMENTS = {
  // ~790 KB: 9,000 short paragraphs, each with math and code.
  huge: paragraphs(9000, (index) => `The line number ${index} of the input holds $n$ and the code \`x${index}\`, as said above.`),
  // ~63 KB of ordinary prose: seconds of Markdown work on a 2-core machine. One sentence with other
  // formulas (placeholders make it one text), so that the translation stand-in, which runs in this
  // process, has almost nothing to do and what the probe measures is the gateway.
  large: paragraphs(950, (index) => `The array has $a_{${index}}$ integers and the query \`q\`, print the sum.`),
  deep: `Read the quote.\n\n${'>'.repeat(10_000)} deep`,
};
const problems = [dataset.problems[0], dataset.problems[1], dataset.problems[2]] as { id: string; statement: string }[];
const originals = problems.map((problem) => problem.statement);
const [huge, large, deep] = problems;

describe('statements the gateway will not, or cannot quickly, translate, over real HTTP', () => {
  let stack: Stack;

  beforeAll(async () => {
    huge.statement = STATEMENTS.huge;
    large.statement = STATEMENTS.large;
    deep.statement = STATEMENTS.deep;
    stack = await startStack({ settings: { problemsCacheTtlSeconds: 0 } });
  });
  afterAll(async () => {
    await stack?.close();
    problems.forEach((problem, index) => (problem.statement = originals[index]));
  });
  beforeEach(() => stack.translation.resetStats());

  it('MUST answer a statement over the length limit with a coded error on the field, and call no translation', async () => {
    const result = await stack.query(/* GraphQL */ `{ problem(id: "${huge.id}") { id translation(to: "es") { statement } } }`);
    expect(result.data.problem).toEqual({ id: huge.id, translation: null });
    expect(result.errors).toHaveLength(1);
    expect(result.errors![0]).toMatchObject({
      path: ['problem', 'translation'],
      extensions: { code: STATEMENT_NOT_TRANSLATABLE, limit: 65_536, actual: STATEMENTS.huge.length },
    });
    expect(stack.translation.stats.byRoute['POST /translate'] ?? 0).toBe(0);
  });

  it('MUST answer a statement nested too deep (10,000 quotes) with a coded error, not a stack overflow', async () => {
    const result = await stack.query(/* GraphQL */ `{ problem(id: "${deep.id}") { translation(to: "es") { statement } } }`);
    expect(result.errors![0].extensions).toMatchObject({ code: STATEMENT_NOT_TRANSLATABLE, limit: 32 });
    expect(result.errors![0].message).toMatch(/nested \d+ levels deep/);
  });

  it('keeps /healthcheck answering while a 64 KB statement is segmented, translated, put back and rendered', async () => {
    const healthcheck = stack.gatewayUrl.replace(/\/graphql$/, '/healthcheck');
    // The CPU time this thread (the event loop's: the gateway, the stand-ins and this client share it)
    // spent between one probe's answer and the next: work done on the event loop shows there whole,
    // however busy the machine, while work done on the statements' thread does not.
    const gaps: number[] = [];
    let done = false;
    const probe = (async () => {
      let last = threadCpuMs();
      while (!done) {
        expect((await fetch(healthcheck)).status).toBe(200);
        const now = threadCpuMs();
        gaps.push(now - last);
        last = now;
        // A pause between probes (their pace, not a measure), leaving the cores to the work probed.
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    })();
    const result = await stack.query(/* GraphQL */ `{ problem(id: "${large.id}") { translation(to: "es") { statement statementHtml } } }`).finally(() => (done = true));
    await probe;

    expect(result.errors, JSON.stringify(result.errors)).toBeUndefined();
    const { statement, statementHtml } = result.data.problem.translation;
    expect(statement).not.toBe(STATEMENTS.large);
    expect(statement).toContain('`q`');
    expect(statementHtml).toContain('<code class="language-math math-inline" translate="no">a_{949}</code>');
    expect(gaps.length).toBeGreaterThan(5);
    // The same work on the event loop takes about 0.8 s of its CPU time in one gap; on the statements'
    // thread, the loop's part between two probes (the translation calls, the answer) is a few ms.
    expect(Math.max(...gaps)).toBeLessThan(150);
  });
});
