import { getEventListeners } from 'node:events';
import { PassThrough } from 'node:stream';
import { promiseHooks } from 'node:v8';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CallSignal } from '../../src/gateway/upstream/call-signal.ts';
import { retryUpstreamCalls } from '../../src/gateway/upstream/retries.ts';
import { watchSchemaDrift } from '../../src/gateway/schema/schema-drift.ts';
import { readSettings } from '../../src/gateway/settings.ts';
import { UpstreamAnswer } from '../../src/gateway/upstream/upstream-answer.ts';
import { withAnswerFace } from '../../src/gateway/upstream/upstream-fetch.ts';
import type { ServiceName } from '../../src/gateway/errors.ts';
import { composeSteps, composeStepsByService, sendByService } from '../../src/gateway/upstream/composed-call.ts';
import type { CallHooks, SendUpstream, ServiceStep, UpstreamCall } from '../../src/gateway/upstream/upstream-call.ts';
import { createUpstreamSteps, isReadOnly, useUpstreamCalls } from '../../src/gateway/upstream/upstream-calls.ts';

describe('isReadOnly', () => {
  it('takes the operation from the resolver info Mesh passes', () => {
    expect(isReadOnly({ operation: { operation: 'query' } }, 'anything')).toBe(true);
    expect(isReadOnly({ operation: { operation: 'mutation' } }, JSON.stringify({ query: '{ a }' }))).toBe(false);
  });

  it('without info, tells mutations and subscriptions from queries by the body', () => {
    expect(isReadOnly(undefined, JSON.stringify({ query: 'mutation { a }' }))).toBe(false);
    expect(isReadOnly(undefined, JSON.stringify({ query: '  subscription S { a }' }))).toBe(false);
    expect(isReadOnly(undefined, JSON.stringify({ query: 'query($id: ID!) { a(id: $id) }' }))).toBe(true);
    expect(isReadOnly(undefined, JSON.stringify({ query: '{ mutationCount }' }))).toBe(true);
    expect(isReadOnly(undefined, 'not json')).toBe(false);
    expect(isReadOnly(undefined, undefined)).toBe(false);
  });
});

