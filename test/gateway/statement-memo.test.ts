import { GraphQLError } from 'graphql';
import { performance } from 'node:perf_hooks';
import { afterEach, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../src/gateway/errors.ts';

const STATEMENT_NOT_TRANSLATABLE = ErrorCode.StatementNotTranslatable;
import { DEFAULT_STATEMENT_LIMITS } from '../../src/gateway/statement/statement-limits.ts';
import { createStatementMemo, type StatementMemo } from '../../src/gateway/statement/statement-memo.ts';
import { createStatementThread, type StatementRunner } from '../../src/gateway/statement/statement-thread.ts';
import { createStatementWork, type StatementTask } from '../../src/gateway/statement/statement-work.ts';

/** The work in-process, counting the tasks that reach it. */
function countingRunner() {
  const work = createStatementWork(DEFAULT_STATEMENT_LIMITS);
  const tasks: StatementTask[] = [];
  const runner: StatementRunner = {
    run: async (task) => {
      tasks.push(task);
      return work(task);
    },
    close: async () => undefined,
  };
  return { runner, tasks };
}

async function errorOf(promise: Promise<unknown>): Promise<GraphQLError> {
  try {
    await promise;
  } catch (error) {
    return error as GraphQLError;
  }
  throw new Error('expected a rejection');
}

type CpuUsage = { user: number; system: number };
const threadCpuUsage = (process as { threadCpuUsage?: (previous?: CpuUsage) => CpuUsage }).threadCpuUsage?.bind(process);

/**
 * The CPU time this thread (the event loop's) spends while `work` runs, in milliseconds: CPU time, not
 * the clock, so a machine busy with other work does not lengthen it. Where Node cannot read one
 * thread's CPU time (before 23.9), the event loop's active time stands in for it.
 */
async function loopCpuDuring(work: () => Promise<unknown>): Promise<number> {
  const before = threadCpuUsage?.();
  const utilization = performance.eventLoopUtilization();
  await work();
  if (!before || !threadCpuUsage) return performance.eventLoopUtilization(utilization).active;
  const { user, system } = threadCpuUsage(before);
  return (user + system) / 1000;
}

const shout = (html: string) => html.replace(/(<[^>]*>)|([^<]+)/g, (_, tag: string | undefined, text: string | undefined) => tag ?? text!.toUpperCase());
/** About 64 KB of ordinary statement: about a second of Markdown work each way on a busy machine. */
const LARGE = Array.from({ length: 1050 }, (_, index) => `Paragraph ${index} has $x_${index}$ and \`c\` in it, and *more* words.`).join('\n\n');

describe('the statement memo', () => {
  it('works on a statement that fails once: the failure is memoized, and each caller gets a coded error', async () => {
    const { runner, tasks } = countingRunner();
    const memo = createStatementMemo({ runner });
    const deep = '>'.repeat(10_000) + ' deep';
    for (let round = 0; round < 3; round++) {
      const error = await errorOf(memo.segment(deep));
      expect(error).toBeInstanceOf(GraphQLError);
      expect(error.extensions).toMatchObject({ code: STATEMENT_NOT_TRANSLATABLE, limit: 32 });
      expect(error.path).toBeUndefined();
    }
    expect(tasks).toHaveLength(1);

    const segments = await memo.segment('One $a$.\n\nTwo `b`.');
    const wrecked = segments.map((segment) => `${segment.replace(/\.$/, '')} www.example.com.`);
    for (let round = 0; round < 2; round++) {
      expect((await errorOf(memo.reassemble('One $a$.\n\nTwo `b`.', wrecked))).extensions.code).toBe(STATEMENT_NOT_TRANSLATABLE);
    }
    expect(tasks.map((task) => task.kind)).toEqual(['segment', 'segment', 'reassemble']);
  });

  it('refuses a statement over the length limit without sending it anywhere', async () => {
    const { runner, tasks } = countingRunner();
    const memo = createStatementMemo({ runner, limits: { maxLength: 1000 } });
    const error = await errorOf(memo.segment('x'.repeat(1001)));
    expect(error.extensions).toMatchObject({ code: STATEMENT_NOT_TRANSLATABLE, limit: 1000, actual: 1001 });
    expect(tasks).toEqual([]);
  });

  it('answers the statements asked for in one step together, cached or not, so their texts share a batch', async () => {
    const { runner } = countingRunner();
    const slow: StatementRunner = { ...runner, run: (task) => new Promise((resolve) => setTimeout(() => resolve(runner.run(task)), 30)) };
    const memo = createStatementMemo({ runner: slow });
    await memo.segment('Cached $a$.');
    const start = performance.now();
    const settled: Record<string, number> = {};
    await Promise.all([
      memo.segment('Cached $a$.').then(() => (settled.cached = performance.now() - start)),
      memo.segment('New $b$.').then(() => (settled.new = performance.now() - start)),
    ]);
    expect(settled.cached).toBeGreaterThanOrEqual(25);
    expect(Math.abs(settled.cached - settled.new)).toBeLessThan(5);
  });
});

describe('the statement memo on its worker thread', () => {
  let memo: StatementMemo | undefined;
  afterEach(async () => {
    await memo?.close();
  });

  it('keeps the event loop free while a 64 KB statement is segmented, reassembled and rendered', async () => {
    memo = createStatementMemo();
    await memo.segment('Warm the thread up.');
    const onThisThread = await loopCpuDuring(async () => {
      const segments = await memo!.segment(LARGE);
      const { statement: translated } = await memo!.reassemble(LARGE, segments.map(shout));
      expect(translated).toContain('PARAGRAPH 1049 HAS $x_1049$');
      expect(await memo!.renderHtml(translated)).toContain('<code class="language-math math-inline">x_1049</code>');
    });
    // The same segmenting done here, on the event loop, for comparison (about half a second of CPU on
    // a 2-core machine): the memo's loop only hashes and passes messages, a few percent of that.
    const work = createStatementWork(DEFAULT_STATEMENT_LIMITS);
    const segmentingHere = await loopCpuDuring(async () => work({ kind: 'segment', markdown: LARGE }));
    expect(onThisThread).toBeLessThan(segmentingHere / 5);
  });

  it('gives up on a statement past its time limit with a coded error, and a new thread serves the next one', async () => {
    // A limit the large statement (half a second on a quiet machine) always exceeds and a small one on
    // a fresh thread stays under even on a loaded machine; tasks counted as they reach the thread.
    const thread = createStatementThread({ limits: DEFAULT_STATEMENT_LIMITS, timeoutMs: 200 });
    const tasks: StatementTask[] = [];
    memo = createStatementMemo({ runner: { run: (task) => (tasks.push(task), thread.run(task)), close: () => thread.close() } });
    const error = await errorOf(memo.segment(LARGE));
    expect(error.extensions.code).toBe(STATEMENT_NOT_TRANSLATABLE);
    expect(error.message).toMatch(/took more than 0.2 s/);
    expect(await memo.segment('Small $a$.')).toEqual(['Small <span translate="no" data-p="0"></span>.']);
    expect(tasks).toHaveLength(2);
    // Memoized: the same statement fails again with the same error, and no task reaches the thread.
    expect((await errorOf(memo.segment(LARGE))).message).toBe(error.message);
    expect(tasks).toHaveLength(2);
  });
});
