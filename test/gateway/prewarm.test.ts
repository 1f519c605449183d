import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGateway } from '../../src/gateway/create-gateway.ts';
import { dataset } from '../../src/upstreams/problems/data/index.ts';
import { ABSTRACT_PROBLEMS_SCHEMA_PATH } from '../helpers/abstract-problems-service.ts';
import { startStack, type Stack } from '../helpers/start-stack.ts';
import { createSkippingClock } from '../helpers/skipping-clock.ts';
import { mostCallsInAnyWindow, until, watchTranslateCalls } from '../helpers/translate-calls.ts';

const PAGE = /* GraphQL */ `
  query Page($to: String!, $after: String) {
    problems(first: 20, after: $after) { nodes { id translation(to: $to) { title statement } } }
  }
`;

const completedLines = (lines: string[], language: string) => lines.filter((line) => line.startsWith(`translation prewarm: ${language} complete`));
const prewarmCallsOf = async (gateway: { metrics: { metrics(): Promise<string> } }, language: string) =>
  Number(new RegExp(`gateway_translation_prewarm_calls_total\\{language="${language}"\\} (\\d+)`).exec(await gateway.metrics.metrics())?.[1]);
const callsIn = (line: string) => Number(/, (\d+) translation calls?\b/.exec(line)?.[1]);

/**
 * Prewarming keeps its time on a clock given to the gateway (`prewarmClock`): here one whose pauses
 * take none, so that a walk's pace, refreshes and backoffs are counted rather than waited for. A call's
 * time at the service is read on the same clock.
 */
