import { createGraphQLError } from 'graphql-yoga';
import { describe, expect, it } from 'vitest';
import { createTranslationBatcher, type BatchOptions } from '../../src/gateway/translation/translation-batcher.ts';
import { createMemoryTranslationCache, type TranslationCache } from '../../src/gateway/translation/translation-cache.ts';

const ES: BatchOptions = { from: null, to: 'es', format: 'text' };

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

  it("does not hand one request another's failure: a joiner sends its text again, alone", async () => {
    const upstream = fakeUpstream();
    const release = upstream.hold();
    const batcher = createTranslationBatcher({ cache: createMemoryTranslationCache(), batchSize: 50, concurrency: 4, send: upstream.send });
    upstream.failNext(createGraphQLError('rejected because of a text only the first request sent'));
    const first = batcher.translate({}, ['shared', 'bad'], ES);
    await new Promise((resolve) => setImmediate(resolve));
    const second = batcher.translate({}, ['shared'], ES);
    await new Promise((resolve) => setImmediate(resolve));
    release();
    const [firstOutcomes, secondOutcomes] = await Promise.all([first, second]);
    expect('failure' in firstOutcomes[0]).toBe(true);
    expect(secondOutcomes).toEqual([{ result: { text: 'es:shared', detectedLanguage: null } }]);
    expect(upstream.calls.map((call) => call.texts)).toEqual([['shared', 'bad'], ['shared']]);
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
