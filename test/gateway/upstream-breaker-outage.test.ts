import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { titleOf, translatedTitleOf } from '../helpers/stand-in-translation.ts';
import { baseOf } from '../observability/helpers.ts';
import { startStack, type Stack } from '../helpers/start-stack.ts';

/**
 * A translation outage under a steady reader load (one request at a time), with a short breaker
 * (3 failures, 1.5 s cool-down, on a clock the test moves): the service gets a handful of calls while
 * it is down, readers get their translation error without any call being made, cached translations
 * and problems data are served throughout, /readiness and /metrics say what the breaker does, and
 * translations come back once the service does. Calls and states are counted; no time is asserted.
 */
describe('a translation outage behind the circuit breaker', () => {
  const READER = /* GraphQL */ `{ problem(id: "p1002") { id title translation(to: "fr") { title } } }`;
  const CACHED = /* GraphQL */ `{ problem(id: "p1001") { id title translation(to: "de") { title } } }`;
  let stack: Stack;
  let guarded: Awaited<ReturnType<Stack['addGateway']>>;
  let unguarded: Awaited<ReturnType<Stack['addGateway']>>;
  const calls = () => stack.translation.stats.requests;
  /** The guarded gateway's breaker clock: it moves only when the test moves it, however busy the machine. */
  let clock = Date.now();
  const COOLDOWN_MS = 1500;
  const metricsOf = async (gatewayUrl: string) => (await fetch(`${baseOf(gatewayUrl)}/metrics`)).text();
  const readinessOf = async (gatewayUrl: string) => {
    const response = await fetch(`${baseOf(gatewayUrl)}/readiness`);
    return { status: response.status, body: (await response.json()) as { status: string; services: Record<string, string> } };
  };

  beforeAll(async () => {
    stack = await startStack();
    guarded = await stack.addGateway({ settings: { upstreamBreakerFailures: 3, upstreamBreakerCooldownMs: COOLDOWN_MS }, breakerClock: () => clock });
    unguarded = await stack.addGateway({ settings: { upstreamBreakerFailures: 0 } });
  });
  afterAll(async () => {
    stack.translation.clearFaults();
    await stack?.close();
  });

  it('opens after 3 failed reader requests, then answers the failing field at once, without calls, and recovers', async () => {
    // Before the outage: one translation cached, the language list known.
    const warm = await guarded.query(CACHED);
    expect(warm.data.problem.translation.title).toBe(translatedTitleOf('p1001', 'de'));
    stack.translation.setFaults({ status: 503 });
    stack.translation.resetStats();

    // Each failed call is tried 1 + UPSTREAM_RETRIES times; the third failed call opens the circuit.
    const failing: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const result = await guarded.query(READER);
      expect(result.data.problem.title).toBe(titleOf('p1002'));
      failing.push(result.errors?.[0]?.extensions?.code);
    }
    expect(failing).toEqual(['UPSTREAM_ERROR', 'UPSTREAM_ERROR', 'UPSTREAM_ERROR']);
    const toOpen = calls();
    expect(toOpen).toBe(9);

    // Open: the field fails at once with a retry-after hint; the service hears nothing.
    for (let i = 0; i < 10; i += 1) {
      const result = await guarded.query(READER);
      expect(result.data.problem).toMatchObject({ id: 'p1002', translation: null });
      expect(result.data.problem.title).toBe(titleOf('p1002'));
      expect(result.errors).toHaveLength(1);
      expect(result.errors![0].path).toEqual(['problem', 'translation']);
      expect(result.errors![0].extensions).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', service: 'translation' });
      expect(result.errors![0].extensions!.retryAfter).toBeGreaterThanOrEqual(1);
    }
    expect(calls()).toBe(toOpen);
    // A cached translation is still served, and problems data flows.
    const cached = await guarded.query(CACHED);
    expect(cached.errors).toBeUndefined();
    expect(cached.data.problem.translation.title).toBe(warm.data.problem.translation.title);
    expect((await guarded.query(/* GraphQL */ `{ problems(first: 3) { nodes { id title } } }`)).errors).toBeUndefined();

    const open = await readinessOf(guarded.gatewayUrl);
    expect(open.status).toBe(200);
    expect(open.body.status).toBe('degraded');
    expect(open.body.services.problems).toBe('ok');
    expect(open.body.services.translation).toMatch(/^circuit open \((retry in [12] s|the next call probes)\)$/);
    const metrics = await metricsOf(guarded.gatewayUrl);
    expect(metrics).toMatch(/^gateway_upstream_breaker_state\{service="translation"\} 2$/m);
    expect(metrics).toMatch(/^gateway_upstream_breaker_state\{service="problems"\} 0$/m);
    expect(metrics).toMatch(/^gateway_upstream_breaker_opens_total\{service="translation"\} 1$/m);
    expect(Number(/^gateway_upstream_breaker_refused_calls_total\{service="translation"\} (\d+)$/m.exec(metrics)?.[1])).toBeGreaterThanOrEqual(10);

    // The service comes back; within a few cool-downs, readers get translations again, after a few
    // probes (each tried once) and no storm of calls.
    stack.translation.clearFaults();
    const outageCalls = calls();
    let translated = false;
    for (let i = 0; i < 200 && !translated; i += 1) {
      const result = await guarded.query(READER);
      expect(result.data.problem.title).toBe(titleOf('p1002'));
      translated = typeof result.data.problem.translation?.title === 'string';
      // A cool-down passes: the next call probes.
      if (!translated) clock += COOLDOWN_MS;
    }
    expect(translated).toBe(true);
    expect(calls() - outageCalls).toBeLessThanOrEqual(3);
    // Two more probes (the stand-in now answers) close it.
    for (let i = 0; i < 2; i += 1) await guarded.query(`{ translation { translate(text: "Probe ${i}.", to: "fr") { text } } }`);
    expect((await readinessOf(guarded.gatewayUrl)).body.services.translation).not.toMatch(/circuit/);
    // Readiness reuses its own check of the service for 2 s: the 503 it saw may stand that long.
    let closed = await readinessOf(guarded.gatewayUrl);
    for (let i = 0; i < 40 && closed.body.status !== 'ready'; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      closed = await readinessOf(guarded.gatewayUrl);
    }
    expect(closed.body).toMatchObject({ status: 'ready', services: { problems: 'ok', translation: 'ok' } });
    expect(await metricsOf(guarded.gatewayUrl)).toMatch(/^gateway_upstream_breaker_state\{service="translation"\} 0$/m);
  });

  it('with UPSTREAM_BREAKER_FAILURES=0, every reader request during the outage costs the service every attempt', async () => {
    // The language list known before, as in the other test.
    await unguarded.query(CACHED);
    stack.translation.setFaults({ status: 503 });
    stack.translation.resetStats();
    try {
      for (let i = 0; i < 6; i += 1) {
        const result = await unguarded.query(READER);
        expect(result.data.problem.title).toBe(titleOf('p1002'));
        expect(result.errors?.[0]?.extensions?.code).toBe('UPSTREAM_ERROR');
      }
      expect(calls()).toBe(18);
      expect((await readinessOf(unguarded.gatewayUrl)).body.services.translation).toBe('answered HTTP 503');
    } finally {
      stack.translation.clearFaults();
    }
  });
});