describe('composeSteps', () => {
  const network = (async (url: string) => new Response(url)) as UpstreamCall['network'];
  const callTo = (service: ServiceName): UpstreamCall => ({ service, url: 'x', init: {}, context: undefined, info: undefined, readOnly: true, network });

  it('runs the hooks in list order, outermost first: enter in order, settled innermost first, each attempt watched with its own headers', async () => {
    const seen: string[] = [];
    const step = (name: string): CallHooks => ({
      enter: () => void seen.push(`${name}>`),
      settled: (_call, _ticket, answer) => void seen.push(`<${name} ${answer?.status}`),
    });
    const watch = (name: string): CallHooks => ({
      attempt(_call, headers) {
        headers[`x-${name}`] = String(Object.keys(headers).length);
        seen.push(`attempt ${name}`);
        return { answered: (status) => void seen.push(`${name} answered ${status}`), failed: () => undefined };
      },
    });
    const headersSent: Record<string, string>[] = [];
    const recording = (async (_url: string, init: RequestInit) => {
      headersSent.push(init.headers as Record<string, string>);
      return new Response('{}');
    }) as UpstreamCall['network'];
    const send = composeSteps([step('a'), step('b'), watch('c'), watch('d')]);
    const call = { ...callTo('problems'), init: { headers: { Authorization: 'k' } }, network: recording };
    expect((await send(call)).status).toBe(200);
    expect(seen).toEqual(['a>', 'b>', 'attempt c', 'attempt d', 'c answered 200', 'd answered 200', '<b 200', '<a 200']);
    // Each attempt's own lowercased copy: the call's headers are left as they were.
    expect(headersSent).toEqual([{ authorization: 'k', 'x-c': '1', 'x-d': '2' }]);
    expect(call.init.headers).toEqual({ Authorization: 'k' });
  });

  it("composes each service's function once: a step is asked per service when the list is composed, never per call, and one with nothing to do is left out", async () => {
    const asked: ServiceName[] = [];
    const seen: string[] = [];
    const problemsOnly: ServiceStep = {
      forService(service) {
        asked.push(service);
        if (service !== 'problems') return undefined;
        return { enter: (call) => void seen.push(`problems step for ${call.service}`) };
      },
    };
    const send = composeSteps([problemsOnly]);
    expect(asked).toEqual(['problems', 'translation']);
    expect(await (await send(callTo('problems'))).text()).toBe('x');
    expect(await (await send(callTo('translation'))).text()).toBe('x');
    expect(await (await send(callTo('problems'))).text()).toBe('x');
    expect(asked).toEqual(['problems', 'translation']);
    expect(seen).toEqual(['problems step for problems', 'problems step for problems']);
  });

  it('refuses a list whose steps are out of order (an inner step before an outer one) or a step acting at two depths', () => {
    const watch: CallHooks = { attempt: () => undefined };
    const entry: CallHooks = { enter: () => undefined };
    expect(() => composeSteps([watch, entry])).toThrow(/out of order for problems: a step that acts at depth 1 comes after one at depth 5/);
    expect(() => composeSteps([{ enter: () => undefined, attempt: () => undefined }])).toThrow(/several depths/);
    expect(() => composeSteps([entry, watch])).not.toThrow();
  });

  it('settles a refused call with the steps entered before the refusing one only, and sends nothing', async () => {
    const seen: string[] = [];
    let sent = 0;
    const refusing: CallHooks = {
      enter: () => {
        throw new Error('refused');
      },
      settled: () => void seen.push('refusing settled'),
    };
    const outer: CallHooks = { settled: (_call, _ticket, _answer, error) => void seen.push(`outer saw ${(error as Error).message}`) };
    const send = composeSteps([outer, refusing]);
    const counting = (async () => {
      sent += 1;
      return new Response('{}');
    }) as UpstreamCall['network'];
    await expect(send({ ...callTo('problems'), network: counting })).rejects.toThrow('refused');
    expect(seen).toEqual(['outer saw refused']);
    expect(sent).toBe(0);
  });
});

describe('what a call costs', () => {
  /**
   * Promises made from the call until its answer is back, over a network answering at once with
   * a body still to read (a stream, as undici's is): the steps' own share is what a call with the
   * network alone does not make.
   */
  async function promisesOf(send: SendUpstream, body: string): Promise<number> {
    const network = withAnswerFace(
      (() => Promise.reject(new Error('not used'))) as unknown as UpstreamCall['network'],
      () => {
        const stream = new PassThrough();
        stream.end(body);
        return Promise.resolve(new UpstreamAnswer({ status: 200, headers: [['content-type', 'application/json']], body: stream }));
      },
    );
    const call: UpstreamCall = { service: 'problems', url: 'http://problems.test/graphql', init: { method: 'POST', headers: { authorization: 'Bearer k' }, body }, context: undefined, info: undefined, readOnly: true, network };
    let made = 0;
    const stop = promiseHooks.onInit(() => {
      made += 1;
    });
    try {
      const answer = await send(call);
      await answer.text();
    } finally {
      stop();
    }
    return made;
  }

  it('every step idle (a cache miss, the breaker closed, no drift, one attempt, observed): the steps add only the body read and the cache keeping its answer', async () => {
    const ends: string[] = [];
    const observer = { upstreamCall: () => (end: { status: string }) => void ends.push(end.status) };
    const steps = createUpstreamSteps({
      settings: readSettings({}),
      observers: [observer],
      log: () => undefined,
      watch: [watchSchemaDrift(() => undefined)],
    });
    const composed = composeSteps(steps);
    const bare = composeSteps([]);
    // Warmed first: what a call makes once per process (a URL parsed) is out of the count.
    for (let i = 0; i < 3; i += 1) {
      await promisesOf(composed, `{"query":"{ a }","variables":{"i":${i}}}`);
      await promisesOf(bare, `{"query":"{ a }","variables":{"i":${i}}}`);
    }
    const network = await promisesOf(bare, '{"query":"{ a }","variables":{"i":-1}}');
    ends.length = 0;
    const all = await promisesOf(composed, '{"query":"{ a }","variables":{"i":-2}}');
    // The read of the body (its stream's promise and the reaction keeping its text) and the
    // problems cache's one reaction (keeping the answer, dropping the call in flight): a step
    // that awaits again, or makes a promise of its own, shows here; steps that did not run would
    // make none of them.
    expect(all - network).toBeGreaterThanOrEqual(1);
    expect(all - network).toBeLessThanOrEqual(2);
    // The steps ran: the attempt was observed, and the cache kept the answer (the same call again
    // is answered with no attempt, and with no promise beyond the network-less answer's).
    expect(ends).toEqual(['200']);
    await promisesOf(composed, '{"query":"{ a }","variables":{"i":-2}}');
    expect(ends).toEqual(['200']);
  });
});

