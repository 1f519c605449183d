import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createGateway, type Gateway } from '../../src/gateway/create-gateway.ts';
import type { GatewaySettings } from '../../src/gateway/settings.ts';
import { createMemoryTranslationCache } from '../../src/gateway/translation/translation-cache.ts';
import { listen } from '../../src/shared/listen.ts';
import { postGraphQL, startStack, type Stack } from '../helpers/start-stack.ts';
import { startRedis, type RedisServer } from '../helpers/redis-server.ts';
import { createSkippingClock, type SkippingClock } from '../helpers/skipping-clock.ts';
import { mostCallsInAnyWindow, until, watchTranslateCalls, type SeenCall } from '../helpers/translate-calls.ts';

const completed = (lines: string[], language: string) => lines.filter((line) => line.startsWith(`translation prewarm: ${language} complete`));
const callsIn = (line: string) => Number(/, (\d+) translation calls?\b/.exec(line)?.[1]);

/**
 * Replicas sharing one Redis for prewarming's progress, leases and pace. The replicas of a test share
 * one skipping clock (`prewarmClock`), which the shared pace keeps too (in place of Redis's): their
 * waits between pages take no time, and the pace's seconds are counted on that clock. Each keeps its
 * translations in a cache of its own here, so that work done twice shows as calls made twice: with
 * the shared cache, a repeated page would cost nothing and hide it.
 */
