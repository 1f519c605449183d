import { describe, expect, it } from 'vitest';
import { ErrorCode, UpstreamError, type ServiceName } from '../../src/gateway/errors.ts';
import { breakUpstreamCircuits, verdictOf, type BreakerChange, type BreakerObserver } from '../../src/gateway/upstream/circuit-breaker.ts';
import { UpstreamAnswer } from '../../src/gateway/upstream/upstream-answer.ts';
import { composeSteps } from '../../src/gateway/upstream/composed-call.ts';
import type { CallBudget, CallHooks, UpstreamCall } from '../../src/gateway/upstream/upstream-call.ts';
import { withAnswerFace } from '../../src/gateway/upstream/upstream-fetch.ts';
import { createUpstreamSteps } from '../../src/gateway/upstream/upstream-calls.ts';
import { readSettings } from '../../src/gateway/settings.ts';

const callTo = (service: ServiceName, init: UpstreamCall['init'] = {}, client?: string): UpstreamCall => ({
  service,
  url: `http://${service}.test/x`,
  init,
  // The request object's identity, as the client key guard sets it; none: the gateway's own call.
  context: client === undefined ? undefined : { gateway: { identity: client } },
  info: undefined,
  readOnly: true,
  network: (() => Promise.reject(new Error('not used'))) as unknown as UpstreamCall['network'],
});

const failed = (service: ServiceName, code: (typeof ErrorCode)[keyof typeof ErrorCode] = ErrorCode.UpstreamError, status?: number) =>
  new UpstreamError('failed', { code, service, ...(status === undefined ? {} : { status }) });

/** One attempt, no budget: what the breaker's tests put after it instead of the retries. */
const ONE_ATTEMPT: CallBudget = {
  signal: undefined,
  check: () => undefined,
  failed: (error) => {
    throw error;
  },
  again: () => undefined,
  wait: () => Promise.resolve(),
  end: () => undefined,
};

/**
 * `step` (a breaker) composed over a network whose outcome `outcome` gives; each call sent is
 * recorded in `sent`, with `singleAttempt` when the breaker asked for one attempt.
 */
function through(step: CallHooks, outcome: (call: UpstreamCall) => Promise<UpstreamAnswer>, sent: UpstreamCall[] = []) {
  const single = new WeakSet<UpstreamCall>();
  const recorder: CallHooks = {
    attempts: {
      start(call, singleAttempt) {
        if (singleAttempt) single.add(call);
        return ONE_ATTEMPT;
      },
    },
  };
  const send = composeSteps([step, recorder]);
  return (asked: UpstreamCall) => {
    const call: UpstreamCall = { ...asked };
    call.network = withAnswerFace(asked.network, () => {
      sent.push(single.has(call) ? { ...call, singleAttempt: true } : call);
      return outcome(call);
    });
    return send(call);
  };
}

/** A breaker over a stand-in network whose outcome the test sets, on a clock the test moves. */
function harness(options: Parameters<typeof breakUpstreamCircuits>[0] = {}) {
  let clock = 1_000_000;
  const lines: string[] = [];
  const changes: BreakerChange[] = [];
  const refused: ServiceName[] = [];
  const sent: UpstreamCall[] = [];
  let outcome: (call: UpstreamCall) => Promise<UpstreamAnswer> = async () => new UpstreamAnswer({ status: 200, headers: [], body: '{}' });
  const observer: BreakerObserver = { breakerChanged: (change) => changes.push(change), breakerRefused: (service) => refused.push(service) };
  const step = breakUpstreamCircuits({ failures: 3, cooldownMs: 5000, probes: 2, observers: [observer], log: (line) => lines.push(line), now: () => clock, ...options });
  const send = through(step, (call) => outcome(call), sent);
  return {
    lines,
    changes,
    refused,
    sent,
    send: (service: ServiceName = 'translation', init?: UpstreamCall['init'], client?: string) => send(callTo(service, init, client)),
    /** A translation call for `client`. */
    sendFor: (client: string) => send(callTo('translation', {}, client)),
    succeed: () => (outcome = async () => new UpstreamAnswer({ status: 200, headers: [], body: '{}' })),
    fail: (error: (service: ServiceName) => unknown = (service) => failed(service, ErrorCode.UpstreamError, 503)) =>
      (outcome = (call) => Promise.reject(error(call.service))),
    advance: (ms: number) => (clock += ms),
  };
}

