import { afterEach, describe, expect, it } from 'vitest';
import { startUpLine } from '../../src/cli/start-up-line.ts';
import { DEFAULT_STATEMENT_LIMITS } from '../../src/gateway/statement/statement-limits.ts';
import { createStatementThread, hasSpareStatementThread, startSpareStatementThread, type StatementRunner } from '../../src/gateway/statement/statement-thread.ts';

describe('the start-up line', () => {
  it('says how long start-up took and where: loading, building the schema, listening', () => {
    expect(startUpLine({ loadedAt: 1_240, builtAt: 2_010, listeningAt: 2_060, standIns: true })).toBe(
      'started in 2.1 s: 1.2 s loading the code and starting the stand-ins, 0.8 s building the schema, 0.1 s to listen',
    );
    expect(startUpLine({ loadedAt: 900, builtAt: 1_500, listeningAt: 1_520, standIns: false })).toBe(
      'started in 1.5 s: 0.9 s loading the code, 0.6 s building the schema, 0.0 s to listen',
    );
  });
});

describe('a spare statement thread started ahead of the first statement', () => {
  const threads: StatementRunner[] = [];
  afterEach(async () => {
    for (const thread of threads.splice(0)) await thread.close();
    // A spare left over would be taken by the next test's thread: taken here (by a first task), and closed.
    if (hasSpareStatementThread()) {
      const taker = createStatementThread({ limits: DEFAULT_STATEMENT_LIMITS });
      await taker.run({ kind: 'html', markdown: 'Text.' });
      await taker.close();
    }
  });

  it('is taken by the first thread with the same limits, which answers with it as with its own', async () => {
    await startSpareStatementThread({ limits: DEFAULT_STATEMENT_LIMITS });
    expect(hasSpareStatementThread()).toBe(true);
    const thread = createStatementThread({ limits: { ...DEFAULT_STATEMENT_LIMITS } });
    threads.push(thread);
    const outcome = await thread.run({ kind: 'html', markdown: 'Print *a* + *b*.' });
    expect(hasSpareStatementThread()).toBe(false);
    expect(outcome).toEqual({ value: expect.stringContaining('<em>a</em>') });
  });

  it('is taken while it is still loading, and the task waits for it', async () => {
    const loading = startSpareStatementThread({ limits: DEFAULT_STATEMENT_LIMITS });
    const thread = createStatementThread({ limits: DEFAULT_STATEMENT_LIMITS });
    threads.push(thread);
    const outcome = await thread.run({ kind: 'segment', markdown: 'One line.\n\nAnother.' });
    await loading;
    expect(hasSpareStatementThread()).toBe(false);
    expect(outcome).toMatchObject({ value: expect.any(Array) });
  });

  it('is left alone by a thread asking for other limits', async () => {
    await startSpareStatementThread({ limits: DEFAULT_STATEMENT_LIMITS });
    const thread = createStatementThread({ limits: { ...DEFAULT_STATEMENT_LIMITS, maxNesting: 8 } });
    threads.push(thread);
    expect(await thread.run({ kind: 'html', markdown: 'Text.' })).toMatchObject({ value: expect.any(String) });
    expect(hasSpareStatementThread()).toBe(true);
  });

  it('ends when nobody takes it within its idle time', async () => {
    await startSpareStatementThread({ limits: DEFAULT_STATEMENT_LIMITS, idleMs: 10 });
    await expect.poll(() => hasSpareStatementThread(), { timeout: 10_000 }).toBe(false);
  });
});
