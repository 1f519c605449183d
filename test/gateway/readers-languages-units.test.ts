import { describe, expect, it } from 'vitest';
import { MAX_HEADER_CHARS, MAX_TAGS, NO_PREFERENCE, readAcceptLanguage } from '../../src/gateway/translation/accept-language.ts';
import { parseCuratedFile } from '../../src/gateway/translation/curated/curated-file.ts';
import { languageChain, negotiateLanguage } from '../../src/gateway/translation/language-negotiation.ts';
import { createRedisTranslationCache } from '../../src/gateway/translation/redis-translation-cache.ts';
import { connectRedis } from '../../src/gateway/redis/redis-connection.ts';
import { startRedis } from '../helpers/redis-server.ts';
import { translationCacheKey } from '../../src/gateway/translation/translation-cache.ts';

const SHA = 'a'.repeat(64);

describe('Accept-Language, read bounded', () => {
  it('orders tags by weight, then as written; drops duplicates, q=0 tags and what is no tag', () => {
    expect(readAcceptLanguage('fr;q=0.2, de;q=0.9, pt-br, IT;q=0.9, de, x-klingon, es;q=0')).toEqual({
      tags: ['pt-BR', 'de', 'it', 'fr'],
      refused: ['es'],
      onlyListed: false,
      key: 'pt-BR,de,it,fr!es',
    });
    expect(readAcceptLanguage('*;q=0, en').onlyListed).toBe(true);
    expect(readAcceptLanguage('*, en').onlyListed).toBe(false);
  });

  it('gives no preference for an absent, empty or wholly unreadable header', () => {
    for (const header of [null, undefined, '', '   ', ';;,,', 'q=0.5', 'x-klingon, i-default', 'es;q=2, pt;q=-1, de;q=0.1234, fr;q=abc']) {
      expect(readAcceptLanguage(header)).toBe(NO_PREFERENCE);
    }
  });

  it('reads one equal preference from headers written differently, so caches share their entry', () => {
    const keys = new Set(['pt-BR,es;q=0.8', 'PT-br ; q=1.0 , es;q=0.8', 'pt_BR, es;q=0.80, pt-BR;q=0.1'].map((header) => readAcceptLanguage(header).key));
    expect(keys).toEqual(new Set(['pt-BR,es']));
  });

  it('reads at most the first 1 KiB and 32 tags of a header of any size', () => {
    const hundreds = Array.from({ length: 500 }, (_, index) => `a${String.fromCharCode(97 + (index % 26))}${String.fromCharCode(97 + Math.floor(index / 26))}`).join(',');
    const many = readAcceptLanguage(hundreds);
    expect(many.tags).toHaveLength(MAX_TAGS);
    expect(many.tags[0]).toBe('aaa');
    const past = readAcceptLanguage(`${'x-a, '.repeat(MAX_HEADER_CHARS / 4)}es`);
    expect(past.tags).toEqual([]);
    // 100 KB, cut at the last whole entry within the bound.
    const huge = readAcceptLanguage(`de, ${'en-GB-oxendict;q=0.5, '.repeat(5000)}`);
    expect(huge.tags).toEqual(['de', 'en-GB-oxendict']);
    expect(huge.key.length).toBeLessThan(MAX_HEADER_CHARS);
  });
});

describe('negotiating a language', () => {
  const offered = (codes: readonly string[] | undefined) => ({ calls: 0, offered() { this.calls += 1; return Promise.resolve(codes); } });

  it('tries the reader\'s tags, then the defaults, each as `to:` matches (pt-BR takes pt, zh-TW only Traditional)', async () => {
    const service = offered(['en', 'es', 'pt', 'zh-Hans']);
    const chain = languageChain(readAcceptLanguage('zh-TW, pt-BR;q=0.5'), ['es']);
    expect(chain).toEqual(['zh-TW', 'pt-BR', 'es']);
    expect(await negotiateLanguage(chain, [], service)).toEqual({ kind: 'machine', language: 'pt' });
    expect(await negotiateLanguage(['tlh'], [], service)).toBeUndefined();
    expect(await negotiateLanguage(languageChain(readAcceptLanguage('tlh, *;q=0'), ['es']), [], service)).toBeUndefined();
  });

  it('prefers a curated translation, then the original, before asking the service for its list', async () => {
    const service = offered(['es', 'fr']);
    expect(await negotiateLanguage(['es-MX', 'fr'], [], { ...service, curated: ['es'] })).toEqual({ kind: 'curated', language: 'es' });
    expect(await negotiateLanguage(['en-GB'], [], { ...service, source: 'en' })).toEqual({ kind: 'original', language: 'en' });
    expect(service.calls).toBe(0);
    expect(await negotiateLanguage(['fr', 'es'], [], { ...service, curated: ['es'] })).toEqual({ kind: 'machine', language: 'fr' });
  });

  it('never chooses a refused language, from the reader or the defaults', async () => {
    const reader = readAcceptLanguage('es;q=0, de;q=0.4');
    expect(await negotiateLanguage(languageChain(reader, ['es', 'en']), reader.refused, offered(['es', 'en', 'de']))).toEqual({ kind: 'machine', language: 'de' });
    expect(await negotiateLanguage(['es-419', 'en'], ['es'], { ...offered(['es', 'en']), curated: ['es-419'] })).toEqual({ kind: 'machine', language: 'en' });
  });

  it('sends the likely spelling of the first tag when the service\'s list cannot be had', async () => {
    expect(await negotiateLanguage(['pt-BR', 'es'], [], offered(undefined))).toEqual({ kind: 'machine', language: 'pt-BR' });
  });
});