describe('translation prewarming across restarts and replicas (one Redis)', () => {
  let redis: RedisServer;
  let stack: Stack;
  const open: Gateway[] = [];

  beforeAll(async () => {
    redis = await startRedis();
    stack = await startStack();
  });
  // A test's replicas stop before the next test counts calls at the service, even when it failed midway.
  afterEach(async () => {
    for (const gateway of open.splice(0)) await gateway.close();
  });
  afterAll(async () => {
    await stack?.close();
    await redis?.stop();
  });

  const clock = createSkippingClock();
  const replica = async (settings: Partial<GatewaySettings>, lines: string[], prewarmClock: SkippingClock = clock) => {
    const gateway = await createGateway({
      prewarmClock,
      settings: { ...stack.upstreamSettings, redisUrl: redis.url, responseCacheTtlSeconds: 0, upstreamBreakerFailures: 0, ...settings },
      translationCache: createMemoryTranslationCache(),
      requestLog: false,
      log: (line) => lines.push(line),
    });
    open.push(gateway);
    return gateway;
  };
  const closeReplica = async (gateway: Gateway) => {
    if (open.includes(gateway)) open.splice(open.indexOf(gateway), 1);
    await gateway.close();
  };
  const prewarmCalls = async (gateway: Gateway, language: string) =>
    Number(new RegExp(`gateway_translation_prewarm_calls_total\\{language="${language}"\\} (\\d+)`).exec(await gateway.metrics.metrics())?.[1]);

  /**
   * Two replicas, one walking es and the other fr at `rate` calls per second each, the calls both made
   * as the service saw them, stamped on the replicas' clock (a skipping clock of their own, each
   * pause a few real milliseconds: a replica waiting for the other's page asks Redis every 100 ms).
   */
  const walkTwoLanguages = async (prefixes: [string, string], rate: number) => {
    const paced = createSkippingClock({ turnMs: 5 });
    const calls = watchTranslateCalls(stack.translation, paced.now);
    const lines: [string[], string[]] = [[], []];
    const pair = await Promise.all([
      replica({ redisPrefix: prefixes[0], translationPrewarm: ['es'], translationPrewarmCallsPerSecond: rate }, lines[0], paced),
      replica({ redisPrefix: prefixes[1], translationPrewarm: ['fr'], translationPrewarmCallsPerSecond: rate }, lines[1], paced),
    ]);
    let made: number[];
    try {
      // A few pages each, both walks under way at once.
      await until(() => calls.of('es').length >= 4 && calls.of('fr').length >= 4, 'four calls of each walk', 30_000);
    } finally {
      for (const gateway of pair) await closeReplica(gateway);
      calls.stop();
      made = [await prewarmCalls(pair[0], 'es'), await prewarmCalls(pair[1], 'fr')];
    }
    const es = calls.of('es');
    const fr = calls.of('fr');
    const both = [...es, ...fr];
    // Calls of one language made while the other's walk was under way: how much the walks overlapped.
    const during = (mine: SeenCall[], theirs: SeenCall[]) => mine.filter((call) => call.at > theirs[0].at && call.at < theirs[theirs.length - 1].at).length;
    const seconds = (Math.max(...both.map((call) => call.at)) - Math.min(...both.map((call) => call.at))) / 1000;
    return {
      es: es.length,
      fr: fr.length,
      overlapping: during(es, fr) + during(fr, es),
      // On the pace's own clock: a call is stamped after its page's reservation and before its end.
      mostInASecond: mostCallsInAnyWindow(both, 1000),
      seconds: Number(seconds.toFixed(1)),
      made,
    };
  };

  it('keeps replicas walking different languages within one TRANSLATION_PREWARM_CALLS_PER_SECOND together, in every second at the service', async () => {
    // One call a second: a replica's walk reaches that pace by itself, so two paced apart do exceed it together.
    const rate = 1;
    const shared = await walkTwoLanguages(['pace', 'pace'], rate);
    // The same two walks, each replica paced alone (prefixes of their own: nothing shared).
    const apart = await walkTwoLanguages(['pace-es', 'pace-fr'], rate);
    console.log(`two replicas, es and fr at ${rate} call(s)/s: one Redis pace ${JSON.stringify(shared)}; paced apart ${JSON.stringify(apart)}`);
    expect([shared.es, shared.fr]).toEqual(shared.made);
    // Both walked at once, so that apart they could have made twice the rate together...
    expect(shared.overlapping).toBeGreaterThanOrEqual(4);
    expect(apart.mostInASecond).toBeGreaterThan(rate);
    // ...and together they kept to it.
    expect(shared.mostInASecond).toBeLessThanOrEqual(rate);
  });

  it('resumes where a stopped replica left off: the next one walks only the rest of the catalogue', async () => {
    const calls = watchTranslateCalls(stack.translation);
    const first: string[] = [];
    const a = await replica({ redisPrefix: 'resume', translationPrewarm: ['es'], translationPrewarmCallsPerSecond: 20 }, first);
    await until(() => calls.of('es').length >= 3, 'a few pages of the first replica');
    await closeReplica(a);
    const byFirst = calls.of('es').length;
    const second: string[] = [];
    const b = await replica({ redisPrefix: 'resume', translationPrewarm: ['es'], translationPrewarmCallsPerSecond: 20 }, second);
    await until(() => completed(second, 'es').length > 0, 'the walk, completed by the second replica');
    calls.stop();
    const bySecond = calls.of('es').length - byFirst;
    console.log(`restart mid-walk: first replica ${byFirst} calls, second ${bySecond} calls; ${completed(second, 'es')[0]}`);
    expect(completed(first, 'es')).toEqual([]);
    // The whole catalogue, counted across both (the second went on with the first's counts).
    expect(completed(second, 'es')[0]).toMatch(/es complete: 165 problems translated or cached, 0 failed/);
    expect(callsIn(completed(second, 'es')[0])).toBe(byFirst + bySecond);
    // What the first replica translated, the second never asked for: the first page is not in its own cache...
    const server = await listen(b.listener);
    try {
      const ask = (after?: string) => postGraphQL(`${server.url}/graphql`, 'query($after: String) { problems(first: 20, after: $after) { nodes { translation(to: "es") { title } } pageInfo { endCursor } } }', { after });
      const before = stack.translation.stats.byRoute['POST /translate'] ?? 0;
      const firstPage = await ask();
      expect(stack.translation.stats.byRoute['POST /translate']).toBeGreaterThan(before);
      // ...while the last one is.
      const cursorAfter = async (first: number, after?: string) =>
        (await postGraphQL(`${server.url}/graphql`, 'query($first: Int, $after: String) { problems(first: $first, after: $after) { pageInfo { endCursor } } }', { first, after })).data.problems.pageInfo.endCursor;
      const last = await cursorAfter(40, await cursorAfter(100));
      const afterFirst = stack.translation.stats.byRoute['POST /translate'];
      expect((await ask(last)).data.problems.nodes.length).toBeGreaterThan(0);
      expect(stack.translation.stats.byRoute['POST /translate']).toBe(afterFirst);
      expect(firstPage.errors).toBeUndefined();
    } finally {
      await server.close();
      await closeReplica(b);
    }
  });

  it('lets two replicas share the work: one walks a language, the other does not repeat it, nor does a later one', async () => {
    const calls = watchTranslateCalls(stack.translation);
    const lines: [string[], string[]] = [[], []];
    const settings = { redisPrefix: 'pair', translationPrewarm: ['de'], translationPrewarmCallsPerSecond: 20 };
    const pair = await Promise.all([replica(settings, lines[0]), replica(settings, lines[1])]);
    await until(() => completed(lines[0], 'de').length + completed(lines[1], 'de').length > 0, 'the de walk');
    const walk = [...completed(lines[0], 'de'), ...completed(lines[1], 'de')];
    // A replica started after the walk finds it done (its progress in Redis) and makes no call.
    const later: string[] = [];
    const third = await replica(settings, later);
    // It has read the walk's progress from Redis once its metrics show the finished walk's counts.
    const doneSeenBy = async (gateway: Gateway) => Number(/gateway_translation_prewarm_problems\{language="de",state="done"\} (\d+)/.exec(await gateway.metrics.metrics())?.[1]);
    await expect.poll(() => doneSeenBy(third), { timeout: 30_000 }).toBe(165);
    calls.stop();
    const perReplica = await Promise.all([...pair, third].map((gateway) => prewarmCalls(gateway, 'de')));
    console.log(`two replicas, one Redis: calls per replica ${JSON.stringify(perReplica)}, at the service ${calls.of('de').length}; ${walk[0]}`);
    expect(walk).toHaveLength(1);
    expect(walk[0]).toMatch(/de complete: 165 problems translated or cached, 0 failed/);
    expect(calls.of('de').length).toBe(callsIn(walk[0]));
    expect(perReplica.filter((count) => count > 0)).toHaveLength(1);
    expect(perReplica[2]).toBe(0);
    expect(completed(later, 'de')).toEqual([]);
  });
});
