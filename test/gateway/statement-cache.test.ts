import { GraphQLError } from 'graphql';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ErrorCode } from '../../src/gateway/errors.ts';

const STATEMENT_NOT_TRANSLATABLE = ErrorCode.StatementNotTranslatable;
import { DEFAULT_STATEMENT_LIMITS } from '../../src/gateway/statement/statement-limits.ts';
import { createStatementCache, type StatementCache } from '../../src/gateway/statement/statement-cache.ts';
import { createStatementThread, type StatementRunner } from '../../src/gateway/statement/statement-thread.ts';
import { createStatementWork, type StatementTask } from '../../src/gateway/statement/statement-work.ts';
import { threadCpuDuring } from '../helpers/thread-cpu.ts';

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

const shout = (html: string) => html.replace(/(<[^>]*>)|([^<]+)/g, (_, tag: string | undefined, text: string | undefined) => tag ?? text!.toUpperCase());
/** About 64 KB of ordinary statement: about a second of Markdown work each way on a busy machine. */
const LARGE = Array.from({ length: 1050 }, (_, index) => `Paragraph ${index} has $x_${index}$ and \`c\` in it, and *more* words.`).join('\n\n');

describe('the statement cache', () => {
  it('works on a statement that fails once: the failure is memoized, and each caller gets a coded error', async () => {
    const { runner, tasks } = countingRunner();
    const memo = createStatementCache({ runner });
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
    const memo = createStatementCache({ runner, limits: { maxLength: 1000 } });
    const error = await errorOf(memo.segment('x'.repeat(1001)));
    expect(error.extensions).toMatchObject({ code: STATEMENT_NOT_TRANSLATABLE, limit: 1000, actual: 1001 });
    expect(tasks).toEqual([]);
  });

  it('answers the statements asked for in one step together, cached or not, so their texts share a batch', async () => {
    const { runner, tasks } = countingRunner();
    // The thread holds each task until the test lets it go: the cached statement must wait for it.
    const held: (() => void)[] = [];
    const holding: StatementRunner = { ...runner, run: (task) => new Promise((resolve) => held.push(() => resolve(runner.run(task)))) };
    const memo = createStatementCache({ runner: holding });
    const first = memo.segment('Cached $a$.');
    await expect.poll(() => held.length).toBe(1);
    held.shift()!();
    await first;
    const settled: string[] = [];
    const both = Promise.all([memo.segment('Cached $a$.').then(() => settled.push('cached')), memo.segment('New $b$.').then(() => settled.push('new'))]);
    await expect.poll(() => held.length).toBe(1);
    // Every turn the step could have taken has run (the thread is all it waits on): nothing answered yet.
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toEqual([]);
    held.shift()!();
    await both;
    expect(settled.sort()).toEqual(['cached', 'new']);
    expect(tasks.map((task) => task.kind)).toEqual(['segment', 'segment']);
  });
});

describe('the statement cache on its worker thread', () => {
  let memo: StatementCache | undefined;
  afterEach(async () => {
    vi.useRealTimers();
    await memo?.close();
  });

  it('keeps the event loop free while a 64 KB statement is segmented, reassembled and rendered', async () => {
    // The thread's time limit stands still (its timers are fake): what is measured here is CPU time
    // on this thread, and a loaded machine must not turn that into a timeout.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    memo = createStatementCache();
    await memo.segment('Warm the thread up.');
    const onThisThread = await threadCpuDuring(async () => {
      const segments = await memo!.segment(LARGE);
      const { statement: translated } = await memo!.reassemble(LARGE, segments.map(shout));
      expect(translated).toContain('PARAGRAPH 1049 HAS $x_1049$');
      expect(await memo!.renderHtml(translated)).toContain('<code class="language-math math-inline">x_1049</code>');
    });
    // The same segmenting done here, on the event loop, for comparison (about half a second of CPU on
    // a 2-core machine): the memo's loop only hashes and passes messages, a few percent of that.
    const work = createStatementWork(DEFAULT_STATEMENT_LIMITS);
    const segmentingHere = await threadCpuDuring(async () => work({ kind: 'segment', markdown: LARGE }));
    expect(onThisThread).toBeLessThan(segmentingHere / 5);
  });

  it('gives up on a statement past its time limit with a coded error, and a new thread serves the next one', async () => {
    // The limit's timer is fake: it runs out when the test moves it, once the large statement (half a
    // second of work on a quiet machine) is on the thread, and never while the small one is, however
    // loaded the machine. Tasks are counted as they reach the thread.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const thread = createStatementThread({ limits: DEFAULT_STATEMENT_LIMITS, timeoutMs: 200 });
    const tasks: StatementTask[] = [];
    memo = createStatementCache({ runner: { run: (task) => (tasks.push(task), thread.run(task)), close: () => thread.close() } });
    // A thread started and ready: the large statement is handed to it in the turn it reaches it.
    expect(await memo.segment('Warm $b$.')).toEqual(['Warm <span translate="no" data-p="0"></span>.']);
    const failing = errorOf(memo.segment(LARGE));
    while (tasks.length < 2) await new Promise((resolve) => setImmediate(resolve));
    await vi.advanceTimersByTimeAsync(200);
    const error = await failing;
    expect(error.extensions.code).toBe(STATEMENT_NOT_TRANSLATABLE);
    expect(error.message).toMatch(/took more than 0.2 s/);
    expect(await memo.segment('Small $a$.')).toEqual(['Small <span translate="no" data-p="0"></span>.']);
    expect(tasks).toHaveLength(3);
    // Memoized: the same statement fails again with the same error, and no task reaches the thread.
    expect((await errorOf(memo.segment(LARGE))).message).toBe(error.message);
    expect(tasks).toHaveLength(3);
  });
});
