import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_TO_LANGUAGES } from '../../src/gateway/translation/argument-refusal.ts';
import { statementSha256 } from '../../src/gateway/translation/curated/curated-translations.ts';
import { dataset } from '../../src/upstreams/problems/data/index.ts';
import { sharedStack } from '../helpers/shared-stack.ts';
import { standInTranslation, translatedTitleOf } from '../helpers/stand-in-translation.ts';
import type { AddedGateway, Stack } from '../helpers/start-stack.ts';

type Target = Pick<Stack, 'gateway' | 'gatewayUrl'>;

/** A POST through `gateway.fetch` (the front door, in process): status, headers and the whole body. */
async function ask(target: Target, query: string, { variables, headers = {} }: { variables?: Record<string, unknown>; headers?: Record<string, string> } = {}) {
  const response = await target.gateway.fetch(
    new Request(target.gatewayUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json', ...headers },
      body: JSON.stringify({ query, variables }),
    }),
  );
  const body = await response.json();
  return { status: response.status, headers: response.headers, data: body.data, errors: body.errors, extensions: body.extensions };
}

const ONE = (args: string) => /* GraphQL */ `{ problem(id: "p1001") { translation${args} { language title provenance { kind } } } }`;

describe('`to:` as an ordered list of languages', () => {
  let stack: Stack;
  const translateCalls = () => stack.translation.stats.byRoute['POST /translate'] ?? 0;

  beforeAll(async () => {
    stack = await sharedStack('open');
  });
  afterAll(async () => stack?.close());

  it('serves the first language of the list the service offers, skipping those it does not, whatever the header says', async () => {
    const answer = await ask(stack, ONE('(to: ["tlh", "zh-TW", "de", "fr"])'), { headers: { 'accept-language': 'it' } });
    expect(answer.status).toBe(200);
    expect(answer.errors).toBeUndefined();
    expect(answer.data.problem.translation).toEqual({ language: 'de', title: translatedTitleOf('p1001', 'de'), provenance: { kind: 'MACHINE' } });
    // Chosen by the argument, not the header: nothing for an HTTP cache to vary on.
    expect(answer.headers.get('vary') ?? '').not.toMatch(/Accept-Language/);
  });

  it('keeps a single value working, literally and as a `String` variable written before `to:` took a list', async () => {
    expect((await ask(stack, ONE('(to: "fr")'))).data.problem.translation.language).toBe('fr');
    const variable = /* GraphQL */ `query ($to: String!) { problem(id: "p1001") { translation(to: $to) { language } } translation { translate(text: "the array", to: $to) { language } } }`;
    const asString = await ask(stack, variable, { variables: { to: 'es' } });
    expect(asString.errors).toBeUndefined();
    expect(asString.data).toEqual({ problem: { translation: { language: 'es' } }, translation: { translate: { language: 'es' } } });
    // A list variable, and one tag given for it (GraphQL coerces it into a list of one).
    const listVariable = /* GraphQL */ `query ($to: [String!]) { problem(id: "p1001") { translation(to: $to) { language } } }`;
    expect((await ask(stack, listVariable, { variables: { to: ['tlh', 'it'] } })).data.problem.translation.language).toBe('it');
    expect((await ask(stack, listVariable, { variables: { to: 'pt-BR' } })).data.problem.translation.language).toBe('pt');
    // Any other variable of the wrong type is still refused as GraphQL says.
    const wrong = await ask(stack, /* GraphQL */ `query ($to: Int!) { problem(id: "p1001") { translation(to: $to) { language } } }`, { variables: { to: 1 } });
    expect(wrong.status).toBe(400);
    expect(wrong.errors[0].message).toBe('Variable "$to" of type "Int!" used in position expecting type "[String!]".');
    // And a `String` variable where another list is expected, even of the same field.
    const texts = await ask(stack, /* GraphQL */ `query ($text: String!) { translation { translateMany(texts: $text, to: "es") { text } } }`, { variables: { text: 'the array' } });
    expect(texts.status).toBe(400);
    expect(texts.errors[0].message).toBe('Variable "$text" of type "String!" used in position expecting type "[String!]!".');
  });

  it('answers a list none of whose languages is offered with the error one such `to:` gets, once for a page, the rest of the answer standing', async () => {
    const before = translateCalls();
    const answer = await ask(stack, /* GraphQL */ `{ problems(first: 3) { nodes { id translation(to: ["tlh", "zh-TW"]) { language } } } }`);
    expect(answer.status).toBe(200);
    expect(answer.data.problems.nodes).toEqual(dataset.problems.slice(0, 3).map(({ id }) => ({ id, translation: null })));
    expect(answer.errors).toHaveLength(1);
    expect(answer.errors[0].extensions).toMatchObject({ code: 'UNSUPPORTED_LANGUAGE', service: 'translation', argument: 'to' });
    expect(answer.errors[0].message).toMatch(/^The translation service offers none of "tlh", "zh-TW" for `to`; it offers: .*\bde\b.*\.$/);
    expect(translateCalls()).toBe(before);
  });

  it('refuses an empty list, an entry that is no language tag, and a list longer than the bound, before any call', async () => {
    const before = translateCalls();
    const empty = await ask(stack, ONE('(to: [])'));
    expect(empty.status).toBe(400);
    expect(empty.errors[0]).toMatchObject({ message: expect.stringMatching(/names no language/), extensions: { code: 'BAD_USER_INPUT', argument: 'to' } });
    const malformed = await ask(stack, /* GraphQL */ `{ translation { translate(text: "the array", to: ["es", "not a tag"]) { text } } }`);
    expect(malformed.status).toBe(400);
    expect(malformed.errors[0].message).toMatch(/^Argument "to\[1\]" must be a language tag/);
    const long = Array.from({ length: MAX_TO_LANGUAGES + 1 }, (_, index) => `"x${String.fromCharCode(97 + (index % 26))}${String.fromCharCode(97 + Math.floor(index / 26))}"`);
    const tooLong = await ask(stack, ONE(`(to: [${long.join(', ')}])`));
    expect(tooLong.status).toBe(400);
    expect(tooLong.errors[0]).toMatchObject({
      message: `Argument "to" names ${MAX_TO_LANGUAGES + 1} languages; at most ${MAX_TO_LANGUAGES} are read, most wanted first.`,
      extensions: { code: 'BAD_USER_INPUT', argument: 'to', limit: MAX_TO_LANGUAGES, actual: MAX_TO_LANGUAGES + 1 },
    });
    // At the bound, the list is read.
    const atBound = await ask(stack, ONE(`(to: [${[...long.slice(0, MAX_TO_LANGUAGES - 1), '"de"'].join(', ')}])`));
    expect(atBound.data.problem.translation.language).toBe('de');
    expect(translateCalls() - before).toBeLessThanOrEqual(1);
  });
});

