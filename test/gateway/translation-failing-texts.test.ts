import { describe, expect, it } from 'vitest';
import { ErrorCode, UpstreamError } from '../../src/gateway/errors.ts';
import { createFailingTexts } from '../../src/gateway/translation/failing-texts.ts';
import { createTranslationBatcher, type BatchOptions, type TranslationOutcome, type TranslationServedEvent } from '../../src/gateway/translation/translation-batcher.ts';
import { createMemoryTranslationCache } from '../../src/gateway/translation/translation-cache.ts';

const ES: BatchOptions = { from: null, to: 'es', format: 'text' };

/** A LibreTranslate-like service whose model raises on any text containing `BAD` (the whole call answers 500), or on every text while `down`. */
function raisingService() {
  const calls: string[][] = [];
  const state = { down: false };
  const send = async (_context: object, texts: string[], options: BatchOptions) => {
    calls.push(texts);
    if (state.down || texts.some((text) => text.includes('BAD'))) {
      throw new UpstreamError('The translation service failed (HTTP 500).', { code: ErrorCode.UpstreamError, service: 'translation', status: 500 });
    }
    return texts.map((text) => ({ text: `${options.to}:${text}`, detectedLanguage: null }));
  };
  return { calls, state, send };
}

const codeOf = (outcome: TranslationOutcome) => ('result' in outcome ? 'ok' : outcome.failure.error.extensions.code);
const texts = (count: number, prefix: string) => Array.from({ length: count }, (_, index) => `${prefix} text number ${index}.`);

function setUp() {
  let clock = 1_000_000;
  const service = raisingService();
  const events: TranslationServedEvent[] = [];
  const failingTexts = createFailingTexts({ ttlMs: 60_000, now: () => clock });
  const batcher = createTranslationBatcher({ cache: createMemoryTranslationCache(), batchSize: 50, concurrency: 4, failingTexts, send: service.send, onServed: (event) => events.push(event) });
  return { service, events, batcher, advance: (ms: number) => (clock += ms) };
}

describe('a text the translation service fails on (500) while it translates others', () => {
  it('is narrowed down from its call by halving: the others are translated, it alone fails, and it is not sent again', async () => {
    const { service, events, batcher } = setUp();
    const page = texts(20, 'page');
    page[13] = 'page BAD text';
    const outcomes = await batcher.translate({}, page, ES);
    expect(outcomes.map(codeOf)).toEqual(page.map((_, index) => (index === 13 ? 'TEXT_NOT_TRANSLATABLE' : 'ok')));
    expect(outcomes[0]).toEqual({ result: { text: 'es:page text number 0.', detectedLanguage: null } });
    // One call, then two per halving down to the text: 20 → 10 (10–19) → 5 (10–14) → 2 (13–14) → 1.
    expect(service.calls).toHaveLength(1 + 2 * 4);
    expect(events[0]).toMatchObject({ narrowedCalls: 4, failingTexts: 1 });
    const failure = outcomes[13] as { failure: { error: { message: string; extensions: Record<string, unknown> } } };
    expect(failure.failure.error.extensions).toEqual({ code: 'TEXT_NOT_TRANSLATABLE', service: 'translation', status: 500 });
    expect(failure.failure.error.message).toMatch(/^The translation service failed on this text of 13 characters \(HTTP 500\) while it translates others/);

    // Asked again, by any request: failed at once, no call carries it.
    service.calls.length = 0;
    const again = await batcher.translate({}, ['page BAD text', 'fresh text'], ES);
    expect(again.map(codeOf)).toEqual(['TEXT_NOT_TRANSLATABLE', 'ok']);
    expect(service.calls).toEqual([['fresh text']]);
    expect(events.at(-1)).toMatchObject({ knownFailing: 1, sent: 1 });
  });

  it('is remembered for a short while only: past its time it goes out again', async () => {
    const { service, batcher, advance } = setUp();
    await batcher.translate({}, ['one good text', 'one BAD text'], ES);
    advance(59_999);
    service.calls.length = 0;
    await batcher.translate({}, ['one BAD text'], ES);
    expect(service.calls).toEqual([]);
    advance(1);
    await batcher.translate({}, ['one BAD text'], ES);
    expect(service.calls).toEqual([['one BAD text']]);
  });

  it('alone in its call, is its own fault only when the service answered another call lately; else the service failed', async () => {
    const { service, batcher, advance } = setUp();
    // Nothing answered yet: the 500 is the service's, for all of the request's texts.
    expect((await batcher.translate({}, ['lonely BAD text'], ES)).map(codeOf)).toEqual(['UPSTREAM_ERROR']);
    service.calls.length = 0;
    expect((await batcher.translate({}, ['lonely BAD text'], ES)).map(codeOf)).toEqual(['UPSTREAM_ERROR']);
    expect(service.calls).toHaveLength(1);
    await batcher.translate({}, ['a good text'], ES);
    expect((await batcher.translate({}, ['lonely BAD text'], ES)).map(codeOf)).toEqual(['TEXT_NOT_TRANSLATABLE']);
    advance(10_000);
    expect((await batcher.translate({}, ['another BAD text'], ES)).map(codeOf)).toEqual(['UPSTREAM_ERROR']);
  });

  it('a service failing every call is not narrowed past the first halving, and nothing is remembered', async () => {
    const { service, events, batcher } = setUp();
    await batcher.translate({}, ['warm text'], ES);
    service.state.down = true;
    service.calls.length = 0;
    const outcomes = await batcher.translate({}, texts(20, 'down'), ES);
    expect(new Set(outcomes.map(codeOf))).toEqual(new Set(['UPSTREAM_ERROR']));
    expect(service.calls.map((call) => call.length)).toEqual([20, 10, 10]);
    expect(events.at(-1)).toMatchObject({ narrowedCalls: 1, failingTexts: 0 });
    service.state.down = false;
    service.calls.length = 0;
    expect((await batcher.translate({}, texts(20, 'down'), ES)).map(codeOf)).toEqual(texts(20, 'down').map(() => 'ok'));
    expect(service.calls).toHaveLength(1);
  });
});
