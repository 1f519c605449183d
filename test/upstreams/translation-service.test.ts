import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import { parse } from 'yaml';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { listen, type RunningServer } from '../../src/shared/listen.ts';
import { GLOSSARIES } from '../../src/upstreams/translation/glossary/index.ts';
import { createTranslationService, type TranslationService } from '../../src/upstreams/translation/service.ts';

/**
 * Contract tests of the translation stand-in: every response is checked against the schema that
 * sources/translation/openapi.yaml declares for its operation and status. The document also lists 500
 * for every operation; the stand-in has no natural way to fail, so that status is not exercised here.
 */

const KEY = 'translation-contract-key';
const contract = parse(readFileSync(new URL('../../sources/translation/openapi.yaml', import.meta.url), 'utf8'));

// OpenAPI 3.0 schemas as JSON Schema: components.schemas become $defs of one document, refs point there.
const CONTRACT_ID = 'https://contract.test/translation/openapi.json';
const toJsonSchema = (node: unknown): unknown => {
  if (Array.isArray(node)) return node.map(toJsonSchema);
  if (node === null || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([key]) => key !== 'example')
      .map(([key, value]) => [key, key === '$ref' ? String(value).replace('#/components/schemas/', `${CONTRACT_ID}#/$defs/`) : toJsonSchema(value)]),
  );
};
const ajv = new Ajv({ allErrors: true, strict: true });
ajv.addSchema({ $id: CONTRACT_ID, $defs: toJsonSchema(contract.components.schemas) as object });
const validators = new Map<string, ValidateFunction>();
const compile = (id: string, schema: unknown) => {
  if (!validators.has(id)) validators.set(id, ajv.compile(toJsonSchema(schema) as object));
  return validators.get(id)!;
};

/** Statuses the stand-in may answer that the document does not list per operation (routing, transport). */
const UNDECLARED = new Set([404, 405, 413]);
const seen = new Set<string>();