describe("one engine's calls, Mesh's and forwarded", () => {
  /** A problems service whose answers wait for release(); a call aborted by its signal fails as undici's would. */
  function heldService() {
    const held: (() => void)[] = [];
    let sent = 0;
    const network = withAnswerFace(
      (() => Promise.reject(new Error('not used'))) as unknown as UpstreamCall['network'],
      (_url, init = {}) =>
        new Promise<UpstreamAnswer>((resolve, reject) => {
          sent += 1;
          const signal = init.signal as unknown as { aborted: boolean; reason: unknown; on(event: string, listener: () => void): void } | undefined;
          if (signal?.aborted) return reject(signal.reason);
          signal?.on('abort', () => reject(signal.reason));
          held.push(() => resolve(new UpstreamAnswer({ status: 200, headers: [['content-type', 'application/json']], body: '{"data":{"a":1}}' })));
        }),
    );
    return { network, release: () => held.splice(0).forEach((answer) => answer()), sent: () => sent };
  }

  /** The engine's composition, and Mesh's fetch as its plugin sets it for a problems query. */
  function engineOf(network: UpstreamCall['network']) {
    const engine = new AbortController();
    const chains = composeStepsByService(createUpstreamSteps({ settings: readSettings({}), observers: [], log: () => undefined }));
    const plugin = useUpstreamCalls([], chains, engine.signal);
    const meshFetch = (body: string, client: AbortSignal): Promise<Response> => {
      let fetchFn: ((url: string, init: RequestInit, context: unknown, info: unknown) => Promise<Response>) | undefined;
      const info = { sourceName: 'Problems', operation: { operation: 'query' } };
      const options = { method: 'POST', body, signal: client };
      plugin.onFetch!({ url: 'http://problems.test/graphql', options, context: {}, info, fetchFn: network, setFetchFn: (set: typeof fetchFn) => (fetchFn = set) } as never);
      return fetchFn!('http://problems.test/graphql', options, {}, info);
    };
    const forward = (body: string) =>
      sendByService(chains)({ service: 'problems', url: 'http://problems.test/graphql', init: { method: 'POST', body, signal: engine.signal }, context: {}, info: undefined, readOnly: true, network });
    return { engine, meshFetch, forward };
  }

  it("go through one composition of the steps: the engine's signal is listened to once, whichever way the calls came", async () => {
    const service = heldService();
    const { engine, meshFetch, forward } = engineOf(service.network);
    const calls = [meshFetch('{"query":"{ a }","variables":{"i":1}}', new AbortController().signal), forward('{"query":"{ a }","variables":{"i":2}}')];
    await new Promise((resolve) => setImmediate(resolve));
    expect(service.sent()).toBe(2);
    // Two compositions (one for Mesh's plugin, one for forwarding) would follow it twice.
    expect(getEventListeners(engine.signal, 'abort')).toHaveLength(1);
    service.release();
    expect((await Promise.all(calls)).map((each) => each.status)).toEqual([200, 200]);
  });

  it('a client that leaves cuts no call short, shared or not (Mesh\'s call ends with its answer as a forwarded one does); the engine\'s end does', async () => {
    const service = heldService();
    const { engine, meshFetch, forward } = engineOf(service.network);
    const body = '{"query":"{ a }","variables":{"i":3}}';
    const leaving = new AbortController();
    const staying = new AbortController();
    // The first makes the call, the second shares it in flight, then the first's client leaves.
    const first = meshFetch(body, leaving.signal);
    const second = meshFetch(body, staying.signal);
    const alone = meshFetch('{"query":"{ a }","variables":{"i":4}}', leaving.signal);
    await new Promise((resolve) => setImmediate(resolve));
    expect(service.sent()).toBe(2);
    leaving.abort(new Error('client gone'));
    await new Promise((resolve) => setImmediate(resolve));
    service.release();
    const answers = await Promise.all([first, second, alone]);
    expect(answers.map((each) => each.status)).toEqual([200, 200, 200]);
    expect(await answers[1].json()).toEqual({ data: { a: 1 } });

    const cut = [meshFetch('{"query":"{ a }","variables":{"i":5}}', staying.signal), forward('{"query":"{ a }","variables":{"i":6}}')];
    await new Promise((resolve) => setImmediate(resolve));
    engine.abort(new Error('engine disposed'));
    const outcomes = await Promise.allSettled(cut);
    expect(outcomes.map((each) => each.status)).toEqual(['rejected', 'rejected']);
  });
});

