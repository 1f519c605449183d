import { describe, expect, it } from 'vitest';
import { ErrorCode, UpstreamError } from '../../src/gateway/errors.ts';
import { createTranslationBatcher, type BatchOptions, type TranslationServedEvent } from '../../src/gateway/translation/translation-batcher.ts';
import { createMemoryTranslationCache } from '../../src/gateway/translation/translation-cache.ts';
import { createServiceLimits } from '../../src/gateway/translation/translation-limits.ts';
import { characters, joinParts, splitText } from '../../src/gateway/translation/text-parts.ts';

const ES: BatchOptions = { from: null, to: 'es', format: 'text' };

/** A LibreTranslate-like service: 400 past `batchLimit` texts or `charLimit` characters in one call. */
function limitedService({ batchLimit = Infinity, charLimit = Infinity }: { batchLimit?: number; charLimit?: number }) {
  const calls: { texts: string[]; refused: boolean }[] = [];
  const send = async (_context: object, texts: string[], options: BatchOptions) => {
    const chars = texts.reduce((sum, text) => sum + characters(text), 0);
    const refused = texts.length > batchLimit || chars > charLimit;
    calls.push({ texts, refused });
    if (refused) throw new UpstreamError('refused', { code: ErrorCode.UpstreamBadRequest, service: 'translation', status: 400 });
    return texts.map((text) => ({ text: `${options.to}:${text}`, detectedLanguage: null }));
  };
  return { calls, send };
}

const words = (count: number, prefix: string) => Array.from({ length: count }, (_, index) => `${prefix} text number ${index} to translate.`);