interface Answer {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

/** Asserts `answer` is what the contract allows for `method path`, and remembers the status for coverage. */
function expectContract(method: string, path: string, answer: Answer): void {
  expect(answer.headers.get('x-translation-engine')).toBe('glossary-stand-in');
  expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
  const operation = contract.paths[path]?.[method.toLowerCase()];
  let response = operation?.responses[String(answer.status)];
  if (!response) {
    expect(UNDECLARED.has(answer.status), `${method} ${path} answered ${answer.status}, which the contract does not declare`).toBe(true);
    response = contract.components.responses.BadRequest;
  }
  seen.add(`${method} ${path} ${answer.status}`);
  if (response.$ref) response = contract.components.responses[response.$ref.split('/').pop()];
  const validate = compile(`${method} ${path} ${answer.status}`, response.content['application/json'].schema);
  expect(validate(answer.body), `${method} ${path} ${answer.status}: ${ajv.errorsText(validate.errors)}\n${answer.text}`).toBe(true);
  for (const [name, header] of Object.entries<any>(response.headers ?? {})) {
    const value = answer.headers.get(name);
    if (value === null) continue;
    const validateHeader = compile(`${method} ${path} ${answer.status} ${name}`, header.schema);
    expect(validateHeader(header.schema.type === 'integer' ? Number(value) : value), `${name}: ${value}`).toBe(true);
  }
}

let service: TranslationService;
let server: RunningServer;
let now = 1_700_000_000_000;

interface CallOptions {
  method?: string;
  /** JSON body; a string is sent as it is. */
  body?: unknown;
  contentType?: string;
  /** `false`: no Authorization header; a string: that key. */
  bearer?: string | false;
  check?: boolean;
}

async function call(path: string, { method = path === '/languages' ? 'GET' : 'POST', body, contentType = 'application/json', bearer = KEY, check = true }: CallOptions = {}): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (bearer !== false) headers.authorization = `Bearer ${bearer}`;
  if (body !== undefined) headers['content-type'] = contentType;
  const response = await fetch(server.url + path, {
    method,
    headers,
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  const answer = { status: response.status, headers: response.headers, text, body: text ? JSON.parse(text) : undefined };
  if (check) expectContract(method, path, answer);
  return answer;
}

const translate = (body: unknown, options: CallOptions = {}) => call('/translate', { body, ...options });
const GIVEN = 'Given an array of n integers, find the minimum sum.';

beforeAll(async () => {
  service = createTranslationService({ apiKey: KEY, now: () => now });
  server = await listen(service.listener);
});

afterAll(async () => {
  await server.close();
});

afterEach(() => {
  service.configure({ apiKey: KEY, maxTextLength: 5000, maxBatchSize: 50, rateLimit: undefined, maxBodyBytes: 2 * 1024 * 1024 });
});

describe('GET /languages', () => {
  it('MUST list every language with the codes it translates into', async () => {
    const { status, body } = await call('/languages');
    expect(status).toBe(200);
    const codes = body.map((language: { code: string }) => language.code);
    expect(codes).toEqual(expect.arrayContaining(['en', 'es', 'fr', 'de', 'it', 'pt']));
    for (const language of body) expect(language.targets.sort()).toEqual(codes.filter((code: string) => code !== language.code).sort());
    expect(body.find((language: { code: string }) => language.code === 'es').name).toBe('Spanish');
  });

  it('MUST return 403 without a key and with a wrong key', async () => {
    expect((await call('/languages', { bearer: false })).status).toBe(403);
    const wrong = await call('/languages', { bearer: 'not-the-key' });
    expect(wrong.status).toBe(403);
    expect(wrong.body.error).toMatch(/API key/);
    expect(wrong.text).not.toContain('not-the-key');
  });

  it('MUST return 405 with Allow for another method', async () => {
    const { status, headers } = await call('/languages', { method: 'POST', body: {} });
    expect(status).toBe(405);
    expect(headers.get('allow')).toContain('GET');
  });
});

describe('POST /translate', () => {
  it('MUST translate one text with the key in the Bearer header', async () => {
    const { status, body } = await translate({ q: GIVEN, source: 'en', target: 'es' });
    expect(status).toBe(200);
    expect(body).toEqual({ translatedText: 'Dado un arreglo de n enteros, encuentra la suma mínima.' });
  });

  it('MUST accept the key as api_key in the body', async () => {
    const { status, body } = await translate({ q: 'the shortest path', source: 'en', target: 'fr', api_key: KEY }, { bearer: false });
    expect(status).toBe(200);
    expect(body.translatedText).toBe('le plus court chemin');
  });

  it('MUST accept a form-encoded body like LibreTranslate', async () => {
    const form = new URLSearchParams({ q: 'Print the answer.', source: 'en', target: 'it', api_key: KEY }).toString();
    const { status, body } = await translate(form, { bearer: false, contentType: 'application/x-www-form-urlencoded' });
    expect(status).toBe(200);
    expect(body.translatedText).toBe('Stampa la risposta.');
  });

  it('MUST return 403 when the key is missing or wrong, and never echo it', async () => {
    expect((await translate({ q: GIVEN, source: 'en', target: 'es' }, { bearer: false })).status).toBe(403);
    const wrongBody = await translate({ q: GIVEN, source: 'en', target: 'es', api_key: 'wrong-body-key' }, { bearer: false });
    expect(wrongBody.status).toBe(403);
    expect(wrongBody.text).not.toContain('wrong-body-key');
    const wrongHeader = await translate({ q: GIVEN, source: 'en', target: 'es' }, { bearer: 'wrong-header-key' });
    expect(wrongHeader.status).toBe(403);
    expect(wrongHeader.text).not.toContain('wrong-header-key');
  });

  it('MUST return an array of the same length and order for an array q', async () => {
    const q = ['Balanced Brackets', 'Shortest Path in a Grid', 'unknownword', 'LONGEST COMMON SUBSEQUENCE'];
    const { status, body } = await translate({ q, source: 'en', target: 'de' });
    expect(status).toBe(200);
    expect(body.translatedText).toEqual(['Ausgeglichene Klammern', 'Kürzester Pfad in einem Gitter', 'unknownword', 'LÄNGSTE GEMEINSAME TEILFOLGE']);
    expect(body.detectedLanguage).toBeUndefined();
  });

  it('MUST detect the source language with source auto', async () => {
    const single = await translate({ q: 'Dado un arreglo de n enteros, encuentra la suma mínima.', source: 'auto', target: 'en' });
    expect(single.body.translatedText).toBe(GIVEN);
    expect(single.body.detectedLanguage.language).toBe('es');
    expect(single.body.detectedLanguage.confidence).toBeGreaterThan(50);

    const batch = await translate({ q: ['Die minimale Summe', 'la somme minimale', GIVEN], source: 'auto', target: 'it' });
    expect(batch.body.translatedText).toEqual(['La somma minima', 'la somma minima', 'Dato un array di n interi, trova la somma minima.']);
    expect(batch.body.detectedLanguage.map((detection: { language: string }) => detection.language)).toEqual(['de', 'fr', 'en']);
  });

  it('MUST translate text nodes only with format html, keeping tags and attributes byte-identical', async () => {
    const q = '<p class="statement" data-x=\'the array\'>Given an <b title="minimum > sum">array</b> of <i>n</i> integers.</p><!-- the sum --><code>sum</code> &amp; a &lt; b';
    const { body } = await translate({ q, source: 'en', target: 'es', format: 'html' });
    expect(body.translatedText).toBe(
      '<p class="statement" data-x=\'the array\'>Dado un <b title="minimum > sum">arreglo</b> de <i>n</i> enteros.</p><!-- the sum --><code>suma</code> &amp; a &lt; b',
    );
    const tags = (html: string) => html.match(/<[^>]*>/g);
    expect(tags(body.translatedText)).toEqual(tags(q));
  });

  it('MUST keep capitalisation, punctuation, whitespace, line breaks, numbers and unknown words', async () => {
    const q = 'Input Format\n\tThe first line contains two integers n and m (1 ≤ n, m ≤ 10^5).\r\n\nTHE ANSWER — Foo Bar!';
    const { body } = await translate({ q, source: 'en', target: 'es' });
    expect(body.translatedText).toBe(
      'Formato de Entrada\n\tLa primera línea contiene dos enteros n y m (1 ≤ n, m ≤ 10^5).\r\n\nLA RESPUESTA — Foo Bar!',
    );
  });

  it('MUST translate between any two supported languages and back to English', async () => {
    const { body } = await translate({ q: ['Dado un arreglo de n enteros, encuentra la suma mínima.'], source: 'es', target: 'fr' });
    expect(body.translatedText).toEqual(['Étant donné un tableau de n entiers, trouvez la somme minimale.']);
    for (const target of ['es', 'fr', 'de', 'it', 'pt']) {
      const there = (await translate({ q: GIVEN, source: 'en', target })).body.translatedText;
      expect(there).not.toBe(GIVEN);
      expect((await translate({ q: there, source: target, target: 'en' })).body.translatedText).toBe(GIVEN);
    }
  });

  it('MUST return the text unchanged when source and target are the same', async () => {
    expect((await translate({ q: GIVEN, source: 'en', target: 'en' })).body.translatedText).toBe(GIVEN);
  });

  describe('MUST return 400 with an error naming the problem', () => {
    const cases: Array<[string, unknown, RegExp]> = [
      ['q is missing', { source: 'en', target: 'es' }, /missing q/],
      ['q is empty', { q: '', source: 'en', target: 'es' }, /missing q/],
      ['target is missing', { q: GIVEN, source: 'en' }, /missing target/],
      ['source is missing', { q: GIVEN, target: 'es' }, /missing source/],
      ['q is a number', { q: 42, source: 'en', target: 'es' }, /q must be a string or an array of strings/],
      ['q holds a non-string', { q: ['a', 1], source: 'en', target: 'es' }, /q must be a string or an array of strings/],
      ['q is an empty array', { q: [], source: 'en', target: 'es' }, /empty array/],
      ['the source language is not supported', { q: GIVEN, source: 'xx', target: 'es' }, /source language "xx" is not supported/],
      ['the target language is not supported', { q: GIVEN, source: 'en', target: 'tlh' }, /target language "tlh" is not supported/],
      ['the target is auto', { q: GIVEN, source: 'en', target: 'auto' }, /target language "auto" is not supported/],
      ['format is unknown', { q: GIVEN, source: 'en', target: 'es', format: 'markdown' }, /format must be/],
      ['a text is over maxTextLength', { q: 'a'.repeat(5001), source: 'en', target: 'es' }, /5001 characters, over the text limit of 5000/],
      ['a batch is over maxBatchSize', { q: Array(51).fill('x'), source: 'en', target: 'es' }, /51 texts, over the batch limit of 50/],
    ];
    it.each(cases)('when %s', async (_, body, message) => {
      const { status, body: error } = await translate(body);
      expect(status).toBe(400);
      expect(error.error).toMatch(message);
    });

    it('when the body is not valid JSON', async () => {
      const { status, body } = await translate('{"q": "unterminated');
      expect(status).toBe(400);
      expect(body.error).toMatch(/not valid JSON/);
    });

    it('when the JSON body is not an object', async () => {
      expect((await translate('["q"]')).status).toBe(400);
      expect((await translate('null')).status).toBe(400);
    });

    it('when the content type is not JSON or a form', async () => {
      const { status, body } = await translate('q=hello', { contentType: 'text/plain' });
      expect(status).toBe(400);
      expect(body.error).toMatch(/content type "text\/plain"/);
    });
  });

  it('MUST count characters, not UTF-16 units, against maxTextLength', async () => {
    service.configure({ maxTextLength: 3 });
    expect((await translate({ q: '🚀🚀🚀', source: 'en', target: 'es' })).status).toBe(200);
    expect((await translate({ q: '🚀🚀🚀🚀', source: 'en', target: 'es' })).status).toBe(400);
  });

  it('MUST return 413 for a body over maxBodyBytes and keep serving', async () => {
    const big = await translate({ q: 'x'.repeat(2 * 1024 * 1024), source: 'en', target: 'es' });
    expect(big.status).toBe(413);
    service.configure({ maxBodyBytes: 100 });
    expect((await translate({ q: 'y'.repeat(200), source: 'en', target: 'es' })).status).toBe(413);
    service.configure({ maxBodyBytes: 2 * 1024 * 1024 });
    expect((await translate({ q: 'the sum', source: 'en', target: 'es' })).body.translatedText).toBe('la suma');
  });

  it('MUST return 405 for GET and 404 for an unknown route', async () => {
    expect((await call('/translate', { method: 'GET' })).status).toBe(405);
    const missing = await call('/translate/v2', { body: {} });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatch(/No such route/);
  });
});

describe('POST /detect', () => {
  it('MUST return candidates best first with confidences between 0 and 100', async () => {
    const { status, body } = await call('/detect', { body: { q: 'La primera línea contiene dos enteros.' } });
    expect(status).toBe(200);
    expect(body[0].language).toBe('es');
    const confidences = body.map((detection: { confidence: number }) => detection.confidence);
    expect(confidences).toEqual([...confidences].sort((a, b) => b - a));
    expect(Math.min(...confidences)).toBeGreaterThan(0);
    expect(Math.max(...confidences)).toBeLessThanOrEqual(100);
  });

  it('MUST recognise each supported language', async () => {
    const samples: Record<string, string> = {
      en: 'Print the number of vertices of the tree.',
      de: 'Gib die Anzahl der Knoten des Baumes aus.',
      fr: 'Affichez le nombre de sommets de l’arbre.',
      it: 'Stampa il numero di vertici dell’albero.',
      pt: 'Imprima o número de vértices da árvore.',
      es: 'Imprime el número de vértices del árbol.',
    };
    for (const [language, q] of Object.entries(samples)) {
      expect((await call('/detect', { body: { q } })).body[0].language, q).toBe(language);
    }
  });

  it('MUST say English with confidence 0 when no word is known', async () => {
    expect((await call('/detect', { body: { q: '12345 xyzzy' } })).body).toEqual([{ language: 'en', confidence: 0 }]);
  });

  it('MUST return 400 when q is missing or not a string, and 403 without a key', async () => {
    expect((await call('/detect', { body: {} })).status).toBe(400);
    expect((await call('/detect', { body: { q: ['a'] } })).status).toBe(400);
    expect((await call('/detect', { body: { q: 'hola' }, bearer: false })).status).toBe(403);
    expect((await call('/detect', { body: { q: 'hola', api_key: KEY }, bearer: false })).status).toBe(200);
  });
});

describe('rate limit', () => {
  it('MUST return 429 with Retry-After over the limit, on every operation, until the window passes', async () => {
    service.configure({ rateLimit: { requests: 2, windowMs: 60_000 } });
    expect((await call('/languages')).status).toBe(200);
    now += 10_000;
    expect((await call('/detect', { body: { q: 'the sum' } })).status).toBe(200);
    for (const [path, body] of [['/languages', undefined], ['/translate', { q: 'sum', source: 'en', target: 'es' }], ['/detect', { q: 'sum' }]] as const) {
      const limited = await call(path, { body });
      expect(limited.status).toBe(429);
      expect(limited.headers.get('retry-after')).toBe('50');
      expect(limited.body.error).toMatch(/Too many requests/);
    }
    now += 50_000; // the first request leaves the window
    expect((await translate({ q: 'the sum', source: 'en', target: 'es' })).status).toBe(200);
    expect((await call('/languages')).status).toBe(429);
  });

  it('MUST stop limiting when configure removes the limit', async () => {
    service.configure({ rateLimit: { requests: 1, windowMs: 60_000 } });
    await call('/languages');
    expect((await call('/languages')).status).toBe(429);
    service.configure({ rateLimit: undefined });
    for (let i = 0; i < 5; i++) expect((await call('/languages')).status).toBe(200);
  });
});

describe('stats and configure', () => {
  it('MUST count requests per route and texts translated, keeping the key out of lastRequests', async () => {
    service.resetStats();
    await call('/languages');
    await translate({ q: ['sum', 'tree', 'graph'], source: 'en', target: 'es', api_key: KEY });
    await translate({ q: 'path', source: 'en', target: 'es' });
    await translate({ source: 'en', target: 'es' });
    await call('/nowhere', { method: 'GET' });
    expect(service.stats.requests).toBe(5);
    expect(service.stats.byRoute).toEqual({ 'GET /languages': 1, 'POST /translate': 3 });
    expect(service.stats.translatedTexts).toBe(4);
    expect(service.stats.lastRequests.at(1)).toEqual({
      method: 'POST',
      path: '/translate',
      body: { q: ['sum', 'tree', 'graph'], source: 'en', target: 'es', api_key: '[redacted]' },
    });
    expect(JSON.stringify(service.stats)).not.toContain(KEY);
  });

  it('MUST keep only the last 50 requests', async () => {
    service.resetStats();
    for (let i = 0; i < 55; i++) await translate({ q: `word${i}`, source: 'en', target: 'es' }, { check: false });
    expect(service.stats.lastRequests).toHaveLength(50);
    expect(service.stats.lastRequests[49].body).toMatchObject({ q: 'word54' });
    service.resetStats();
    expect(service.stats).toEqual({ requests: 0, byRoute: {}, translatedTexts: 0, cannotTranslate: 0, faulted: 0, lastRequests: [] });
  });

  it('MUST apply maxTextLength, maxBatchSize and apiKey changes at once', async () => {
    service.configure({ maxTextLength: 10, maxBatchSize: 2 });
    expect(service.options.maxTextLength).toBe(10);
    expect((await translate({ q: 'the minimum sum', source: 'en', target: 'es' })).body.error).toMatch(/over the text limit of 10 characters/);
    expect((await translate({ q: ['a', 'b', 'c'], source: 'en', target: 'es' })).body.error).toMatch(/over the batch limit of 2 texts/);
    service.configure({ apiKey: undefined });
    expect((await call('/languages', { bearer: false })).status).toBe(200);
    service.configure({ apiKey: 'rotated' });
    expect((await call('/languages')).status).toBe(403);
    expect((await call('/languages', { bearer: 'rotated' })).status).toBe(200);
  });

  it('MUST reject invalid option values', () => {
    expect(() => service.configure({ maxBatchSize: 0 })).toThrow(TypeError);
    expect(() => service.configure({ rateLimit: { requests: 1, windowMs: -1 } })).toThrow(TypeError);
    expect(() => createTranslationService({ apiKey: '' })).toThrow(TypeError);
    expect(service.options.maxBatchSize).toBe(50);
  });

  it('MUST keep each service instance separate', () => {
    const other = createTranslationService();
    expect(other.stats.requests).toBe(0);
    expect(other.options.apiKey).toBeUndefined();
  });
});

describe('robustness', () => {
  it('MUST answer odd requests with an error, never crash', async () => {
    const odd = [
      '{"q": ' + '['.repeat(100_000),
      '\u0000\u0001\u0002',
      JSON.stringify({ q: { toString: 'x' }, source: 'en', target: 'es' }),
      JSON.stringify({ q: 'x', source: ['en'], target: 'es' }),
      JSON.stringify({ q: 'x', source: 'en', target: 'es', format: null }),
    ];
    for (const body of odd) expect((await translate(body)).status).toBe(400);
    const answer = await translate({ q: '<<<b <a href="x>' + '\u{1F680}'.repeat(10), source: 'en', target: 'fr', format: 'html' });
    expect(answer.status).toBe(200);
    expect((await call('/languages')).status).toBe(200);
  });
});

describe('glossary', () => {
  it('MUST cover the same English vocabulary in every language', () => {
    const sections = ['determiners', 'nouns', 'adjectives', 'numerals', 'verbs', 'words'] as const;
    for (const section of sections) {
      const reference = Object.keys(GLOSSARIES[0][section]).sort();
      for (const glossary of GLOSSARIES) expect(Object.keys(glossary[section]).sort(), `${glossary.code} ${section}`).toEqual(reference);
    }
    expect(Object.keys(GLOSSARIES[0].nouns).length + Object.keys(GLOSSARIES[0].words).length).toBeGreaterThan(300);
    for (const [word, translation] of Object.entries(GLOSSARIES.find((glossary) => glossary.code === 'de')!.nouns)) {
      expect(translation[2], `German plural of ${word}`).toBeDefined();
    }
  });
});

describe('coverage of the contract', () => {
  it('MUST have exercised every operation and status the document declares (except 500)', () => {
    const declared = Object.entries<any>(contract.paths).flatMap(([path, item]) =>
      Object.entries<any>(item).flatMap(([method, operation]) =>
        Object.keys(operation.responses)
          .filter((status) => status !== '500')
          .map((status) => `${method.toUpperCase()} ${path} ${status}`),
      ),
    );
    expect(declared.filter((entry) => !seen.has(entry))).toEqual([]);
  });
});

describe('inputs the model cannot translate (untranslatable)', () => {
  it('MUST answer 500 "Cannot translate text" for a whole call holding such a text, and translate others', async () => {
    const service = createTranslationService({ untranslatable: ['☠'] });
    const server = await listen(service.listener);
    try {
      const post = (q: unknown) => fetch(`${server.url}/translate`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ q, source: 'en', target: 'es' }) });
      const failed = await post(['Hello', 'a ☠ text']);
      expect(failed.status).toBe(500);
      expect(await failed.json()).toEqual({ error: 'Cannot translate text: the model failed on an input of 8 characters' });
      expect((await post('Hello')).status).toBe(200);
      expect(service.stats).toMatchObject({ cannotTranslate: 1, translatedTexts: 1 });
      service.configure({ untranslatable: [] });
      expect((await post('a ☠ text')).status).toBe(200);
      expect(() => service.configure({ untranslatable: 'x' as unknown as string[] })).toThrow(/untranslatable must be an array of strings/);
    } finally {
      await server.close();
    }
  });
});
