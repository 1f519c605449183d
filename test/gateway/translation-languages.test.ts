import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { listen, type RunningServer } from '../../src/shared/listen.ts';
import { recordUpstreamRequests } from '../helpers/record-upstream-requests.ts';
import { startStack, type Stack } from '../helpers/start-stack.ts';

/**
 * Language arguments as people type them, at every place a language is taken: `translate`,
 * `translateMany` and the Problem.translation link, `to` and `from`. The stand-in offers de, en, es,
 * fr, it, pt; a second service, LibreTranslate-shaped, offers the regional and script codes recent
 * LibreTranslate versions list, and records the codes it receives.
 */
describe('language arguments', () => {
  let stack: Stack;
  const translateBodies = () => stack.translation.stats.lastRequests.filter((request) => request.path === '/translate').map((request) => request.body as Record<string, unknown>);

  /** Sends the query and returns the answer with what each stand-in received meanwhile. */
  async function send(query: string, variables?: Record<string, unknown>) {
    const recording = recordUpstreamRequests(stack);
    try {
      return { ...(await stack.query(query, variables)), upstream: recording.seen };
    } finally {
      recording.stop();
    }
  }

  beforeAll(async () => {
    stack = await startStack({ settings: { translationCacheTtlSeconds: 0, problemsCacheTtlSeconds: 0 } });
    // The language list, fetched once per gateway and hour, is known from here on.
    expect((await stack.query('{ translation { languages { code } } }')).data.translation.languages).toHaveLength(6);
  });
  afterAll(async () => {
    await stack?.close();
  });
  beforeEach(() => {
    stack.translation.resetStats();
  });

  it('MUST translate into `ES`, `Es`, `es`, `es-419` and `es_ES` alike, sending the service its own code `es`', async () => {
    const spellings = ['ES', 'Es', 'es', 'eS', 'es-419', 'es_ES', 'ES-es'];
    const fields = spellings.map((to, index) => `t${index}: translate(text: "Print the sum.", to: "${to}") { text }`);
    const result = await stack.query(`{ translation { ${fields.join(' ')} } }`);
    expect(result.errors).toBeUndefined();
    expect(new Set(Object.values(result.data.translation).map((answer: any) => answer.text))).toEqual(new Set(['Imprime la suma.']));
    // One language, so one batch group and one call.
    expect(translateBodies()).toEqual([expect.objectContaining({ target: 'es', source: 'auto', q: ['Print the sum.'] })]);
  });

  it('MUST read `from` in any case, with a region, or as `auto` in any case', async () => {
    for (const from of ['EN', 'en-US', 'en_gb', 'Auto', 'AUTO']) {
      const result = await stack.query(`{ translation { translateMany(texts: ["Print the sum."], to: "FR", from: "${from}") { text } } }`);
      expect(result.errors, from).toBeUndefined();
      expect(result.data.translation.translateMany[0].text).toBe('Affichez la somme.');
    }
    expect(translateBodies().map((body) => [body.source, body.target])).toEqual([
      ['en', 'fr'],
      ['en', 'fr'],
      ['en', 'fr'],
      ['auto', 'fr'],
      ['auto', 'fr'],
    ]);
  });

  it('MUST map the link\'s `to: "PT-br"` to the `pt` the service offers, and say so in `language`', async () => {
    const result = await stack.query('{ problem(id: "p1001") { translation(to: "PT-br", from: "En") { language title } } }');
    expect(result.errors).toBeUndefined();
    expect(result.data.problem.translation.language).toBe('pt');
    expect(translateBodies()).toEqual([expect.objectContaining({ source: 'en', target: 'pt', format: 'html' })]);
  });

  it('MUST answer a language the service does not offer with UNSUPPORTED_LANGUAGE naming the tag as given and the languages offered, without any upstream call', async () => {
    for (const [argument, given, query] of [
      ['to', 'TLH', '{ translation { translate(text: "Print the sum.", to: "TLH") { text } } }'],
      ['to', 'zh-Hant', '{ translation { translateMany(texts: ["Print the sum."], to: "zh-Hant") { text } } }'],
      ['from', 'Xx-YY', '{ translation { translate(text: "Print the sum.", to: "es", from: "Xx-YY") { text } } }'],
    ] as const) {
      const result = await send(query);
      expect(result.status).toBe(200);
      expect(result.errors).toHaveLength(1);
      expect(result.errors![0].extensions).toEqual({ code: 'UNSUPPORTED_LANGUAGE', service: 'translation', argument });
      expect(result.errors![0].message).toBe(`The translation service does not offer "${given}" for \`${argument}\`; it offers: de, en, es, fr, it, pt.`);
      expect(result.upstream.translation).toEqual([]);
    }
  });

  it('gives a text asked in the language `from` names back as it is, with no call and no error', async () => {
    const result = await send('{ translation { translate(text: "Print the sum.", to: "EN", from: "en") { text } } }');
    expect(result.errors).toBeUndefined();
    expect(result.data).toEqual({ translation: { translate: { text: 'Print the sum.' } } });
    expect(result.upstream.translation).toEqual([]);
  });

  it('MUST refuse an unsupported language once for a whole page of the link, with no translation call', async () => {
    const result = await send('{ problems(first: 5) { nodes { id translation(to: "KL") { title } } } }');
    expect(result.data.problems.nodes.map((node: any) => node.translation)).toEqual([null, null, null, null, null]);
    expect(result.errors).toHaveLength(1);
    expect(result.errors![0]).toMatchObject({ path: ['problems', 'nodes', 0, 'translation'], extensions: { code: 'UNSUPPORTED_LANGUAGE', argument: 'to' } });
    expect(result.upstream.translation).toEqual([]);
  });

  it('MUST refuse what is not a language tag with 400 BAD_USER_INPUT naming the argument, before any upstream call', async () => {
    const cases: [string, string, string][] = [
      ['to', '{ translation { translate(text: "Print the sum.", to: $v) { text } } }', 'e s'],
      ['to', '{ translation { translate(text: "Print the sum.", to: $v) { text } } }', 'english!!'],
      ['to', '{ translation { translateMany(texts: ["Print the sum."], to: $v) { text } } }', ''],
      ['to', '{ translation { translate(text: "Print the sum.", to: $v) { text } } }', 'auto'],
      ['from', '{ translation { translate(text: "Print the sum.", to: "es", from: $v) { text } } }', 'Spanish'],
      ['to', '{ problem(id: "p1001") { id translation(to: $v) { title } } }', 'es!'],
      ['from', '{ problems(first: 2) { nodes { translation(to: "es", from: $v) { title } } } }', '12'],
    ];
    for (const [argument, selection, value] of cases) {
      const result = await send(`query ($v: String!) ${selection}`, { v: value });
      expect(result.status, value).toBe(400);
      expect(result.data).toBeUndefined();
      expect(result.errors).toHaveLength(1);
      expect(result.errors![0].extensions).toEqual({ code: 'BAD_USER_INPUT', argument });
      expect(result.errors![0].message).toBe(
        `Argument "${argument}" must be a language tag such as "es", "pt-BR" or "zh-Hant" (BCP 47, in any case); got ${JSON.stringify(value)}${
          value === 'auto' ? ' ("auto", automatic detection, is for `from` only)' : ''
        }.`,
      );
      expect(result.upstream).toEqual({ problems: [], translation: [] });
    }
  });

  it('MUST still translate `to: "ES"` when the language list cannot be had, sending the likely code', async () => {
    stack.translation.setFaults({ status: 500, routes: ['GET /languages'] });
    try {
      const fresh = await stack.addGateway({ settings: { translationCacheTtlSeconds: 0 } });
      const result = await fresh.query('{ translation { translate(text: "Print the sum.", to: "ES", from: "EN") { text } } }');
      expect(result.errors).toBeUndefined();
      expect(result.data.translation.translate.text).toBe('Imprime la suma.');
      expect(translateBodies()).toEqual([expect.objectContaining({ source: 'en', target: 'es' })]);
    } finally {
      stack.translation.clearFaults();
    }
  });

  describe('against a service offering regional and script codes', () => {
    let service: RunningServer;
    let received: { path: string; body: Record<string, unknown> }[] = [];
    const languages = ['en', 'es', 'pt', 'pt-BR', 'zh-Hans', 'zh-Hant'];
    let gateway: Awaited<ReturnType<Stack['addGateway']>>;

    beforeAll(async () => {
      // Answers as LibreTranslate does, marking each translation with the code it was asked for.
      service = await listen((request: IncomingMessage, response: ServerResponse) => {
        let raw = '';
        request.on('data', (chunk) => (raw += chunk));
        request.on('end', () => {
          const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
          received.push({ path: request.url ?? '', body });
          const answer =
            request.url === '/languages'
              ? languages.map((code) => ({ code, name: code, targets: languages.filter((other) => other !== code) }))
              : request.url === '/translate'
                ? { translatedText: (body.q as string[]).map((text) => `[${body.target}] ${text}`) }
                : request.url === '/detect'
                  ? [{ language: 'zh-Hant', confidence: 90 }]
                  : undefined;
          response.writeHead(answer ? 200 : 404, { 'content-type': 'application/json' });
          response.end(JSON.stringify(answer ?? { error: 'not found' }));
        });
      });
      gateway = await stack.addGateway({ settings: { translationUrl: service.url, translationCacheTtlSeconds: 0 } });
    });
    afterAll(async () => {
      await service?.close();
    });
    beforeEach(() => {
      received = [];
    });

    const targetsSent = () => received.filter((call) => call.path === '/translate').map((call) => call.body.target);

    it('MUST send the service\'s own code for every spelling of a tag', async () => {
      const spellings: [string, string][] = [
        ['pt-BR', 'pt-BR'],
        ['PT-br', 'pt-BR'],
        ['pt_BR', 'pt-BR'],
        ['PT', 'pt'],
        ['pt-PT', 'pt'],
        ['zh-hans', 'zh-Hans'],
        ['ZH-CN', 'zh-Hans'],
        ['zh', 'zh-Hans'],
        ['zh-hant', 'zh-Hant'],
        ['zh-TW', 'zh-Hant'],
        ['Es-MX', 'es'],
      ];
      for (const [to, code] of spellings) {
        received = [];
        const result = await gateway.query(`{ translation { translate(text: "Hello.", to: "${to}") { text } } }`);
        expect(result.errors, to).toBeUndefined();
        expect(result.data.translation.translate.text).toBe(`[${code}] Hello.`);
        expect(targetsSent(), to).toEqual([code]);
      }
    });

    it('MUST take a detected code back as `from`, as the service gave it', async () => {
      const detected = await gateway.query('{ translation { detect(text: "你好") { code } } }');
      const code = detected.data.translation.detect[0].code;
      expect(code).toBe('zh-Hant');
      received = [];
      const result = await gateway.query(`{ translation { translate(text: "你好", to: "en", from: "${code.toUpperCase()}") { text } } }`);
      expect(result.errors).toBeUndefined();
      expect(received.filter((call) => call.path === '/translate').map((call) => call.body.source)).toEqual(['zh-Hant']);
    });

    it('MUST list what this service offers when nothing matches', async () => {
      const result = await gateway.query('{ translation { translate(text: "Hello.", to: "de-AT") { text } } }');
      expect(result.errors![0].message).toBe('The translation service does not offer "de-AT" for `to`; it offers: en, es, pt, pt-BR, zh-Hans, zh-Hant.');
      expect(targetsSent()).toEqual([]);
    });
  });
});