describe('translation prewarming (TRANSLATION_PREWARM), one replica', () => {
  let stack: Stack;
  const lines: string[] = [];
  let prewarmSeconds = 0;

  beforeAll(async () => {
    const started = performance.now();
    stack = await startStack({ settings: { translationPrewarm: ['es'], translationPrewarmCallsPerSecond: 20 }, log: (line) => lines.push(line), prewarmClock: createSkippingClock() });
    await until(() => completedLines(lines, 'es').length > 0, 'the es walk');
    prewarmSeconds = (performance.now() - started) / 1000;
  });
  afterAll(() => stack?.close());

  const translateCalls = () => stack.translation.stats.byRoute['POST /translate'] ?? 0;
  /** A page of 20 problems past the first 40, asked once: its calls at the service and its latency. */
  const coldPage = async (replica: Pick<Stack, 'query'>, to: string) => {
    const cursor = (await stack.query('{ problems(first: 40) { pageInfo { endCursor } } }')).data.problems.pageInfo.endCursor;
    const before = translateCalls();
    const started = performance.now();
    const answer = await replica.query(PAGE, { to, after: cursor });
    const ms = performance.now() - started;
    expect(answer.errors).toBeUndefined();
    expect(answer.data.problems.nodes.every((node: { translation: unknown }) => node.translation)).toBe(true);
    return { calls: translateCalls() - before, ms: Math.round(ms) };
  };

  it('makes a cold page in a prewarmed language cost no translation call, and one that is not prewarmed its calls', async () => {
    const [line] = completedLines(lines, 'es');
    expect(line).toMatch(/es complete: 165 problems translated or cached, 0 failed, \d+ translation calls/);
    // With a translation service that takes 150 ms a call, as a neural one may.
    stack.translation.setFaults({ latencyMs: 150, routes: ['POST /translate'] });
    try {
      const es = await coldPage(stack, 'es');
      const fr = await coldPage(stack, 'fr');
      console.log(`catalogue of 165 problems prewarmed in es in ${prewarmSeconds.toFixed(1)} s (gateway start included; ${line}); cold page of 20: es ${JSON.stringify(es)}, fr (not prewarmed) ${JSON.stringify(fr)}`);
      expect(es.calls).toBe(0);
      expect(fr.calls).toBeGreaterThan(0);
    } finally {
      stack.translation.clearFaults();
    }
  });

  it('shows its progress in /metrics: done, pending and failed per language', async () => {
    const text = await (await fetch(new URL('/metrics', stack.gatewayUrl))).text();
    expect(text).toContain('gateway_translation_prewarm_problems{language="es",state="done"} 165');
    expect(text).toContain('gateway_translation_prewarm_problems{language="es",state="pending"} 0');
    expect(text).toContain('gateway_translation_prewarm_problems{language="es",state="failed"} 0');
    expect(text).toMatch(/gateway_translation_prewarm_calls_total\{language="es"\} [1-9]/);
    expect(text).toContain('gateway_translation_prewarm_walks_total{language="es"} 1');
  });

  it('walks again every TRANSLATION_PREWARM_REFRESH_SECONDS: a changed text is translated again, unchanged ones cost nothing', async () => {
    const own: string[] = [];
    const problem = dataset.problems[3] as { statement: string };
    const original = problem.statement;
    // Changed as the first walk completes, before the next can begin (its lines are said in the same turn).
    const log = (line: string) => {
      own.push(line);
      if (completedLines(own, 'it').length === 1 && line.startsWith('translation prewarm: it complete')) problem.statement = `${original}\n\nThe answer always fits in a signed 64-bit integer.`;
    };
    const gateway = await createGateway({
      settings: { ...stack.upstreamSettings, translationPrewarm: ['it'], translationPrewarmCallsPerSecond: 50, translationPrewarmRefreshSeconds: 1, problemsCacheTtlSeconds: 0 },
      requestLog: false,
      log,
      prewarmClock: createSkippingClock(),
    });
    try {
      await until(() => completedLines(own, 'it').length >= 3, 'three it walks');
    } finally {
      problem.statement = original;
      await gateway.close();
    }
    const [first, changed, unchanged] = completedLines(own, 'it');
    console.log(`refresh: ${[first, changed, unchanged].join(' | ')}`);
    expect(callsIn(first)).toBeGreaterThan(0);
    expect(changed).toContain('catalogue changed since the last walk');
    expect(callsIn(changed)).toBeGreaterThanOrEqual(1);
    expect(callsIn(changed)).toBeLessThan(callsIn(first));
    expect(unchanged).toContain('catalogue unchanged since the last walk');
    expect(callsIn(unchanged)).toBe(0);
  });

  it('keeps within TRANSLATION_PREWARM_CALLS_PER_SECOND in any second while readers come and go', async () => {
    const own: string[] = [];
    const clock = createSkippingClock();
    const calls = watchTranslateCalls(stack.translation, clock.now);
    const replica = await stack.addGateway({ settings: { translationPrewarm: ['de'], translationPrewarmCallsPerSecond: 2 }, log: (line) => own.push(line), prewarmClock: clock });
    // Readers meanwhile, one after each page of the walk: cold pages in other languages, then warm ones.
    let reading = true;
    const readers = (async () => {
      const languages = ['pt', 'fr'];
      for (let turn = 0; reading; turn += 1) {
        await replica.query(PAGE, { to: languages[turn % languages.length] });
        const pages = calls.of('de').length;
        await until(() => !reading || calls.of('de').length > pages, 'the next page');
      }
    })();
    try {
      // Enough pages for the pace to bind: the first page alone would already fill a second.
      await until(() => calls.of('de').length >= 8, 'eight de calls');
    } finally {
      reading = false;
      await readers;
      await replica.gateway.close();
      calls.stop();
    }
    const prewarmCalls = calls.of('de');
    console.log(`pacing at 2 calls/s: most de calls in any second ${mostCallsInAnyWindow(prewarmCalls, 1000)} over ${prewarmCalls.length} calls; readers' calls ${calls.calls.length - prewarmCalls.length}`);
    // Every call prewarming made is counted, and no second held more than two of them.
    expect(await prewarmCallsOf(replica.gateway, 'de')).toBe(prewarmCalls.length);
    expect(mostCallsInAnyWindow(prewarmCalls, 1000)).toBeLessThanOrEqual(2);
  });

  it('counts what fails and goes on: a language the service does not offer fails each problem, once per walk', async () => {
    const own: string[] = [];
    const replica = await stack.addGateway({ settings: { translationPrewarm: ['tlh'], translationPrewarmCallsPerSecond: 50 }, log: (line) => own.push(line) });
    await until(() => completedLines(own, 'tlh').length > 0, 'the tlh walk');
    expect(completedLines(own, 'tlh')[0]).toMatch(/tlh complete: 0 problems translated or cached, 165 failed \(UNSUPPORTED_LANGUAGE\), 0 translation calls/);
    const text = await (await fetch(new URL('/metrics', replica.gatewayUrl))).text();
    expect(text).toContain('gateway_translation_prewarm_problems{language="tlh",state="failed"} 165');
    // A line for each of the first problems skipped, not for all 165: the completion line counts them.
    expect(own.filter((line) => line.startsWith('translation prewarm: tlh: problem ')).length).toBe(10);
    // The gateway serves on.
    expect((await replica.query('{ problems(first: 1) { nodes { id } } }')).data.problems.nodes).toHaveLength(1);
  });

  it('says in one line why it cannot run on a problems schema with no paginated list, and does nothing', async () => {
    const own: string[] = [];
    const before = translateCalls();
    const gateway = await createGateway({
      settings: { ...stack.upstreamSettings, translationPrewarm: ['es'] },
      problemsSchemaPath: ABSTRACT_PROBLEMS_SCHEMA_PATH,
      requestLog: false,
      log: (line) => own.push(line),
    });
    try {
      await until(() => own.some((line) => line.startsWith('translation prewarm:')), 'its line');
    } finally {
      // Closing waits for prewarming's loop to end: whatever it would have said or called, it has.
      await gateway.close();
    }
    expect(own.filter((line) => line.startsWith('translation prewarm:'))).toEqual(['translation prewarm: not running, Query.problems (first: Int, tag: String) takes neither `first` and `after` (cursors) nor `offset` or `skip` with `limit` or `first` (numeric offsets), so it cannot be walked page by page']);
    expect(translateCalls()).toBe(before);
  });

  it('stops on close: no page after it, no timer left behind', async () => {
    const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
    const baseline = timers();
    const calls = watchTranslateCalls(stack.translation);
    const gateway = await createGateway({
      settings: { ...stack.upstreamSettings, translationPrewarm: ['pt'], translationPrewarmCallsPerSecond: 1 },
      requestLog: false,
      log: () => undefined,
    });
    await until(() => calls.of('pt').length >= 1, 'a first page');
    // Closing waits for prewarming's loop to end: a loop still running would be waiting for its next
    // page on a timer (one call a second), which the count below shows, with no pause to wait out.
    await gateway.close();
    // A loop that outlived close would send its next page within a second (one call a second).
    const atClose = calls.of('pt').length;
    await new Promise((resolve) => setTimeout(resolve, 1500));
    calls.stop();
    expect(calls.of('pt').length).toBe(atClose);
    // The stack's own servers keep no timer; the gateway closed left none of prewarming's.
    expect(timers()).toBeLessThanOrEqual(baseline);
  });

  it('backs off when the service asks it to wait (429 with Retry-After), then goes on', async () => {
    const clock = createSkippingClock();
    const calls = watchTranslateCalls(stack.translation, clock.now);
    // No retry within a call (UPSTREAM_RETRIES=0): each refused call is a failed page, which prewarming waits out.
    stack.translation.setFaults({ status: 429, retryAfter: 3, failFirst: 2, routes: ['POST /translate'] });
    const replica = await stack.addGateway({ settings: { translationPrewarm: ['fr'], translationPrewarmCallsPerSecond: 50, upstreamRetries: 0 }, prewarmClock: clock });
    const problems = async (state: string) => Number(new RegExp(`gateway_translation_prewarm_problems\\{language="fr",state="${state}"\\} (\\d+)`).exec(await replica.gateway.metrics.metrics())?.[1] ?? 0);
    try {
      // The first page, through at its third attempt, counted done.
      await expect.poll(() => problems('done'), { timeout: 60_000 }).toBeGreaterThan(0);
      // Retried, not given up: no problem of the refused page was counted failed.
      expect(await problems('failed')).toBe(0);
    } finally {
      await replica.gateway.close();
      stack.translation.clearFaults();
      calls.stop();
    }
    expect(stack.translation.stats.faulted).toBeGreaterThanOrEqual(2);
    // Two refused, each followed by the 3 s the service asked for.
    const [first, second, third] = calls.of('fr').map((call) => call.at);
    expect(second - first).toBeGreaterThanOrEqual(3000);
    expect(third - second).toBeGreaterThanOrEqual(3000);
  });
});