describe("a service's call budgets, under one timer", () => {
  afterEach(() => void vi.useRealTimers());

  it('each call runs out at its own deadline, in the order they started, a call that ended in between never', async () => {
    vi.useFakeTimers();
    const held: { signal: CallSignal; answer: () => void }[] = [];
    const network = withAnswerFace(
      (() => Promise.reject(new Error('not used'))) as unknown as UpstreamCall['network'],
      (_url, init = {}) =>
        new Promise<UpstreamAnswer>((resolve, reject) => {
          const signal = init.signal as unknown as CallSignal;
          signal.on('abort', () => reject(signal.reason));
          held.push({ signal, answer: () => resolve(new UpstreamAnswer({ status: 200, headers: [], body: '{}' })) });
        }),
    );
    const send = composeSteps([retryUpstreamCalls({ timeoutMs: { problems: 100, translation: 100 }, retries: 0 })]);
    const call = (): UpstreamCall => ({ service: 'problems', url: 'x', init: { method: 'POST', body: '{}' }, context: undefined, info: undefined, readOnly: false, network });
    const outcomes: string[] = [];
    const started: Promise<void>[] = [];
    for (const index of [0, 1, 2]) {
      if (index > 0) await vi.advanceTimersByTimeAsync(10);
      started.push(send(call()).then(() => void outcomes.push(`${index} answered`), (error: Error) => void outcomes.push(`${index} ${error.name}`)));
    }
    await vi.advanceTimersByTimeAsync(0);
    expect(held).toHaveLength(3);
    held[1].answer();
    // 99 ms after the first started: no budget is spent yet.
    await vi.advanceTimersByTimeAsync(79);
    expect(held.map((each) => each.signal.aborted)).toEqual([false, false, false]);
    await vi.advanceTimersByTimeAsync(1);
    expect(held.map((each) => each.signal.aborted)).toEqual([true, false, false]);
    await vi.advanceTimersByTimeAsync(19);
    expect(held.map((each) => each.signal.aborted)).toEqual([true, false, false]);
    await vi.advanceTimersByTimeAsync(1);
    expect(held.map((each) => each.signal.aborted)).toEqual([true, false, true]);
    await Promise.all(started);
    expect(outcomes).toEqual(['1 answered', '0 UpstreamTimeoutError', '2 UpstreamTimeoutError']);
  });
});
