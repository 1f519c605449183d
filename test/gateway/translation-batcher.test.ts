import { createGraphQLError } from 'graphql-yoga';
import { describe, expect, it } from 'vitest';
import { ErrorCode, UpstreamError } from '../../src/gateway/errors.ts';
import { createTranslationBatcher, type BatchOptions, type TranslationBatcher } from '../../src/gateway/translation/translation-batcher.ts';
import { createCallGate } from '../../src/gateway/translation/translation-call-gate.ts';
import { createMemoryTranslationCache, type TranslationCache } from '../../src/gateway/translation/translation-cache.ts';

const ES: BatchOptions = { from: null, to: 'es', format: 'text' };

const refusal = () => new UpstreamError('refused', { code: ErrorCode.UpstreamBadRequest, service: 'translation', status: 400 });

/** An upstream that holds every call until released, and refuses (400) the calls `refuses` picks. */
function heldUpstream(refuses: (texts: string[]) => boolean) {
  const calls: string[][] = [];
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const send = async (_context: object, texts: string[], options: BatchOptions) => {
    calls.push(texts);
    await gate;
    if (refuses(texts)) throw refusal();
    return texts.map((text) => ({ text: `${options.to}:${text}`, detectedLanguage: null }));
  };
  return { calls, send, release };
}

/** A first request's call goes out; a second request asks for some of its texts meanwhile (joins). */
async function firstThenJoiner(batcher: TranslationBatcher<object>, firstTexts: string[], joinerTexts: string[], release: () => void) {
  const first = batcher.translate({}, firstTexts, ES);
  await new Promise((resolve) => setImmediate(resolve));
  const second = batcher.translate({}, joinerTexts, ES);
  await new Promise((resolve) => setImmediate(resolve));
  release();
  return Promise.all([first, second]);
}

/** A fake upstream: records each call, answers "<to>:<text>", optionally fails or waits. */
function fakeUpstream() {
  const calls: { texts: string[]; to: string }[] = [];
  let failWith: Error | undefined;
  let gate: Promise<void> | undefined;
  return {
    calls,
    failNext: (error: Error) => (failWith = error),
    hold: () => {
      let release!: () => void;
      gate = new Promise((resolve) => (release = resolve));
      return () => release();
    },
    send: async (_context: object, texts: string[], options: BatchOptions) => {
      calls.push({ texts, to: options.to });
      if (gate) await gate;
      if (failWith) {
        const error = failWith;
        failWith = undefined;
        throw error;
      }
      return texts.map((text) => ({ text: `${options.to}:${text}`, detectedLanguage: null }));
    },
  };
}

