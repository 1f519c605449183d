import { describe, expect, it } from 'vitest';
import { createMemoryTranslationCache } from '../../src/gateway/translation/translation-cache.ts';

describe('createMemoryTranslationCache', () => {
  it('keys by source, target, format and text', async () => {
    const cache = createMemoryTranslationCache();
    const key = { from: null, to: 'es', format: 'text' as const, text: 'Hello' };
    await cache.setMany([[key, { text: 'Hola', detectedLanguage: null }]]);
    const [same, otherTarget, otherFormat, otherSource, otherText] = await cache.getMany([
      key,
      { ...key, to: 'fr' },
      { ...key, format: 'html' },
      { ...key, from: 'en' },
      { ...key, text: 'Hello!' },
    ]);
    expect(same).toEqual({ text: 'Hola', detectedLanguage: null });
    expect([otherTarget, otherFormat, otherSource, otherText]).toEqual([undefined, undefined, undefined, undefined]);
  });

  const entry = (text: string) => [{ from: null, to: 'es', format: 'text' as const, text }, { text: 'x'.repeat(400), detectedLanguage: null }] as const;

  it('stays within its byte bound, dropping the least recently used first', async () => {
    const cache = createMemoryTranslationCache({ maxBytes: 4096 });
    for (let i = 0; i < 20; i += 1) await cache.setMany([[...entry(`text ${i}`)]]);
    // Each entry is about 1 KB (UTF-16): at most four fit.
    expect(cache.size).toBeLessThanOrEqual(4);
    expect((await cache.getMany([entry('text 19')[0]]))[0]).toBeDefined();
    expect((await cache.getMany([entry('text 0')[0]]))[0]).toBeUndefined();
  });

  it('forgets entries after the TTL, and keeps nothing with a TTL of 0', async () => {
    const clock = { now: 5000 };
    const cache = createMemoryTranslationCache({ ttlMs: 1000, now: () => clock.now });
    await cache.setMany([[...entry('a')]]);
    clock.now = 5999;
    expect((await cache.getMany([entry('a')[0]]))[0]).toBeDefined();
    clock.now = 6001;
    expect((await cache.getMany([entry('a')[0]]))[0]).toBeUndefined();
    const off = createMemoryTranslationCache({ ttlMs: 0 });
    await off.setMany([[...entry('a')]]);
    expect(off.size).toBe(0);
  });
});
