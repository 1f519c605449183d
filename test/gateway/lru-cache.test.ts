import { describe, expect, it } from 'vitest';
import { createLruCache } from '../../src/gateway/cache/lru-cache.ts';
import { createMemoryTranslationCache } from '../../src/gateway/translation/translation-cache.ts';

describe('createLruCache', () => {
  const sized = (maxBytes: number, ttlMs = 1000, clock = { now: 0 }) =>
    createLruCache<string>({ maxBytes, ttlMs, sizeOf: (_key, value) => value.length, now: () => clock.now });

  it('evicts the least recently used entries once over its byte bound', () => {
    const cache = sized(10);
    cache.set('a', 'xxxx');
    cache.set('b', 'xxxx');
    expect(cache.get('a')).toBe('xxxx'); // a is now the most recent
    cache.set('c', 'xxxx'); // 12 bytes > 10: b goes
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe('xxxx');
    expect(cache.get('c')).toBe('xxxx');
    expect(cache.bytes).toBe(8);
  });

  it('forgets entries after their TTL', () => {
    const clock = { now: 0 };
    const cache = sized(100, 1000, clock);
    cache.set('a', 'x');
    clock.now = 999;
    expect(cache.get('a')).toBe('x');
    clock.now = 1000;
    expect(cache.get('a')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('does not keep an entry larger than the whole cache, nor anything with TTL 0', () => {
    const cache = sized(3);
    cache.set('big', 'xxxx');
    expect(cache.size).toBe(0);
    const off = sized(100, 0);
    off.set('a', 'x');
    expect(off.get('a')).toBeUndefined();
  });

  it('replaces an entry without counting it twice', () => {
    const cache = sized(100);
    cache.set('a', 'xxxx');
    cache.set('a', 'xx');
    expect(cache.bytes).toBe(2);
    expect(cache.get('a')).toBe('xx');
  });
});

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
});
