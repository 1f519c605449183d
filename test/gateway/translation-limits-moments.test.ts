import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, UpstreamError } from '../../src/gateway/errors.ts';
import { createTranslationBatcher, type BatchOptions } from '../../src/gateway/translation/translation-batcher.ts';
import { createMemoryTranslationCache } from '../../src/gateway/translation/translation-cache.ts';
import { LEARNED_LIMIT_TTL_MS, createServiceLimits, limitNamedIn, limitsInForce } from '../../src/gateway/translation/translation-limits.ts';
import { characters } from '../../src/gateway/translation/text-parts.ts';
import { startStack, type Stack } from '../helpers/start-stack.ts';

/**
 * Learned limits against a service whose faults the test switches: a burst of 400s teaches nothing
 * that outlives it, a limit is never learned below what the service accepted, and a limit that held
 * expires and is tried again.
 */
const ES: BatchOptions = { from: null, to: 'es', format: 'text' };

/** A service that refuses (400) calls while `refuse(texts)` says so, and translates the others. */
function switchableService() {
  const calls: { texts: string[]; refused: boolean }[] = [];
  const state = { refuse: (_texts: string[]) => false };
  const send = async (_context: object, texts: string[], options: BatchOptions) => {
    const refused = state.refuse(texts);
    calls.push({ texts, refused });
    if (refused) throw new UpstreamError('refused', { code: ErrorCode.UpstreamBadRequest, service: 'translation', status: 400 });
    return texts.map((text) => ({ text: `${options.to}:${text}`, detectedLanguage: null }));
  };
  return { calls, state, send };
}

/** `count` texts, one sentence each (no cut point), of lengths spread from `shortest` to `longest`. */
const texts = (count: number, shortest: number, longest: number, tag: string) =>
  Array.from({ length: count }, (_, index) => {
    const length = Math.round(shortest + ((longest - shortest) * index) / Math.max(1, count - 1));
    return `${tag}${index} ${'w'.repeat(length)}`.slice(0, length);
  });

const translated = (outcomes: Awaited<ReturnType<ReturnType<typeof createTranslationBatcher>['translate']>>) =>
  outcomes.every((outcome) => 'result' in outcome);

describe('learned translation limits that do not outlive their moment', () => {
  it('learns nothing from a burst of 400s on a cold gateway: a long text is sent and translated once the service recovers', async () => {
    const service = switchableService();
    const limits = createServiceLimits();
    const batcher = createTranslationBatcher({ cache: createMemoryTranslationCache(), batchSize: 200, concurrency: 4, limits, send: service.send });
    service.state.refuse = () => true;
    const burst = await batcher.translate({}, texts(30, 20, 400, 'a'), ES);
    expect(burst.every((outcome) => 'failure' in outcome)).toBe(true);
    expect(limits.bad).toEqual({ texts: Infinity, chars: Infinity, longest: Infinity });

    service.state.refuse = () => false;
    service.calls.length = 0;
    const long = 'x'.repeat(2000);
    const after = await batcher.translate({}, [long, ...texts(10, 20, 400, 'b')], ES);
    expect(translated(after)).toBe(true);
    expect(service.calls).toHaveLength(1);
  });

  it('learns nothing from a burst on a warm gateway, even for texts longer than any accepted', async () => {
    const service = switchableService();
    const limits = createServiceLimits();
    const batcher = createTranslationBatcher({ cache: createMemoryTranslationCache(), batchSize: 200, concurrency: 4, limits, send: service.send });
    expect(translated(await batcher.translate({}, texts(10, 20, 100, 'warm'), ES))).toBe(true);
    service.state.refuse = () => true;
    // Longer than anything accepted: refused alone, each looks like a limit on one text.
    await batcher.translate({}, [...texts(10, 20, 100, 'small'), 'y'.repeat(150), 'z'.repeat(200)], ES);
    expect(limits.bad).toEqual({ texts: Infinity, chars: Infinity, longest: Infinity });
    service.state.refuse = () => false;
    service.calls.length = 0;
    expect(translated(await batcher.translate({}, ['y'.repeat(160), 'z'.repeat(1998)], ES))).toBe(true);
    expect(service.calls).toHaveLength(1);
  });

  it('never learns a limit below what the service already accepted', async () => {
    const service = switchableService();
    const limits = createServiceLimits();
    const batcher = createTranslationBatcher({ cache: createMemoryTranslationCache(), batchSize: 200, concurrency: 4, limits, send: service.send });
    // Accepted: 10 texts, 1,000 characters in one call.
    expect(translated(await batcher.translate({}, texts(10, 100, 100, 'ok'), ES))).toBe(true);
    expect(limits.ok).toMatchObject({ texts: 10, chars: 1000 });
    // Then calls of more than 3 texts are refused for a while (whatever the reason), smaller ones pass.
    service.state.refuse = (sent) => sent.length > 3;
    await batcher.translate({}, texts(8, 60, 60, 'later'), ES);
    expect(limits.bad.texts === Infinity || limits.bad.texts > limits.ok.texts).toBe(true);
    expect(limits.bad.chars === Infinity || limits.bad.chars > limits.ok.chars).toBe(true);
  });

  it('learns a limit that holds consistently, reports its age, and tries full-size calls again once it expires', async () => {
    const clock = { now: 1_000_000 };
    const service = switchableService();
    const limits = createServiceLimits({ now: () => clock.now });
    const batcher = createTranslationBatcher({ cache: createMemoryTranslationCache(), batchSize: 200, concurrency: 4, limits, send: service.send });
    const charLimit = 300;
    service.state.refuse = (sent) => sent.reduce((sum, text) => sum + characters(text), 0) > charLimit;
    expect(translated(await batcher.translate({}, texts(40, 30, 60, 'first'), ES))).toBe(true);
    expect(limits.ok.chars).toBeLessThanOrEqual(charLimit);
    expect(limits.bad.chars).toBeGreaterThan(charLimit);
    clock.now += 60_000;
    expect(limitsInForce(limits)).toContainEqual({ limit: 'chars', value: limits.bad.chars - 1, ageSeconds: 60 });

    // The service's limit is lifted; past the TTL the gateway sends whole calls again.
    service.state.refuse = () => false;
    clock.now += LEARNED_LIMIT_TTL_MS;
    service.calls.length = 0;
    expect(translated(await batcher.translate({}, texts(40, 30, 60, 'second'), ES))).toBe(true);
    expect(service.calls).toHaveLength(1);
    expect(limitsInForce(limits)).toEqual([]);
  });
});

