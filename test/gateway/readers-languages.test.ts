import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { dataset } from '../../src/upstreams/problems/data/index.ts';
import { askWithHeaders } from '../helpers/ask-with-headers.ts';
import { startStack, type Stack } from '../helpers/start-stack.ts';

const ask = askWithHeaders;

const PAGE = /* GraphQL */ `{
  problems(first: 20) {
    nodes { id title statement translation { language title statement provenance { kind sourceLanguage madeAt stale } } }
  }
}`;

const ORIGINALS = new Map(dataset.problems.map((problem) => [problem.id, problem]));

describe("readers' languages: the request's Accept-Language when `to:` is omitted", () => {
  let stack: Stack;
  const translationCalls = () => stack.translation.stats.byRoute['POST /translate'] ?? 0;

  beforeAll(async () => {
    stack = await startStack({ settings: { problemsCacheTtlSeconds: 0 } });
  });
  afterAll(async () => {
    await stack?.close();
  });
  beforeEach(() => stack.translation.resetStats());

  it('gives a page of 20 asked with `pt-BR,es;q=0.8` in Portuguese, machine-made from detected English, with Content-Language and Vary', async () => {
    const started = performance.now();
    const page = await ask(stack.gatewayUrl, PAGE, { 'accept-language': 'pt-BR,es;q=0.8' });
    const coldMs = performance.now() - started;
    expect(page.status).toBe(200);
    expect(page.errors).toBeUndefined();
    const nodes = page.data.problems.nodes;
    expect(nodes).toHaveLength(20);
    for (const node of nodes) {
      expect(node.translation.language).toBe('pt');
      expect(node.translation.provenance).toEqual({ kind: 'MACHINE', sourceLanguage: 'en', madeAt: expect.any(String), stale: false });
      expect(Date.parse(node.translation.provenance.madeAt)).toBeGreaterThan(Date.now() - 60_000);
    }
    // The stand-in's glossary knows some words of every statement, not of every title.
    expect(nodes.every((node: { statement: string; translation: { statement: string } }) => node.translation.statement !== node.statement)).toBe(true);
    expect(page.headers.get('content-language')).toBe('pt');
    expect(page.headers.get('vary')).toMatch(/Accept-Language/);
    // One call for the whole page, as with an explicit `to:`.
    expect(translationCalls()).toBe(1);
    console.log(`[figures] cold page of 20 negotiated (pt): ${translationCalls()} POST /translate, ${coldMs.toFixed(0)} ms`);

    // Warm: the same translations, with the time they were made, not the time they were served again.
    const warm = await ask(stack.gatewayUrl, PAGE, { 'accept-language': 'pt-BR,es;q=0.8' });
    expect(warm.data).toEqual(page.data);
    expect(translationCalls()).toBe(1);
  });

  it('answers `x-klingon` with the originals marked as such: 200, no error, no call', async () => {
    // A gateway that has translated nothing yet does not know the problems' language.
    const fresh = await stack.addGateway({ settings: { problemsCacheTtlSeconds: 0 } });
    const page = await ask(fresh.gatewayUrl, PAGE, { 'accept-language': 'x-klingon' });
    expect(page.status).toBe(200);
    expect(page.errors).toBeUndefined();
    for (const node of page.data.problems.nodes) {
      expect(node.translation).toEqual({
        language: 'und',
        title: ORIGINALS.get(node.id)!.title,
        statement: ORIGINALS.get(node.id)!.statement,
        provenance: { kind: 'ORIGINAL', sourceLanguage: null, madeAt: null, stale: false },
      });
    }
    expect(translationCalls()).toBe(0);
    expect(page.headers.get('content-language')).toBeNull();
    expect(page.headers.get('vary')).toMatch(/Accept-Language/);
    // This one translated the page into Portuguese first: it says the originals' language, as the service detected it.
    const taught = await ask(stack.gatewayUrl, PAGE, { 'accept-language': 'x-klingon' });
    for (const node of taught.data.problems.nodes) {
      expect(node.translation).toMatchObject({ language: 'en', provenance: { kind: 'ORIGINAL', sourceLanguage: 'en' } });
    }
    expect(translationCalls()).toBe(0);
    await fresh.close();
  });

  it('answers a request without Accept-Language (and no default languages) with the originals too', async () => {
    const fresh = await stack.addGateway();
    const page = await ask(fresh.gatewayUrl, /* GraphQL */ `{ problem(id: "p1001") { translation { language provenance { kind } } } }`);
    expect(page.errors).toBeUndefined();
    expect(page.data.problem.translation).toEqual({ language: 'und', provenance: { kind: 'ORIGINAL' } });
    await fresh.close();
  });

  it('says Vary: Accept-Language on an answer the header chose even when the service fails its field (which costs that field only)', async () => {
    stack.translation.setFaults({ status: 500, routes: ['POST /translate'] });
    try {
      const answer = await ask(stack.gatewayUrl, /* GraphQL */ `{ problem(id: "p1099") { title translation { title } } }`, { 'accept-language': 'it' });
      expect(answer.status).toBe(200);
      expect(answer.data.problem).toEqual({ title: ORIGINALS.get('p1099')!.title, translation: null });
      expect(answer.errors).toEqual([expect.objectContaining({ path: ['problem', 'translation'] })]);
      expect(answer.headers.get('vary')).toMatch(/Accept-Language/);
    } finally {
      stack.translation.clearFaults();
    }
  });

  it('lets an explicit `to:` win over the header, and says nothing of the header then', async () => {
    const answer = await ask(stack.gatewayUrl, /* GraphQL */ `{ problem(id: "p1001") { translation(to: "fr") { language provenance { kind } } } }`, { 'accept-language': 'pt' });
    expect(answer.errors).toBeUndefined();
    expect(answer.data.problem.translation).toEqual({ language: 'fr', provenance: { kind: 'MACHINE' } });
    expect(answer.headers.get('content-language')).toBeNull();
    expect(answer.headers.get('vary') ?? '').not.toMatch(/Accept-Language/);
  });

  it('honours weights, refusals (q=0) and `*;q=0`, and serves the original when `from` already is a wanted language', async () => {
    const language = async (header: string, args = '') =>
      (await ask(stack.gatewayUrl, /* GraphQL */ `{ problem(id: "p1001") { translation${args} { language provenance { kind } } } }`, { 'accept-language': header })).data.problem.translation;
    expect(await language('fr;q=0.2, de;q=0.9, it;q=0.5')).toEqual({ language: 'de', provenance: { kind: 'MACHINE' } });
    expect(await language('de;q=0, fr;q=0.1')).toEqual({ language: 'fr', provenance: { kind: 'MACHINE' } });
    // zh-TW wants Traditional Chinese only, which the stand-in does not offer: next choice.
    expect(await language('zh-TW, it;q=0.4')).toEqual({ language: 'it', provenance: { kind: 'MACHINE' } });
    expect(await language('en-GB, es;q=0.5', '(from: "en")')).toEqual({ language: 'en', provenance: { kind: 'ORIGINAL' } });
  });

  it('translates `translate` and `translateMany` without `to:` into the reader\'s language, originals when none is offered', async () => {
    const query = /* GraphQL */ `{ translation {
      translate(text: "Find the shortest path.") { text language provenance { kind sourceLanguage madeAt stale } }
      translateMany(texts: ["the array", " "]) { text language provenance { kind } }
    } }`;
    const german = await ask(stack.gatewayUrl, query, { 'accept-language': 'de-AT;q=0.9, x-klingon' });
    expect(german.errors).toBeUndefined();
    expect(german.data.translation.translate).toMatchObject({ language: 'de', provenance: { kind: 'MACHINE', sourceLanguage: 'en', stale: false } });
    expect(german.data.translation.translate.text).not.toBe('Find the shortest path.');
    expect(german.data.translation.translateMany).toEqual([
      { text: expect.any(String), language: 'de', provenance: { kind: 'MACHINE' } },
      { text: ' ', language: 'de', provenance: { kind: 'ORIGINAL' } },
    ]);
    expect(german.headers.get('content-language')).toBe('de');

    const none = await ask(stack.gatewayUrl, query, { 'accept-language': 'tlh' });
    expect(none.status).toBe(200);
    expect(none.errors).toBeUndefined();
    // The German answer taught the gateway this text's language: the original says it.
    expect(none.data.translation.translate).toEqual({ text: 'Find the shortest path.', language: 'en', provenance: { kind: 'ORIGINAL', sourceLanguage: 'en', madeAt: null, stale: false } });
    const unknown = await ask(stack.gatewayUrl, /* GraphQL */ `{ translation { translate(text: "Report the length of the shortest route, never seen before.") { text language provenance { kind sourceLanguage } } } }`, { 'accept-language': 'tlh' });
    expect(unknown.data.translation.translate).toEqual({ text: 'Report the length of the shortest route, never seen before.', language: 'und', provenance: { kind: 'ORIGINAL', sourceLanguage: null } });
  });

  it('tries TRANSLATION_DEFAULT_LANGUAGES after the reader\'s own, and not after `*;q=0`', async () => {
    const withDefaults = await stack.addGateway({ settings: { translationDefaultLanguages: ['es-419', 'es', 'en'] } });
    const language = async (headers: Record<string, string>) =>
      (await ask(withDefaults.gatewayUrl, /* GraphQL */ `{ problem(id: "p1002") { translation { language provenance { kind } } } }`, headers)).data.problem.translation;
    expect(await language({ 'accept-language': 'x-klingon' })).toEqual({ language: 'es', provenance: { kind: 'MACHINE' } });
    expect(await language({})).toEqual({ language: 'es', provenance: { kind: 'MACHINE' } });
    expect(await language({ 'accept-language': 'fr' })).toEqual({ language: 'fr', provenance: { kind: 'MACHINE' } });
    // The first answer taught this gateway that p1002 is English: English is served as the original, with no call.
    expect(await language({ 'accept-language': 'es;q=0' })).toEqual({ language: 'en', provenance: { kind: 'ORIGINAL' } });
    expect(await language({ 'accept-language': 'tlh, *;q=0' })).toEqual({ language: 'en', provenance: { kind: 'ORIGINAL' } });
  });
});