describe('the curated file format', () => {
  it('reads the front matter and the statement', () => {
    expect(parseCuratedFile(`\uFEFF---\r\ntitle: "Suma: dos números"\r\nsource_sha256: ${SHA.toUpperCase()}\r\n# a comment\r\nsource_language: EN\r\nmade_at: 2026-03-01T10:00:00Z\r\n---\r\nEnunciado.\r\n\r\n$x$\r\n`)).toEqual({
      title: 'Suma: dos números',
      statement: 'Enunciado.\n\n$x$',
      sourceSha256: SHA,
      sourceLanguage: 'en',
      madeAt: Date.parse('2026-03-01T10:00:00Z'),
    });
  });

  it.each([
    ['no front matter', 'Enunciado.', /does not start with a front matter line/],
    ['no closing line', `---\ntitle: T\nsource_sha256: ${SHA}\nEnunciado.`, /no closing line/],
    ['no title', `---\nsource_sha256: ${SHA}\n---\nEnunciado.`, /no title/],
    ['no hash', '---\ntitle: T\n---\nEnunciado.', /no source_sha256 of 64 hex digits/],
    ['a short hash', '---\ntitle: T\nsource_sha256: abc\n---\nEnunciado.', /no source_sha256/],
    ['an unknown key', `---\ntitle: T\nsource_sha: ${SHA}\n---\nEnunciado.`, /line 3 is not one of title, source_sha256, source_language, made_at/],
    ['a key twice', `---\ntitle: T\ntitle: U\nsource_sha256: ${SHA}\n---\nEnunciado.`, /names "title" twice/],
    ['a bad date', `---\ntitle: T\nsource_sha256: ${SHA}\nmade_at: yesterday\n---\nEnunciado.`, /made_at "yesterday" is not an ISO 8601 date/],
    ['a bad language', `---\ntitle: T\nsource_sha256: ${SHA}\nsource_language: english!\n---\nEnunciado.`, /source_language "english!" is not a language tag/],
    ['no statement', `---\ntitle: T\nsource_sha256: ${SHA}\n---\n\n  \n`, /no statement/],
  ])('refuses a file with %s, saying why in one line', (_case, text, reason) => {
    const parsed = parseCuratedFile(text);
    expect(parsed).toEqual({ error: expect.stringMatching(reason) });
    expect((parsed as { error: string }).error).not.toMatch(/\n/);
  });
});

describe('the translation cache in Redis keeps when a translation was made', () => {
  it('reads entries written before the time was kept as translations of unknown age, and keeps the time of new ones', async () => {
    const server = await startRedis();
    const connection = await connectRedis({ url: server.url, timeoutMs: 150, log: () => undefined });
    try {
      const cache = createRedisTranslationCache(connection, { prefix: 'p', ttlMs: 60_000 });
      const old = { from: null, to: 'es', format: 'text' as const, text: 'the array' };
      const current = { ...old, text: 'the tree' };
      // What an earlier version wrote: no madeAt.
      await connection.client.set(`p:translation:${translationCacheKey(old)}`, JSON.stringify({ text: 'el arreglo', detectedLanguage: null }), 'PX', 60_000);
      await cache.setMany([[current, { text: 'el árbol', detectedLanguage: { code: 'en', confidence: 90 }, madeAt: 1_772_000_000_000 }]]);
      expect(await cache.getMany([old, current])).toEqual([
        { text: 'el arreglo', detectedLanguage: null },
        { text: 'el árbol', detectedLanguage: { code: 'en', confidence: 90 }, madeAt: 1_772_000_000_000 },
      ]);
    } finally {
      await connection.close();
      await server.stop();
    }
  });
});