describe('translation limits learned from the service', () => {
  it('splits a refused batch, learns the batch limit, and sizes the next page to fit from the start', async () => {
    const service = limitedService({ batchLimit: 8 });
    const events: TranslationServedEvent[] = [];
    const batcher = createTranslationBatcher({
      cache: createMemoryTranslationCache(),
      batchSize: 200,
      concurrency: 4,
      send: service.send,
      onServed: (event) => events.push(event),
    });
    const first = await batcher.translate({}, words(100, 'first'), ES);
    expect(first.every((outcome) => 'result' in outcome)).toBe(true);
    expect(first.map((outcome) => ('result' in outcome ? outcome.result.text : null))).toEqual(words(100, 'first').map((text) => `es:${text}`));
    const minimum = Math.ceil(100 / 8);
    const cold = service.calls.length;
    console.info(`batch limit 8, 100 texts: ${cold} calls cold`);
    expect(cold).toBeLessThanOrEqual(minimum + 8);
    // Texts of one length cannot tell a count limit from a character limit: either sizes the calls right.
    expect(events[0].learned!.length).toBeGreaterThan(0);
    expect(events[0].splitCalls).toBeGreaterThan(0);

    service.calls.length = 0;
    await batcher.translate({}, words(100, 'second'), ES);
    expect(service.calls.every((call) => !call.refused)).toBe(true);
    expect(service.calls).toHaveLength(minimum);
  });

  it('learns a character limit per call, never goes over TRANSLATION_BATCH_SIZE, and stays right', async () => {
    const service = limitedService({ charLimit: 300 });
    const batcher = createTranslationBatcher({ cache: createMemoryTranslationCache(), batchSize: 50, concurrency: 4, send: service.send });
    const texts = words(120, 'chars');
    const outcomes = await batcher.translate({}, texts, ES);
    expect(outcomes.map((outcome) => ('result' in outcome ? outcome.result.text : null))).toEqual(texts.map((text) => `es:${text}`));
    expect(service.calls.every((call) => call.texts.length <= 50)).toBe(true);
    const totalChars = texts.reduce((sum, text) => sum + characters(text), 0);
    service.calls.length = 0;
    const again = words(120, 'again');
    await batcher.translate({}, again, ES);
    expect(service.calls.every((call) => !call.refused)).toBe(true);
    // Within 1/16 of the limit: at most a call or two over the minimum.
    expect(service.calls.length).toBeLessThanOrEqual(Math.ceil(again.reduce((sum, text) => sum + characters(text), 0) / 300) + 2);
    expect(totalChars).toBeGreaterThan(300);
  });

  it('cuts a text longer than the character limit at sentence boundaries, in the same batch, and joins it back whole', async () => {
    const service = limitedService({ charLimit: 200 });
    const limits = createServiceLimits();
    limits.published = 200;
    const batcher = createTranslationBatcher({ cache: createMemoryTranslationCache(), batchSize: 50, concurrency: 4, limits, send: service.send });
    const long = Array.from({ length: 12 }, (_, index) => `Sentence ${index} of a long statement.`).join(' ');
    const [outcome, short] = await batcher.translate({}, [long, 'Short.'], ES);
    expect(characters(long)).toBeGreaterThan(200);
    expect(outcome).toMatchObject({ result: { text: expect.stringContaining('es:Sentence 0') } });
    const text = 'result' in outcome ? outcome.result.text : '';
    expect(text.replace(/es:/g, '')).toBe(long);
    expect(short).toEqual({ result: { text: 'es:Short.', detectedLanguage: null } });
    expect(service.calls.every((call) => !call.refused)).toBe(true);
    expect(service.calls.length).toBe(2);
  });

  it('refuses only a text with a sentence over the limit, naming the limit', async () => {
    const service = limitedService({ charLimit: 100 });
    const limits = createServiceLimits();
    limits.published = 100;
    const batcher = createTranslationBatcher({ cache: createMemoryTranslationCache(), batchSize: 50, concurrency: 4, limits, send: service.send });
    const [long, fine] = await batcher.translate({}, ['x'.repeat(150), 'Fine.'], ES);
    expect(long).toMatchObject({ failure: { error: { extensions: { code: 'TEXT_TOO_LONG', limit: 100 } } } });
    expect('failure' in long && long.failure.error.message).toMatch(/100 characters, the character limit the translation service publishes/);
    expect(fine).toEqual({ result: { text: 'es:Fine.', detectedLanguage: null } });
  });

  it('sends nothing more after an unsupported language is found, and learns no limit from it', async () => {
    const calls: string[][] = [];
    const send = async (_context: object, texts: string[]) => {
      calls.push(texts);
      throw new UpstreamError('refused', { code: ErrorCode.UpstreamBadRequest, service: 'translation', status: 400 });
    };
    const limits = createServiceLimits();
    const unsupported = new UpstreamError('no such language', { code: ErrorCode.UnsupportedLanguage, service: 'translation', argument: 'to' });
    const batcher = createTranslationBatcher({
      cache: createMemoryTranslationCache(),
      batchSize: 200,
      concurrency: 4,
      limits,
      send,
      explainGroup: async () => unsupported,
    });
    const outcomes = await batcher.translate({}, words(150, 'zz'), { ...ES, to: 'zz' });
    expect(outcomes.every((outcome) => 'failure' in outcome && outcome.failure.error === unsupported)).toBe(true);
    expect(calls).toHaveLength(1);
    expect(limits.bad).toEqual({ texts: Infinity, chars: Infinity, longest: Infinity });
  });
});

describe('splitText', () => {
  it('cuts at paragraphs first, then sentences, into the fewest parts, and joins back to the original', () => {
    const text = 'First paragraph. It has two sentences.\n\nSecond paragraph is here. And more. And more still.';
    const cut = splitText(text, 40, 'text')!;
    expect(cut.parts.every((part) => characters(part) <= 40)).toBe(true);
    expect(cut.parts[0]).toBe('First paragraph. It has two sentences.');
    expect(joinParts(cut.parts, cut.separators)).toBe(text);
  });

  it('never cuts inside an HTML element', () => {
    const html = '<em data-p="0">One. Two. Three.</em> Four. Five.';
    const cut = splitText(html, 40, 'html')!;
    expect(cut.parts).toEqual(['<em data-p="0">One. Two. Three.</em>', 'Four. Five.']);
    expect(splitText('<em data-p="0">One sentence. Another sentence.</em>', 20, 'html')).toBeUndefined();
  });

  it('gives up on a sentence longer than the limit', () => {
    expect(splitText('a'.repeat(50), 20, 'text')).toBeUndefined();
  });
});
