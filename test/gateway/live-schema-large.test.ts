import { buildSchema, introspectionFromSchema } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGateway, type Gateway } from '../../src/gateway/create-gateway.ts';
import { outcomeOfAnswer } from '../../src/gateway/schema/introspection-answer.ts';
import { ON_LOOP_MAX_BYTES, outcomeOffLoop } from '../../src/gateway/schema/introspection-thread.ts';
import { sizeOf } from '../../src/gateway/schema/schema-size.ts';
import { SETTINGS } from '../../src/gateway/settings.ts';
import { listen, type RunningServer } from '../../src/shared/listen.ts';
import { typeDefs } from '../../src/upstreams/problems/schema.ts';
import { createTranslationService } from '../../src/upstreams/translation/service.ts';
import { createChangingProblemsService } from '../helpers/changing-problems-service.ts';
import { PROBLEMS_KEY, TRANSLATION_KEY } from '../helpers/start-stack.ts';

/** Enum values that make the introspection answer just under 10 MB (the problems answers' default bound is 10 MiB). */
const VALUES = 112_000;
/** The stand-in's own. */
const STAND_IN_ENUM_VALUES = sizeOf(buildSchema(typeDefs)).enumValues;

/** The stand-in's schema with an enum of `count` values, as its introspection answer's bytes. */
function answerWithEnum(count: number): Buffer {
  const values = Array.from({ length: count }, (_, index) => `VALUE_${index}`);
  const schema = buildSchema(`${typeDefs}\nenum Huge {\n${values.join('\n')}\n}\nextend type Query { huge: Huge }\n`);
  return Buffer.from(JSON.stringify({ data: introspectionFromSchema(schema, { descriptions: true, inputValueDeprecation: true }) }));
}

/** How many times the event loop turns until `work` settles: a loop held by the work turns (almost) never. */
async function loopTurnsDuring<T>(work: () => Promise<T>): Promise<{ turns: number; result: T }> {
  let turns = 0;
  let done = false;
  const turn = () => {
    turns += 1;
    if (!done) setImmediate(turn);
  };
  setImmediate(turn);
  const result = await work();
  done = true;
  return { turns, result };
}