describe("readers' languages: cached answers", () => {
  let stack: Stack;
  const translationCalls = () => stack.translation.stats.byRoute['POST /translate'] ?? 0;
  const QUERY = /* GraphQL */ `{ problem(id: "p1003") { title translation { language title } } }`;

  beforeAll(async () => {
    stack = await startStack({ settings: { problemsCacheTtlSeconds: 0, responseCacheTtlSeconds: 60 } });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('never hands one language\'s cached answer to a reader of another, and shares one between headers that negotiate alike', async () => {
    const portuguese = await ask(stack.gatewayUrl, QUERY, { 'accept-language': 'pt-BR,es;q=0.8' });
    const spanish = await ask(stack.gatewayUrl, QUERY, { 'accept-language': 'es' });
    expect(portuguese.data.problem.translation.language).toBe('pt');
    expect(spanish.data.problem.translation.language).toBe('es');
    expect(spanish.headers.get('etag')).not.toBe(portuguese.headers.get('etag'));
    stack.translation.resetStats();
    // The same preference written otherwise (case, spaces, weight 1 spelled out): the same entry, no call.
    const again = await ask(stack.gatewayUrl, QUERY, { 'accept-language': 'PT-br ; q=1.0 , es;q=0.8' });
    expect(again.data).toEqual(portuguese.data);
    expect(again.headers.get('etag')).toBe(portuguese.headers.get('etag'));
    expect(again.headers.get('content-language')).toBe('pt');
    expect(again.headers.get('vary')).toMatch(/Authorization.*Accept-Language/);
    expect(translationCalls()).toBe(0);
  });

  it('keys a query that cannot translate without the header: one entry for every reader', async () => {
    const query = /* GraphQL */ `{ problem(id: "p1004") { title } }`;
    const first = await ask(stack.gatewayUrl, query, { 'accept-language': 'pt' });
    const second = await ask(stack.gatewayUrl, query, { 'accept-language': 'de' });
    expect(second.headers.get('etag')).toBe(first.headers.get('etag'));
    expect(second.headers.get('vary')).toBe('Authorization');
    expect(second.headers.get('content-language')).toBeNull();
  });

  it('answers from the cache in the reader\'s language through yoga too (a GET, which the cache in front serves alike)', async () => {
    const url = `${stack.gatewayUrl}?query=${encodeURIComponent(QUERY)}`;
    const get = async (language: string) => {
      const response = await fetch(url, { headers: { accept: 'application/json', 'accept-language': language } });
      return { body: await response.json(), headers: response.headers };
    };
    const first = await get('it');
    const second = await get('it');
    expect(first.body.data.problem.translation.language).toBe('it');
    expect(second.body).toEqual(first.body);
    expect(second.headers.get('content-language')).toBe('it');
    // A batch goes through yoga, whose response cache plugin says the same.
    const batch = await fetch(stack.gatewayUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', 'accept-language': 'it' },
      body: JSON.stringify([{ query: QUERY }]),
    });
    expect((await batch.json())[0]).toEqual(first.body);
    expect(batch.headers.get('content-language')).toBe('it');
    expect(batch.headers.get('vary')).toMatch(/Accept-Language/);
  });
});

describe("readers' languages: hostile Accept-Language headers", () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack({ settings: { problemsCacheTtlSeconds: 0, responseCacheTtlSeconds: 60 } });
  });
  afterAll(async () => {
    await stack?.close();
  });

  const QUERY = /* GraphQL */ `{ problem(id: "p1005") { translation { language provenance { kind } } } }`;
  const hostile: [string, string][] = [
    ['malformed', ';;,,=q=;q=abc, es;q=2, -;, \u00e9s, pt;q=0.5x'],
    ['hundreds of tags (none offered)', Array.from({ length: 600 }, (_, index) => `x${index.toString(36).padStart(2, 'a')}`).join(',')],
    ['a tag after the first 1 KiB', `${'x-a, '.repeat(300)}es`],
    ['15 KB of one tag repeated', 'tlh;q=0.9, '.repeat(1400)],
  ];

  it.each(hostile)('answers %s with 200 and the originals (or a language read from the bounded part), never an error', async (_name, header) => {
    const started = performance.now();
    const answer = await ask(stack.gatewayUrl, QUERY, { 'accept-language': header });
    const ms = performance.now() - started;
    expect(answer.status).toBe(200);
    expect(answer.errors).toBeUndefined();
    expect(answer.data.problem.translation).toEqual({ language: 'und', provenance: { kind: 'ORIGINAL' } });
    console.log(`[figures] Accept-Language ${_name} (${header.length} chars): ${ms.toFixed(1)} ms`);
  });

  it('answers a page of 20 with as many tags as are read, half of them refused and none offered, with the originals', async () => {
    const letters = 'bcdghjklmnqrvwxyz';
    const tags = Array.from({ length: 40 }, (_, index) => `${letters[index % letters.length]}${letters[Math.floor(index / letters.length)]}`);
    const header = tags.map((tag, index) => (index % 2 ? `${tag};q=0` : `${tag};q=0.${(index % 9) + 1}`)).join(', ');
    const page = /* GraphQL */ `{ problems(first: 20) { nodes { translation { language provenance { kind } } } } }`;
    const started = performance.now();
    const answer = await ask(stack.gatewayUrl, page, { 'accept-language': header });
    const ms = performance.now() - started;
    expect(answer.status).toBe(200);
    expect(answer.errors).toBeUndefined();
    expect(answer.data.problems.nodes).toEqual(Array(20).fill({ translation: { language: 'und', provenance: { kind: 'ORIGINAL' } } }));
    console.log(`[figures] page of 20, Accept-Language of 40 unoffered tags (half q=0): ${ms.toFixed(1)} ms`);
  });

  it('reads a 100 KB header (past what node:http itself accepts, so through gateway.fetch) bounded, as an ordinary one', async () => {
    const header = `${'tlh, '.repeat(20_000)}de`;
    expect(header.length).toBeGreaterThan(100_000);
    const started = performance.now();
    const response = await stack.gateway.fetch(
      new Request('http://gateway.local/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'accept-language': header },
        body: JSON.stringify({ query: QUERY }),
      }),
    );
    const ms = performance.now() - started;
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ data: { problem: { translation: { language: 'und', provenance: { kind: 'ORIGINAL' } } } } });
    console.log(`[figures] Accept-Language of ${header.length} chars through gateway.fetch: ${ms.toFixed(1)} ms`);
  });
});
