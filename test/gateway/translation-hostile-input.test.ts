import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseOf } from '../observability/helpers.ts';
import { startStack, type Stack } from '../helpers/start-stack.ts';

/**
 * One client's input decides nothing for the others. The translation stand-in answers 500 "Cannot
 * translate text" for any text holding `☠`, as LibreTranslate does when its model raises on an input.
 * A hostile client sends two requests every 10 s, each with five aliases in five languages of such
 * texts (new ones each time, so nothing remembered spares the service); a reader asks two fresh
 * texts a second. The circuit breaker's defaults (5 failures in a row, 50% of 10 calls over 10 s,
 * 10 s cool-down) run on a clock the test moves a second per step: a simulated minute, no sleeping,
 * no time asserted. The reader's translations are counted.
 */
describe("a client whose texts the translation service cannot translate", () => {
  const READER_KEY = 'reader-key';
  const HOSTILE_KEY = 'hostile-key';
  const LANGUAGES = ['fr', 'de', 'es', 'it', 'pt'];
  let stack: Stack;
  let gateway: Awaited<ReturnType<Stack['addGateway']>>;
  let clock = 1_000_000;

  beforeAll(async () => {
    stack = await startStack();
    stack.translation.configure({ untranslatable: ['☠'] });
    gateway = await stack.addGateway({
      settings: {
        gatewayApiKeys: [READER_KEY, HOSTILE_KEY],
        upstreamBreakerFailures: undefined,
        upstreamBreakerCooldownMs: undefined,
        upstreamBreakerFailurePercent: undefined,
        upstreamBreakerWindowMs: undefined,
      },
      breakerClock: () => clock,
    });
  });
  afterAll(async () => {
    await stack?.close();
  });

  const hostileRequest = (round: number, which: number) =>
    gateway.query(
      `{ translation { ${LANGUAGES.map((to) => `${to}: translate(text: "☠ round ${round} request ${which}", to: "${to}") { text }`).join(' ')} } }`,
      undefined,
      { authorization: `Bearer ${HOSTILE_KEY}` },
    );

  it("leaves another client at least 95% of its translations, and the circuit closed", async () => {
    let asked = 0;
    let served = 0;
    const hostileCodes = new Set<string>();
    for (let second = 0; second < 60; second += 1) {
      if (second % 10 === 0) {
        const answers = await Promise.all([hostileRequest(second, 1), hostileRequest(second, 2)]);
        for (const answer of answers) for (const error of answer.errors ?? []) hostileCodes.add(error.extensions?.code);
      }
      const reader = await gateway.query(
        /* GraphQL */ `query ($a: String!, $b: String!) { translation { a: translate(text: $a, to: "fr") { text } b: translate(text: $b, to: "fr") { text } } }`,
        { a: `The answer of second ${second}.`, b: `An array of second ${second}.` },
        { authorization: `Bearer ${READER_KEY}` },
      );
      asked += 2;
      served += [reader.data?.translation?.a, reader.data?.translation?.b].filter((result) => typeof result?.text === 'string' && result.text.length > 0).length;
      clock += 1000;
    }
    console.info(`reader served ${served} of ${asked} translations beside a client sending 500-raising texts`);
    expect(asked).toBe(120);
    expect(served / asked).toBeGreaterThanOrEqual(0.95);
    // The hostile client's texts failed as its own, and the service kept being asked for the reader's.
    expect([...hostileCodes]).toContain('TEXT_NOT_TRANSLATABLE');
    expect(stack.translation.stats.cannotTranslate).toBeGreaterThan(0);
    const metrics = await (await fetch(`${baseOf(gateway.gatewayUrl)}/metrics`)).text();
    // Opened once at most: at the very start, the hostile client's failures were all the breaker had
    // seen, and the reader's first call, sent at once as a witness, closed it.
    expect(Number(/^gateway_upstream_breaker_opens_total\{service="translation"\} (\d+)$/m.exec(metrics)?.[1])).toBeLessThanOrEqual(1);
    expect(metrics).toMatch(/^gateway_upstream_breaker_state\{service="translation"\} 0$/m);
  });

  it('sends a text it failed on no more for a while: the same hostile request again costs the service no call', async () => {
    const before = stack.translation.stats.cannotTranslate;
    const requests = stack.translation.stats.byRoute['POST /translate'] ?? 0;
    const again = await hostileRequest(50, 1);
    expect(again.errors?.map((error) => error.extensions?.code)).toEqual(LANGUAGES.map(() => 'TEXT_NOT_TRANSLATABLE'));
    expect(again.data?.translation).toEqual(Object.fromEntries(LANGUAGES.map((to) => [to, null])));
    expect(stack.translation.stats.cannotTranslate).toBe(before);
    expect(stack.translation.stats.byRoute['POST /translate'] ?? 0).toBe(requests);
  });
});