describe('createTranslationBatcher', () => {
  it('sends what one request queues in the same turn as one call, equal texts once', async () => {
    const upstream = fakeUpstream();
    const batcher = createTranslationBatcher({ cache: createMemoryTranslationCache(), batchSize: 50, concurrency: 4, send: upstream.send });
    const context = {};
    const [a, b] = await Promise.all([batcher.translate(context, ['x', 'y'], ES), batcher.translate(context, ['y', 'z'], ES)]);
    expect(upstream.calls).toEqual([{ texts: ['x', 'y', 'z'], to: 'es' }]);
    expect(a).toEqual([{ result: { text: 'es:x', detectedLanguage: null } }, { result: { text: 'es:y', detectedLanguage: null } }]);
    expect(b.map((outcome) => ('result' in outcome ? outcome.result.text : null))).toEqual(['es:y', 'es:z']);
  });

  it('answers every position of a call, a text asked twice in it included, and an empty call at once', async () => {
    const upstream = fakeUpstream();
    const cache = createMemoryTranslationCache();
    const batcher = createTranslationBatcher({ cache, batchSize: 50, concurrency: 4, send: upstream.send });
    await batcher.translate({}, ['cached'], ES);
    const context = {};
    const [repeated, empty] = await Promise.all([batcher.translate(context, ['x', 'cached', 'x', 'y'], ES), batcher.translate(context, [], ES)]);
    expect(repeated.map((outcome) => ('result' in outcome ? outcome.result.text : null))).toEqual(['es:x', 'es:cached', 'es:x', 'es:y']);
    expect(empty).toEqual([]);
    expect(upstream.calls.at(-1)).toEqual({ texts: ['x', 'y'], to: 'es' });
  });

  it('groups by target language and splits over the batch size into the fewest calls', async () => {
    const upstream = fakeUpstream();
    const batcher = createTranslationBatcher({ cache: createMemoryTranslationCache(), batchSize: 2, concurrency: 1, send: upstream.send });
    const context = {};
    await Promise.all([batcher.translate(context, ['a', 'b', 'c', 'd', 'e'], ES), batcher.translate(context, ['a'], { ...ES, to: 'fr' })]);
    expect(upstream.calls).toEqual([
      { texts: ['a', 'b'], to: 'es' },
      { texts: ['c', 'd'], to: 'es' },
      { texts: ['e'], to: 'es' },
      { texts: ['a'], to: 'fr' },
    ]);
  });

  it('serves repeated texts from the cache with no call', async () => {
    const upstream = fakeUpstream();
    const batcher = createTranslationBatcher({ cache: createMemoryTranslationCache(), batchSize: 50, concurrency: 4, send: upstream.send });
    await batcher.translate({}, ['x'], ES);
    const [again] = await batcher.translate({}, ['x'], ES);
    expect(upstream.calls).toHaveLength(1);
    expect(again).toEqual({ result: { text: 'es:x', detectedLanguage: null } });
  });

  it('lets a second request join a call already in flight for the same text', async () => {
    const upstream = fakeUpstream();
    const release = upstream.hold();
    const batcher = createTranslationBatcher({ cache: createMemoryTranslationCache(), batchSize: 50, concurrency: 4, send: upstream.send });
    const first = batcher.translate({}, ['x'], ES);
    await new Promise((resolve) => setImmediate(resolve));
    const second = batcher.translate({}, ['x', 'new'], ES);
    await new Promise((resolve) => setImmediate(resolve));
    release();
    await Promise.all([first, second]);
    expect(upstream.calls).toEqual([
      { texts: ['x'], to: 'es' },
      { texts: ['new'], to: 'es' },
    ]);
  });

  it('hands every text of a failed call the same failure, and caches nothing from it', async () => {
    const upstream = fakeUpstream();
    const cache = createMemoryTranslationCache();
    const batcher = createTranslationBatcher({ cache, batchSize: 50, concurrency: 4, send: upstream.send });
    upstream.failNext(createGraphQLError('down'));
    const outcomes = await batcher.translate({}, ['x', 'y'], ES);
    expect('failure' in outcomes[0] && 'failure' in outcomes[1] && outcomes[0].failure === outcomes[1].failure).toBe(true);
    expect(cache.size).toBe(0);
    const retried = await batcher.translate({}, ['x'], ES);
    expect(retried).toEqual([{ result: { text: 'es:x', detectedLanguage: null } }]);
  });

  it('hands a joiner the failure of the call it joined, with no call of its own (a service failure is everyone\'s)', async () => {
    const upstream = fakeUpstream();
    const release = upstream.hold();
    const batcher = createTranslationBatcher({ cache: createMemoryTranslationCache(), batchSize: 50, concurrency: 4, send: upstream.send });
    upstream.failNext(new UpstreamError('down', { code: ErrorCode.UpstreamError, service: 'translation', status: 503 }));
    const first = batcher.translate({}, ['shared', 'other'], ES);
    await new Promise((resolve) => setImmediate(resolve));
    const second = batcher.translate({}, ['shared'], ES);
    await new Promise((resolve) => setImmediate(resolve));
    release();
    const [firstOutcomes, secondOutcomes] = await Promise.all([first, second]);
    expect('failure' in firstOutcomes[0] && 'failure' in secondOutcomes[0]).toBe(true);
    // Before: the joiner sent each of its texts again, alone (one call per text per joiner).
    expect(upstream.calls.map((call) => call.texts)).toEqual([['shared', 'other']]);
  });

  it("never hands a joiner another request's bad text: a 400 is narrowed to the text it is about", async () => {
    const { calls, send, release } = heldUpstream((texts) => texts.includes('bad'));
    const batcher = createTranslationBatcher({ cache: createMemoryTranslationCache(), batchSize: 50, concurrency: 4, send });
    const [firstOutcomes, secondOutcomes] = await firstThenJoiner(batcher, ['shared', 'bad'], ['shared'], release);
    expect(secondOutcomes).toEqual([{ result: { text: 'es:shared', detectedLanguage: null } }]);
    expect(firstOutcomes[0]).toEqual({ result: { text: 'es:shared', detectedLanguage: null } });
    expect('failure' in firstOutcomes[1]).toBe(true);
    expect(calls).toEqual([['shared', 'bad'], ['shared'], ['bad']]);
  });

  it('re-sends, as one batch, the texts of a failure that belonged to the request it joined', async () => {
    const { calls, send, release } = heldUpstream(() => false);
    const callGate = createCallGate({ concurrency: 4, maxCallsPerRequest: 1 });
    const batcher = createTranslationBatcher({ cache: createMemoryTranslationCache(), batchSize: 2, concurrency: 4, gate: callGate, send });
    // The first request may make one call but needs two: its second call's texts fail for it alone.
    const [firstOutcomes, secondOutcomes] = await firstThenJoiner(batcher, ['a', 'b', 'c', 'd'], ['c', 'd'], release);
    expect(firstOutcomes.map((outcome) => 'result' in outcome)).toEqual([true, true, false, false]);
    expect(secondOutcomes).toEqual([
      { result: { text: 'es:c', detectedLanguage: null } },
      { result: { text: 'es:d', detectedLanguage: null } },
    ]);
    expect(calls).toEqual([['a', 'b'], ['c', 'd']]);
  });

  it('survives a cache that throws synchronously or never answers', async () => {
    const upstream = fakeUpstream();
    const throwing: TranslationCache = {
      getMany: () => {
        throw new Error('sync throw');
      },
      setMany: () => {
        throw new Error('sync throw');
      },
    };
    const hanging: TranslationCache = { getMany: () => new Promise(() => undefined), setMany: () => new Promise(() => undefined) };
    for (const cache of [throwing, hanging]) {
      const batcher = createTranslationBatcher({ cache, batchSize: 50, concurrency: 4, send: upstream.send });
      expect(await batcher.translate({}, ['x'], ES)).toEqual([{ result: { text: 'es:x', detectedLanguage: null } }]);
    }
  });

  it('treats a cache that fails as a miss', async () => {
    const upstream = fakeUpstream();
    const broken: TranslationCache = {
      getMany: () => Promise.reject(new Error('store down')),
      setMany: () => Promise.reject(new Error('store down')),
    };
    const batcher = createTranslationBatcher({ cache: broken, batchSize: 50, concurrency: 4, send: upstream.send });
    expect(await batcher.translate({}, ['x'], ES)).toEqual([{ result: { text: 'es:x', detectedLanguage: null } }]);
  });
});