describe('@inContext(language:) on a query', () => {
  let stack: Stack;
  const translateCalls = () => stack.translation.stats.byRoute['POST /translate'] ?? 0;

  beforeAll(async () => {
    stack = await sharedStack('open');
  });
  afterAll(async () => stack?.close());

  it('serves every translated field without `to:` in its language, over the header; an explicit `to:` still wins; extensions say what was served', async () => {
    const query = /* GraphQL */ `query Page @inContext(language: "IT") {
      first: problem(id: "p1001") { translation { language title provenance { kind } } }
      second: problem(id: "p1002") { translation(to: ["tlh", "fr"]) { language } }
      translation { translate(text: "the array") { text language } }
    }`;
    const answer = await ask(stack, query, { headers: { 'accept-language': 'de' } });
    expect(answer.status).toBe(200);
    expect(answer.errors).toBeUndefined();
    expect(answer.data).toEqual({
      first: { translation: { language: 'it', title: translatedTitleOf('p1001', 'it'), provenance: { kind: 'MACHINE' } } },
      second: { translation: { language: 'fr' } },
      translation: { translate: { text: standInTranslation('the array', 'it'), language: 'it' } },
    });
    expect(answer.extensions).toEqual({ context: { requested: 'it', language: null, served: { MACHINE: ['it', 'fr'] } } });
    // The directive chose, not the header.
    expect(answer.headers.get('vary') ?? '').not.toMatch(/Accept-Language/);
  });

  it('falls back to the header when the service does not offer its language, and says so', async () => {
    const answer = await ask(stack, /* GraphQL */ `query @inContext(language: "tlh") { problem(id: "p1003") { translation { language } } }`, { headers: { 'accept-language': 'de' } });
    expect(answer.errors).toBeUndefined();
    expect(answer.data.problem.translation.language).toBe('de');
    expect(answer.extensions.context).toEqual({ requested: 'tlh', language: 'de', served: { MACHINE: ['de'] } });
    expect(answer.headers.get('vary')).toMatch(/Accept-Language/);
    expect(answer.headers.get('content-language')).toBe('de');
  });

  it('serves the original when it already is in the directive\'s language, with no call', async () => {
    const before = translateCalls();
    const answer = await ask(stack, /* GraphQL */ `query @inContext(language: "en-GB") { problem(id: "p1004") { translation(from: "en") { language provenance { kind } } } }`);
    expect(answer.data.problem.translation).toEqual({ language: 'en', provenance: { kind: 'ORIGINAL' } });
    expect(answer.extensions.context).toEqual({ requested: 'en-GB', language: 'en', served: { ORIGINAL: ['en'] } });
    expect(translateCalls()).toBe(before);
  });

  it('refuses a directive whose language is no tag, given literally or by a variable, before any call', async () => {
    const before = translateCalls();
    const literal = await ask(stack, /* GraphQL */ `query @inContext(language: "not a tag") { problem(id: "p1001") { translation { language } } }`);
    expect(literal.status).toBe(400);
    expect(literal.data).toBeUndefined();
    expect(literal.errors).toEqual([
      expect.objectContaining({
        message: '@inContext: Argument "language" must be a language tag such as "es", "pt-BR" or "zh-Hant" (BCP 47, in any case); got "not a tag".',
        extensions: expect.objectContaining({ code: 'BAD_USER_INPUT', argument: 'language' }),
      }),
    ]);
    const variable = await ask(stack, /* GraphQL */ `query ($language: String!) @inContext(language: $language) { problem(id: "p1001") { translation { language } } }`, { variables: { language: '12' } });
    expect(variable.status).toBe(400);
    expect(variable.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    const good = await ask(stack, /* GraphQL */ `query ($language: String!) @inContext(language: $language) { problem(id: "p1001") { translation { language } } }`, { variables: { language: 'pt-BR' } });
    expect(good.data.problem.translation.language).toBe('pt');
    expect(translateCalls() - before).toBeLessThanOrEqual(1);
  });

  it('is declared on queries only, and never reaches the problems service (which would refuse a directive it does not know)', async () => {
    const onField = await ask(stack, /* GraphQL */ `{ problem(id: "p1001") @inContext(language: "es") { id } }`);
    expect(onField.status).toBe(400);
    expect(onField.errors[0].message).toBe('Directive "@inContext" may not be used on FIELD.');
    // Problems fields only: the rest of the operation goes to the service without the directive.
    const problemsOnly = await ask(stack, /* GraphQL */ `query @inContext(language: "es") { problem(id: "p1001") { id title } }`);
    expect(problemsOnly.errors).toBeUndefined();
    expect(problemsOnly.data.problem).toEqual({ id: 'p1001', title: dataset.problemById.get('p1001')!.title });
    expect(problemsOnly.extensions.context).toEqual({ requested: 'es', language: null, served: {} });
  });
});

describe('lists and @inContext with curated translations and the response cache', () => {
  let stack: Stack;
  let gateway: AddedGateway;
  let dir: string;
  const translateCalls = () => stack.translation.stats.byRoute['POST /translate'] ?? 0;
  const problem = dataset.problemById.get('p1005')!;

  beforeAll(async () => {
    stack = await sharedStack('open');
    dir = await mkdtemp(join(tmpdir(), 'curated-lists-'));
    await mkdir(join(dir, 'p1005'), { recursive: true });
    const file = ['---', 'title: Título curado', `source_sha256: ${statementSha256(problem.statement)}`, 'source_language: en', 'made_at: 2026-03-01', '---', 'Enunciado curado.', ''];
    await writeFile(join(dir, 'p1005', 'es.md'), file.join('\n'));
    gateway = await stack.addGateway({ settings: { translationCuratedDir: dir, translationCuratedRescanSeconds: 0, responseCacheTtlSeconds: 60, problemsCacheTtlSeconds: 0 } });
  });
  afterAll(async () => {
    await stack?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('counts a curated language of the list as served, in its place in the list, with no call', async () => {
    const before = translateCalls();
    const curated = await ask(gateway, /* GraphQL */ `{ problem(id: "p1005") { translation(to: ["tlh", "es-MX", "de"]) { language title provenance { kind } } } }`);
    expect(curated.data.problem.translation).toEqual({ language: 'es', title: 'Título curado', provenance: { kind: 'CURATED' } });
    expect(translateCalls()).toBe(before);
    // Left to right: a language the service offers before the curated one is served first.
    const machine = await ask(gateway, /* GraphQL */ `{ problem(id: "p1005") { translation(to: ["de", "es"]) { language provenance { kind } } } }`);
    expect(machine.data.problem.translation).toEqual({ language: 'de', provenance: { kind: 'MACHINE' } });
    // The directive takes a curated translation the same way.
    const inContext = await ask(gateway, /* GraphQL */ `query @inContext(language: "es") { problem(id: "p1005") { translation { title provenance { kind } } } }`);
    expect(inContext.data.problem.translation).toEqual({ title: 'Título curado', provenance: { kind: 'CURATED' } });
    expect(inContext.extensions.context).toEqual({ requested: 'es', language: 'es', served: { CURATED: ['es'] } });
  });

  it('keys cached answers by the directive\'s language, and answers a hit with the extensions it was served with', async () => {
    const query = (language: string) => /* GraphQL */ `query @inContext(language: "${language}") { problem(id: "p1006") { translation { language title } } }`;
    const before = translateCalls();
    const italian = await ask(gateway, query('it'));
    const german = await ask(gateway, query('de'));
    expect(italian.data.problem.translation.language).toBe('it');
    expect(german.data.problem.translation.language).toBe('de');
    expect(german.headers.get('etag')).not.toBe(italian.headers.get('etag'));
    expect(translateCalls() - before).toBe(2);
    const again = await ask(gateway, query('it'));
    expect(translateCalls() - before).toBe(2);
    expect(again.headers.get('etag')).toBe(italian.headers.get('etag'));
    expect(again.data).toEqual(italian.data);
    expect(again.extensions).toEqual({ context: { requested: 'it', language: 'it', served: { MACHINE: ['it'] } } });
    // The same through yoga (a GET the front door leaves to it when its text is not planned: same entry, same bytes).
    const get = await gateway.gateway.fetch(new Request(`${gateway.gatewayUrl}?query=${encodeURIComponent(query('it'))}`, { headers: { accept: 'application/json' } }));
    expect(await get.json()).toEqual({ data: italian.data, extensions: italian.extensions });
    expect(translateCalls() - before).toBe(2);
  });

  it('translates a page under the directive in one call, and a batched request with each operation in its own language', async () => {
    const page = /* GraphQL */ `query @inContext(language: "pt") { problems(first: 10) { nodes { id translation { language title } } } }`;
    const before = translateCalls();
    const answer = await ask(gateway, page);
    expect(answer.errors).toBeUndefined();
    expect(answer.data.problems.nodes).toEqual(dataset.problems.slice(0, 10).map(({ id }) => ({ id, translation: { language: 'pt', title: translatedTitleOf(id, 'pt') } })));
    expect(translateCalls() - before).toBe(1);
    // A batch goes to yoga behind the front door.
    const operation = (language: string, id: string) => /* GraphQL */ `query @inContext(language: "${language}") { problem(id: "${id}") { translation { language } } }`;
    const response = await gateway.gateway.fetch(
      new Request(gateway.gatewayUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify([{ query: operation('it', 'p1011') }, { query: operation('de', 'p1012') }]),
      }),
    );
    expect(await response.json()).toEqual([
      { data: { problem: { translation: { language: 'it' } } }, extensions: { context: { requested: 'it', language: 'it', served: { MACHINE: ['it'] } } } },
      { data: { problem: { translation: { language: 'de' } } }, extensions: { context: { requested: 'de', language: 'de', served: { MACHINE: ['de'] } } } },
    ]);
  });
});