describe('limitNamedIn', () => {
  const shape = { texts: 20, chars: 1500, longest: 200 };
  it("reads LibreTranslate's refusal for either measure, and nothing else", () => {
    expect(limitNamedIn('Invalid request: request (20) exceeds text limit (3)', shape)).toEqual({ measure: 'texts', limit: 3 });
    expect(limitNamedIn('Invalid request: request (1500) exceeds text limit (1000)', shape)).toEqual({ measure: 'chars', limit: 1000 });
    expect(limitNamedIn('Invalid request: request (77) exceeds text limit (3)', shape)).toBeUndefined();
    expect(limitNamedIn('Invalid request: request (20) exceeds text limit (30)', shape)).toBeUndefined();
    expect(limitNamedIn('Language not supported', shape)).toBeUndefined();
    expect(limitNamedIn(undefined, shape)).toBeUndefined();
  });
});

describe('learned translation limits, through the gateway, against the stand-in', () => {
  const page = (to: string) => /* GraphQL */ `{ problems(first: 20) { nodes { id translation(to: "${to}") { title statement } } } }`;
  const oneSentence = /* GraphQL */ `query ($t: String!) { translation { translate(text: $t, to: "de", from: "en") { text } } }`;
  // The stand-ins, started once for both.
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ settings: { problemsCacheTtlSeconds: 0 } });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('after a burst of 400s on a cold gateway, translates pages and long texts again once the service recovers', async () => {
    const translateCalls = () => stack.translation.stats.byRoute['POST /translate'] ?? 0;
    stack.translation.setFaults({ status: 400, routes: ['POST /translate'] });
    const burst = await stack.query(page('es'));
    expect(burst.errors?.length).toBeGreaterThan(0);
    console.info(`burst page: ${translateCalls()} calls refused`);
    stack.translation.clearFaults();
    stack.translation.resetStats();

    const recovered = await stack.query(page('fr'));
    expect(recovered.errors).toBeUndefined();
    const long = await stack.query(oneSentence, { t: 'word '.repeat(400).trim() });
    expect(long.errors).toBeUndefined();
    expect(long.data.translation.translate.text.length).toBeGreaterThan(0);
    console.info(`after recovery: ${translateCalls()} calls, no error`);
    expect(translateCalls()).toBeGreaterThanOrEqual(2);
    const metrics = await stack.gateway.metrics.metrics();
    expect(metrics).not.toMatch(/^gateway_translation_limit\{/m);
  });

  it('reports a limit the service holds to, with its age, in metrics', async () => {
    // A gateway of its own: one that saw the service accept larger calls would not learn a smaller limit.
    const fresh = await stack.addGateway({ settings: { problemsCacheTtlSeconds: 0 } });
    stack.translation.configure({ batchLimit: 3, frontendSettings: false });
    expect((await fresh.query(page('es'))).errors).toBeUndefined();
    const metrics = await fresh.gateway.metrics.metrics();
    // The stand-in names its limit as LibreTranslate does ("request (20) exceeds text limit (3)").
    expect(metrics).toMatch(/^gateway_translation_limit\{limit="texts"\} 3$/m);
    expect(metrics).toMatch(/^gateway_translation_limit_age_seconds\{limit="texts"\} [\d.e-]+$/m);
  });
});