/** The call's outcome: `ok` or the code of the error it failed with, and that error. */
async function settle(promise: Promise<unknown>): Promise<{ code: string; error?: UpstreamError }> {
  try {
    await promise;
    return { code: 'ok' };
  } catch (error) {
    return { code: (error as UpstreamError).extensions?.code ?? String(error), error: error as UpstreamError };
  }
}

describe('circuit breaker step', () => {
  it('opens after the consecutive failures, then fails calls at once with UPSTREAM_UNAVAILABLE and the seconds until the next probe', async () => {
    const h = harness();
    h.fail();
    for (let i = 0; i < 3; i += 1) expect((await settle(h.send())).code).toBe('UPSTREAM_ERROR');
    expect(h.sent).toHaveLength(3);
    h.advance(1200);
    const refused = await settle(h.send());
    expect(refused.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(refused.error!.extensions).toMatchObject({ service: 'translation', retryAfter: 4 });
    expect(refused.error!.message).toMatch(/retry in 4 s/);
    // Refused unsent.
    expect(h.sent).toHaveLength(3);
    expect(h.refused).toEqual(['translation']);
    expect(h.changes.map(({ service, state }) => [service, state])).toEqual([['translation', 'open']]);
    expect(h.lines).toHaveLength(1);
    expect(h.lines[0]).toMatch(/^upstream translation: circuit open \(3 calls in a row failed, the last: UPSTREAM_ERROR, HTTP 503\)/);
  });

  it('keeps the other service out of it', async () => {
    const h = harness();
    h.fail((service) => (service === 'translation' ? failed(service) : undefined));
    for (let i = 0; i < 3; i += 1) await settle(h.send('translation'));
    h.succeed();
    expect((await settle(h.send('problems'))).code).toBe('ok');
    expect((await settle(h.send('translation'))).code).toBe('UPSTREAM_UNAVAILABLE');
  });

  it('a success in between starts the count again', async () => {
    const h = harness();
    for (let round = 0; round < 3; round += 1) {
      h.fail();
      await settle(h.send());
      await settle(h.send());
      h.succeed();
      expect((await settle(h.send())).code).toBe('ok');
    }
    expect(h.changes).toEqual([]);
  });

  it('counts timeouts, unreachable services and unusable bodies; not 4xx, refused keys, 429 or answers over the size bound', async () => {
    expect(verdictOf(failed('translation', ErrorCode.UpstreamTimeout))).toBe('failure');
    expect(verdictOf(failed('translation', ErrorCode.UpstreamUnavailable))).toBe('failure');
    expect(verdictOf(failed('translation', ErrorCode.UpstreamError, 500))).toBe('failure');
    expect(verdictOf(failed('translation', ErrorCode.UpstreamError, 200))).toBe('failure');
    expect(verdictOf(new Error('anything else'))).toBe('failure');
    expect(verdictOf(failed('translation', ErrorCode.UpstreamBadRequest, 400))).toBe('success');
    expect(verdictOf(failed('translation', ErrorCode.UpstreamAuthRefused, 403))).toBe('success');
    expect(verdictOf(failed('translation', ErrorCode.UpstreamRateLimited, 429))).toBe('neutral');
    expect(verdictOf(failed('translation', ErrorCode.UpstreamResponseTooLarge, 200))).toBe('neutral');

    const h = harness();
    h.fail((service) => failed(service, ErrorCode.UpstreamBadRequest, 400));
    for (let i = 0; i < 10; i += 1) await settle(h.send());
    h.fail((service) => failed(service, ErrorCode.UpstreamRateLimited, 429));
    for (let i = 0; i < 10; i += 1) await settle(h.send());
    expect(h.changes).toEqual([]);
  });

  it('does not count a call cut short from outside (its engine disposed)', async () => {
    const h = harness();
    const disposed = new AbortController();
    disposed.abort();
    h.fail((service) => failed(service, ErrorCode.UpstreamUnavailable));
    for (let i = 0; i < 5; i += 1) await settle(h.send('translation', { signal: disposed.signal }));
    expect(h.changes).toEqual([]);
  });

  it('opens on a failure ratio over the window when failures never run long enough in a row', async () => {
    let n = 0;
    const alternate = () => {
      n += 1;
      return n % 2 === 0 ? Promise.resolve(new UpstreamAnswer({ status: 200, headers: [], body: '{}' })) : Promise.reject(failed('translation'));
    };
    const step = breakUpstreamCircuits({ failures: 3, failureRatio: 0.5, windowMs: 10_000, minimumCalls: 10, log: () => undefined });
    const codes: string[] = [];
    const send = through(step, alternate);
    for (let i = 0; i < 12; i += 1) codes.push((await settle(send(callTo('translation')))).code);
    expect(codes.slice(0, 9)).not.toContain('UPSTREAM_UNAVAILABLE');
    expect(codes.at(-1)).toBe('UPSTREAM_UNAVAILABLE');
    // With the ratio rule off, the same pattern never opens it.
    n = 0;
    const off = breakUpstreamCircuits({ failures: 3, failureRatio: 0, log: () => undefined });
    const sendOff = through(off, alternate);
    for (let i = 0; i < 30; i += 1) expect((await settle(sendOff(callTo('translation')))).code).not.toBe('UPSTREAM_UNAVAILABLE');
  });

  it('after the cool-down lets probes through, each tried once; they close it, and calls flow again', async () => {
    const h = harness();
    h.fail();
    for (let i = 0; i < 3; i += 1) await settle(h.send());
    h.advance(5000);
    h.succeed();
    expect((await settle(h.send())).code).toBe('ok');
    expect(h.sent.at(-1)!.singleAttempt).toBe(true);
    expect(h.changes.map(({ state }) => state)).toEqual(['open', 'half-open']);
    expect((await settle(h.send())).code).toBe('ok');
    expect(h.changes.map(({ state }) => state)).toEqual(['open', 'half-open', 'closed']);
    expect((await settle(h.send())).code).toBe('ok');
    expect(h.sent.at(-1)!.singleAttempt).toBeUndefined();
    expect(h.lines).toHaveLength(3);
    expect(h.lines[2]).toMatch(/circuit closed: 2 probe calls succeeded/);
  });

  it('while probes are out, other calls wait for their verdict; a failed probe opens it for another cool-down', async () => {
    const h = harness();
    h.fail();
    for (let i = 0; i < 3; i += 1) await settle(h.send());
    h.advance(5000);
    // Both probes are out (their answers not yet read) when the third call comes.
    const probes = [settle(h.send()), settle(h.send())];
    expect((await settle(h.send())).code).toBe('UPSTREAM_UNAVAILABLE');
    expect((await Promise.all(probes)).map(({ code }) => code)).toEqual(['UPSTREAM_ERROR', 'UPSTREAM_ERROR']);
    // Two probes failed; the second one's verdict came after the circuit opened again, and counts no more.
    expect(h.changes.map(({ state }) => state)).toEqual(['open', 'half-open', 'open']);
    const again = await settle(h.send());
    expect(again.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(again.error!.extensions.retryAfter).toBe(5);
    expect(h.sent).toHaveLength(5);
  });

  it("one client's failures while the service answers another client open that client's own circuit, not the service's", async () => {
    const h = harness();
    await settle(h.sendFor('key:reader'));
    h.fail((service) => failed(service, ErrorCode.UpstreamError, 500));
    const codes: string[] = [];
    for (let i = 0; i < 10; i += 1) codes.push((await settle(h.sendFor('key:hostile'))).code);
    expect(codes).toEqual([...Array(3).fill('UPSTREAM_ERROR'), ...Array(7).fill('UPSTREAM_UNAVAILABLE')]);
    // Its calls past the third were not sent; the service's circuit never moved.
    expect(h.sent).toHaveLength(4);
    expect(h.changes).toEqual([]);
    const refusal = await settle(h.sendFor('key:hostile'));
    expect(refusal.error!.message).toMatch(/failed this client's recent calls while it answers other clients.*retry in 5 s/);
    expect(h.lines).toEqual([expect.stringMatching(/^upstream translation: one client's calls fail \(3 calls in a row failed, the last: UPSTREAM_ERROR, HTTP 500\) while the service answers other clients/)]);
    h.succeed();
    expect((await settle(h.sendFor('key:reader'))).code).toBe('ok');
    // After its cool-down, the client's calls go out again.
    h.advance(5000);
    expect((await settle(h.sendFor('key:hostile'))).code).toBe('ok');
  });

  it('failures of two clients open the service circuit, by the run rule or the ratio rule', async () => {
    const run = harness();
    await settle(run.sendFor('key:reader'));
    run.fail((service) => failed(service, ErrorCode.UpstreamError, 503));
    await settle(run.sendFor('key:a'));
    await settle(run.sendFor('key:a'));
    await settle(run.sendFor('key:b'));
    expect(run.changes.map(({ state }) => state)).toEqual(['open']);
    expect(run.lines[0]).toMatch(/3 calls in a row failed, the last: UPSTREAM_ERROR, HTTP 503 for several clients/);

    const ratio = harness({ failures: 1000, failureRatio: 0.5, minimumCalls: 10 });
    for (let i = 0; i < 4 && ratio.changes.length === 0; i += 1) {
      ratio.succeed();
      await settle(ratio.sendFor('key:reader'));
      ratio.fail();
      await settle(ratio.sendFor('key:a'));
      await settle(ratio.sendFor('key:b'));
    }
    expect(ratio.changes.map(({ state }) => state)).toEqual(['open']);
    expect(ratio.lines[0]).toMatch(/^upstream translation: circuit open \(\d+ of its last 1\d calls failed/);
  });

  it("one client's failures with no other client answered open the service circuit, and another client's call, sent at once, decides", async () => {
    const h = harness();
    h.fail((service) => failed(service, ErrorCode.UpstreamError, 500));
    for (let i = 0; i < 3; i += 1) await settle(h.sendFor('key:hostile'));
    expect(h.changes.map(({ state }) => state)).toEqual(['open']);
    expect((await settle(h.sendFor('key:hostile'))).code).toBe('UPSTREAM_UNAVAILABLE');
    expect(h.sent).toHaveLength(3);
    // The reader's call goes out at once, tried once: answered, the failures were the hostile client's.
    h.succeed();
    expect((await settle(h.sendFor('key:reader'))).code).toBe('ok');
    expect(h.sent.at(-1)!.singleAttempt).toBe(true);
    expect(h.changes.map(({ state }) => state)).toEqual(['open', 'closed']);
    expect((await settle(h.sendFor('key:reader'))).code).toBe('ok');
    expect(h.sent.at(-1)!.singleAttempt).toBeUndefined();
    const own = await settle(h.sendFor('key:hostile'));
    expect(own.error!.message).toMatch(/failed this client's recent calls/);

    // The witness failing too: the service fails two clients, and the circuit stays open for everyone.
    const down = harness();
    down.fail();
    for (let i = 0; i < 3; i += 1) await settle(down.sendFor('key:a'));
    expect((await settle(down.sendFor('key:b'))).code).toBe('UPSTREAM_ERROR');
    expect((await settle(down.sendFor('key:c'))).code).toBe('UPSTREAM_UNAVAILABLE');
    expect(down.sent).toHaveLength(4);
    expect(down.changes.map(({ state }) => state)).toEqual(['open']);
    expect(down.lines[1]).toMatch(/another client's call failed too .*stays open/);

    // A probe failing for one client reopens it as that client's failure: another client's call decides again.
    down.advance(5000);
    down.fail((service) => failed(service, ErrorCode.UpstreamError, 500));
    expect((await settle(down.sendFor('key:hostile'))).code).toBe('UPSTREAM_ERROR');
    expect(down.changes.map(({ state }) => state)).toEqual(['open', 'half-open', 'open']);
    down.succeed();
    expect((await settle(down.sendFor('key:reader'))).code).toBe('ok');
    expect(down.changes.map(({ state }) => state)).toEqual(['open', 'half-open', 'open', 'closed']);
  });

  it('is off with failures 0: every call goes out', async () => {
    const h = harness({ failures: 0 });
    h.fail();
    for (let i = 0; i < 20; i += 1) await settle(h.send());
    expect(h.sent).toHaveLength(20);
    expect(h.changes).toEqual([]);
  });
});

describe('circuit breaker among the upstream steps', () => {
  const settings = (env: Record<string, string>) => readSettings({ UPSTREAM_RETRIES: '2', ...env });
  /** The upstream steps over a network stand-in that answers 503 while `down`, counting attempts; the breaker on `state.clock`. */
  function steps(env: Record<string, string>) {
    const state = { down: true, attempts: 0, clock: 1_000_000 };
    const network = (async () => {
      state.attempts += 1;
      return state.down ? new Response('{"error":"down"}', { status: 503 }) : new Response('{"translatedText":"x"}', { status: 200, headers: { 'content-type': 'application/json' } });
    }) as unknown as UpstreamCall['network'];
    const send = composeSteps(createUpstreamSteps({ settings: settings(env), observers: [], log: () => undefined, breakerClock: () => state.clock }));
    const call = (): Promise<{ code: string; error?: UpstreamError }> => settle(send({ ...callTo('translation'), network }));
    return { state, call };
  }

  it('sits outside the retries: a failed call counts once with all its attempts, a refused call makes none, a probe makes one', async () => {
    const { state, call } = steps({ UPSTREAM_BREAKER_FAILURES: '2', UPSTREAM_BREAKER_COOLDOWN_MS: '300', UPSTREAM_BREAKER_FAILURE_PERCENT: '0' });
    expect((await call()).code).toBe('UPSTREAM_ERROR');
    expect(state.attempts).toBe(3);
    expect((await call()).code).toBe('UPSTREAM_ERROR');
    expect(state.attempts).toBe(6);
    for (let i = 0; i < 5; i += 1) expect((await call()).code).toBe('UPSTREAM_UNAVAILABLE');
    expect(state.attempts).toBe(6);
    state.clock += 299;
    expect((await call()).code).toBe('UPSTREAM_UNAVAILABLE');
    state.clock += 1;
    expect((await call()).code).toBe('UPSTREAM_ERROR');
    expect(state.attempts).toBe(7);
    expect((await call()).code).toBe('UPSTREAM_UNAVAILABLE');
    state.clock += 300;
    state.down = false;
    for (let i = 0; i < 4; i += 1) expect((await call()).code).toBe('ok');
  });

  it('UPSTREAM_BREAKER_FAILURES=0 turns it off: every call is tried with its retries', async () => {
    const { state, call } = steps({ UPSTREAM_BREAKER_FAILURES: '0' });
    for (let i = 0; i < 8; i += 1) expect((await call()).code).toBe('UPSTREAM_ERROR');
    expect(state.attempts).toBe(24);
  });
});

describe('circuit breaker settings', () => {
  it('reads UPSTREAM_BREAKER_* (unset: the settings table\'s defaults) and refuses bad values naming the variable', () => {
    expect(readSettings({})).toMatchObject({ upstreamBreakerFailures: 5, upstreamBreakerCooldownMs: 10_000, upstreamBreakerFailurePercent: 50, upstreamBreakerWindowMs: 10_000 });
    expect(
      readSettings({ UPSTREAM_BREAKER_FAILURES: '0', UPSTREAM_BREAKER_COOLDOWN_MS: '2500', UPSTREAM_BREAKER_FAILURE_PERCENT: '75', UPSTREAM_BREAKER_WINDOW_MS: '30000' }),
    ).toMatchObject({ upstreamBreakerFailures: 0, upstreamBreakerCooldownMs: 2500, upstreamBreakerFailurePercent: 75, upstreamBreakerWindowMs: 30_000 });
    expect(() => readSettings({ UPSTREAM_BREAKER_FAILURES: '-1' })).toThrow(/^UPSTREAM_BREAKER_FAILURES: /);
    expect(() => readSettings({ UPSTREAM_BREAKER_COOLDOWN_MS: '0' })).toThrow(/^UPSTREAM_BREAKER_COOLDOWN_MS: /);
    expect(() => readSettings({ UPSTREAM_BREAKER_FAILURE_PERCENT: '101' })).toThrow(/^UPSTREAM_BREAKER_FAILURE_PERCENT: /);
    expect(() => readSettings({ UPSTREAM_BREAKER_WINDOW_MS: 'soon' })).toThrow(/^UPSTREAM_BREAKER_WINDOW_MS: /);
  });
});