describe('a 10 MB problems schema', () => {
  let unchanged: Buffer;
  let changed: Buffer;
  beforeAll(() => {
    unchanged = answerWithEnum(VALUES);
    // The same bytes with one more value: building a second schema of this size would take as long again.
    changed = Buffer.from(unchanged.toString('utf8').replace('{"name":"VALUE_0",', '{"name":"ADDED","description":null,"isDeprecated":false,"deprecationReason":null},{"name":"VALUE_0",'));
  });

  it('is the size the bound allows', () => {
    expect(changed.byteLength).toBeGreaterThan(unchanged.byteLength);
    expect(unchanged.byteLength).toBeGreaterThan(9_500_000);
    expect(unchanged.byteLength).toBeLessThan(10 * 1024 * 1024);
    expect(unchanged.byteLength).toBeGreaterThan(ON_LOOP_MAX_BYTES);
  });

  it('is read, built, validated, printed, hashed and diffed in a thread while the event loop goes on turning', async () => {
    const answer = { status: 200, bytes: changed, endpoint: 'http://problems/graphql' };
    const baseline = await outcomeOfAnswer({ ...answer, bytes: unchanged });
    if ('failure' in baseline) throw new Error(baseline.message);
    // On the loop, the same work holds it from start to end: the loop does not turn at all.
    const held = await loopTurnsDuring(() => outcomeOfAnswer(answer));
    expect(held.turns).toBeLessThan(3);
    const sent = Buffer.from(changed);
    const { turns, result: { outcome: result, bytes } } = await loopTurnsDuring(() => outcomeOffLoop(answer, baseline));
    expect(turns).toBeGreaterThan(100);
    // Handed to the thread and back, not copied: the caller's view is emptied, the bytes come back whole.
    expect(answer.bytes.byteLength).toBe(0);
    expect(Buffer.from(bytes).equals(sent)).toBe(true);
    expect(result).toMatchObject({ hash: expect.stringMatching(/^[0-9a-f]{64}$/), size: { enumValues: VALUES + 1 + STAND_IN_ENUM_VALUES }, changes: [{ impact: 'dangerous', message: "Enum value 'ADDED' was added to enum 'Huge'", path: 'Huge.ADDED' }] });
    expect((result as { hash: string }).hash).not.toBe(baseline.hash);
    expect((result as { sdl: string }).sdl).toBe((held.result as { sdl: string }).sdl);
  }, 120_000);

  describe('served by the problems service', () => {
    let translation: RunningServer;
    let upstream: RunningServer;
    let gateway: Gateway;
    let server: RunningServer;
    const service = createChangingProblemsService({ apiKey: PROBLEMS_KEY });
    const logs: string[] = [];
    const metric = async (name: string) => {
      const text = await (await fetch(`${server.url}/metrics`)).text();
      return Number(text.split('\n').find((line) => line.startsWith(name))?.split(' ').at(-1));
    };
    const PARSED = 'gateway_problems_schema_introspections_total{answer="parsed"}';
    const UNCHANGED = 'gateway_problems_schema_introspections_total{answer="unchanged"}';
    const BOUND = 'gateway_problems_schema_check_failures_total{reason="bound"}';
    /** Enum values of the schema served at start: within the bounds, and read in a thread. */
    const WITHIN = 4_000;

    beforeAll(async () => {
      translation = await listen(createTranslationService({ apiKey: TRANSLATION_KEY }).listener);
      // Within the bounds and past the thread's threshold: the 10 MB one comes while it is served.
      service.setIntrospectionAnswer(answerWithEnum(WITHIN));
      upstream = await listen(service.listener);
      gateway = await createGateway({
        log: (line) => void logs.push(line),
        requestLog: false,
        settings: {
          problemsUrl: upstream.url,
          problemsApiKey: PROBLEMS_KEY,
          translationUrl: translation.url,
          translationApiKey: TRANSLATION_KEY,
          problemsSchemaPollSeconds: 0.5,
          rateLimitRequests: 1_000_000,
        },
      });
      server = await listen(gateway.listener);
    }, 180_000);
    afterAll(async () => {
      await server?.close();
      await gateway?.close();
      await upstream?.close();
      await translation?.close();
    });

    it('changed to 10 MB: read once in a thread, refused before any build (said, counted, in /readiness); fetched at every poll after and parsed never again', async () => {
      expect(gateway.schema.getType('Huge')).toBeDefined();
      const served = (await (await fetch(`${server.url}/readiness`)).json()).schema.hash as string;
      service.setIntrospectionAnswer(unchanged);
      await expect.poll(() => metric(BOUND), { timeout: 120_000, interval: 200 }).toBe(1);
      const bound = SETTINGS.problemsSchemaMaxEnumValues.default as number;
      const words = `${VALUES + STAND_IN_ENUM_VALUES} enum values, over PROBLEMS_SCHEMA_MAX_ENUM_VALUES=${bound}`;
      expect(logs.filter((line) => line.includes('refused, not built'))).toEqual([expect.stringMatching(new RegExp(`^problems schema: [0-9a-f]{12} refused, not built \\(${words}\\); still serving ${served.slice(0, 12)} \\(live\\)$`))]);
      const { schema } = await (await fetch(`${server.url}/readiness`)).json();
      expect(schema).toMatchObject({ hash: served, refused: expect.stringContaining(words) });
      expect(await metric(PARSED)).toBe(2);
      // No engine was built for it: the one serving is the only one, and no reload happened.
      expect(await metric('gateway_problems_schema_engines')).toBe(1);
      expect(await metric('gateway_problems_schema_reloads_total')).toBe(0);
      const introspections = service.introspections();
      const seen = await metric(UNCHANGED);
      await expect.poll(() => metric(UNCHANGED), { timeout: 60_000, interval: 200 }).toBeGreaterThanOrEqual(seen + 3);
      // A poll under way when the counts were read may add to one and not the other: wait for both.
      await expect.poll(() => service.introspections() - introspections, { timeout: 60_000, interval: 200 }).toBeGreaterThanOrEqual(3);
      expect(await metric(PARSED)).toBe(2);
      expect(await metric(BOUND)).toBe(1);
      expect((await fetch(`${server.url}/healthcheck`)).status).toBe(200);
    }, 180_000);

    it('changed within the bounds, is parsed once (in a thread) and served, and is then unchanged again', async () => {
      const smaller = answerWithEnum(WITHIN - 1_000);
      expect(smaller.byteLength).toBeGreaterThan(ON_LOOP_MAX_BYTES);
      const before = (await (await fetch(`${server.url}/readiness`)).json()).schema.hash as string;
      service.setIntrospectionAnswer(smaller);
      await expect.poll(async () => (await (await fetch(`${server.url}/readiness`)).json()).schema.hash, { timeout: 120_000, interval: 200 }).not.toBe(before);
      expect(await metric(PARSED)).toBe(3);
      expect((await (await fetch(`${server.url}/readiness`)).json()).schema.refused).toBeUndefined();
      expect(logs.filter((line) => line.startsWith('problems schema: now serving'))).toEqual([expect.stringMatching(/^problems schema: now serving [0-9a-f]{12} \(was [0-9a-f]{12}\): 1000 change\(s\): 1000 breaking, .*BREAKING +Enum value 'VALUE_\d+' was removed from enum 'Huge'/)]);
      const seen = await metric(UNCHANGED);
      await expect.poll(() => metric(UNCHANGED), { timeout: 60_000, interval: 200 }).toBeGreaterThan(seen);
      expect(await metric(PARSED)).toBe(3);
    }, 180_000);
  });
});
