import type { IncomingMessage, ServerResponse } from 'node:http';
import { Kind, parse, print, stripIgnoredCharacters } from 'graphql';
import { request as upstreamRequest } from 'undici';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Gateway } from '../../src/gateway/create-gateway.ts';
import type { RequestLogEntry } from '../../src/gateway/observability/request-log.ts';
import type { GatewaySettings } from '../../src/gateway/settings.ts';
import { listen, type RunningServer } from '../../src/shared/listen.ts';
import { sharedStack } from '../helpers/shared-stack.ts';
import { PROBLEMS_KEY, type Stack } from '../helpers/start-stack.ts';
import { standInTranslation, translatedTitleOf } from '../helpers/stand-in-translation.ts';

interface GraphQLRequest {
  query: string;
  variables?: Record<string, unknown>;
  operationName?: string;
}

/** What the problems upstream answers instead of the stand-in, while a test sets it. */
interface Fault {
  status?: number;
  body?: string;
  headers?: Record<string, string>;
  /** Never answer. */
  hang?: boolean;
  /** Send the head and `body`, then nothing more (the body never ends). */
  stallBody?: boolean;
}

/**
 * A problems upstream in front of the stand-in: it records every GraphQL request body it receives and
 * passes it on, or answers with the fault a test sets.
 */
async function startProblemsInFront(target: string) {
  const seen: Record<string, unknown>[] = [];
  let fault: Fault | undefined;
  const server = await listen(async (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    seen.push(JSON.parse(body) as Record<string, unknown>);
    if (fault?.hang) return;
    if (fault) {
      response.writeHead(fault.status ?? 200, { 'content-type': 'application/json', ...fault.headers });
      if (fault.stallBody) response.write(fault.body ?? '');
      else response.end(fault.body ?? '');
      return;
    }
    const { host: _host, 'content-length': _length, ...headers } = request.headers;
    const answer = await upstreamRequest(`${target}${request.url}`, { method: 'POST', headers: headers as Record<string, string>, body });
    response.writeHead(answer.statusCode, { 'content-type': String(answer.headers['content-type']) });
    response.end(await answer.body.text());
  });
  return {
    url: server.url,
    server,
    seen,
    setFault(next: Fault | undefined) {
      fault = next;
    },
  };
}

async function post(url: string, body: GraphQLRequest, accept = 'application/graphql-response+json', headers: Record<string, string> = {}) {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept, ...headers }, body: JSON.stringify(body) });
  return { status: response.status, text: await response.text() };
}

/** As post, through the gateway's fetch handler: the same front door as the listener, the fetch transport. */
async function viaYoga(fetchOf: Gateway['fetch'], url: string, body: GraphQLRequest, accept = 'application/graphql-response+json', headers: Record<string, string> = {}) {
  const response = await fetchOf(new Request(url, { method: 'POST', headers: { 'content-type': 'application/json', accept, ...headers }, body: JSON.stringify(body) }));
  return { status: response.status, text: await response.text() };
}

/** The body the fast path sends for `request`: the selected operation and the document's fragments, printed compactly. */
function forwardedBody({ query, variables, operationName }: GraphQLRequest) {
  const document = parse(query);
  const definitions = document.definitions.filter(
    (definition) => definition.kind === Kind.FRAGMENT_DEFINITION || (definition.kind === Kind.OPERATION_DEFINITION && (!operationName || definition.name?.value === operationName)),
  );
  const operation = definitions.find((definition) => definition.kind === Kind.OPERATION_DEFINITION);
  const name = operation?.kind === Kind.OPERATION_DEFINITION ? operation.name?.value : undefined;
  return JSON.parse(JSON.stringify({ query: stripIgnoredCharacters(print({ ...document, definitions })), variables, operationName: name }));
}

/**
 * Two gateways over the same upstreams, the single-source fast path on in one and off in the other,
 * asked the same things: every answer must be byte for byte the same (key order included), with the
 * same HTTP status and as many upstream calls, and the fast one must have sent the client's operation
 * whole, in one call, where the other delegated it. Caches are off so every request reaches the upstream.
 */
describe('the single-source fast path', () => {
  let stack: Stack;
  let problems: Awaited<ReturnType<typeof startProblemsInFront>>;
  const closing: RunningServer[] = [];
  const pairs: Record<'plain' | 'production' | 'faults' | 'cached', { fast: string; fastYoga: Gateway['fetch']; delegated: string }> = {} as never;
  const logs: { fast: RequestLogEntry[]; delegated: RequestLogEntry[] } = { fast: [], delegated: [] };

  async function pair(settings: Partial<GatewaySettings>, log?: typeof logs) {
    const common = { problemsUrl: problems.url, problemsCacheTtlSeconds: 0, translationCacheTtlSeconds: 0, ...settings };
    const fast = await stack.addGateway({ settings: { ...common, fastPathEnabled: true }, ...(log ? { requestLog: (entry) => log.fast.push(entry) } : {}) });
    const delegated = await stack.addGateway({
      settings: { ...common, fastPathEnabled: false },
      ...(log ? { requestLog: (entry) => log.delegated.push(entry) } : {}),
    });
    return { fast: fast.gatewayUrl, fastYoga: fast.gateway.fetch, delegated: delegated.gatewayUrl };
  }

  beforeAll(async () => {
    stack = await sharedStack('open');
    problems = await startProblemsInFront(`${stack.upstreamSettings.problemsUrl}`);
    closing.push(problems.server);
    pairs.plain = await pair({}, logs);
    pairs.production = await pair({ production: true });
    pairs.faults = await pair({ problemsTimeoutMs: 300, problemsMaxResponseBytes: 2000 });
    pairs.cached = await pair({ problemsCacheTtlSeconds: 60 });
  });
  afterAll(async () => {
    await stack?.close();
    for (const server of closing) await server.close();
  });

  /** Asks both gateways of `which`; the answers must be the same, and the fast path must have forwarded it. */
  async function both(
    request: GraphQLRequest,
    {
      which = 'plain',
      forwarded = true,
      accept,
      headers,
    }: { which?: keyof typeof pairs; forwarded?: boolean | 'unless cached' | 'linked'; accept?: string; headers?: Record<string, string> } = {},
  ) {
    problems.seen.length = 0;
    // First through `gateway.fetch` (the text's first time: planned by the front door).
    const fast = await viaYoga(pairs[which].fastYoga, pairs[which].fast, request, accept, headers);
    const fastCalls = problems.seen.splice(0);
    // The same text through the listener (the direct lane, the plan found), which must answer
    // exactly as the first time.
    const again = await post(pairs[which].fast, request, accept, headers);
    const againCalls = problems.seen.splice(0);
    const delegated = await post(pairs[which].delegated, request, accept, headers);
    const delegatedCalls = problems.seen.splice(0);
    expect(fast.text).toBe(delegated.text);
    expect(fast.status).toBe(delegated.status);
    expect(fastCalls.length).toBe(delegatedCalls.length);
    expect(again.text).toBe(delegated.text);
    expect(again.status).toBe(delegated.status);
    if (forwarded === true || forwarded === 'linked') expect(againCalls.length).toBe(fastCalls.length);
    if (forwarded === 'linked') {
      // The second time, the listener in front of yoga completed the links itself.
      if (which === 'plain') expect(logs.fast.at(-1)?.lane).toBe('direct');
      // Sent whole, each link replaced by the fields it reads, under the gateway's aliases.
      expect(fastCalls.length).toBe(1);
      for (const body of [...fastCalls, ...againCalls] as { query: string }[]) {
        expect(body.query).toContain('_gatewayLink_statement:statement');
        expect(body.query).not.toMatch(/\btranslation\b/);
      }
      for (const body of delegatedCalls as { query: string }[]) expect(body.query).not.toContain('_gatewayLink_');
      return { status: fast.status, answer: JSON.parse(fast.text) as { data?: any; errors?: { message: string; path?: unknown[]; extensions?: any }[] }, calls: fastCalls.length };
    }
    if (forwarded) for (const body of againCalls) expect(body).toEqual(forwardedBody(request));
    if (forwarded) {
      if (forwarded !== 'unless cached') expect(fastCalls.length).toBeGreaterThan(0);
      for (const body of fastCalls) expect(body).toEqual(forwardedBody(request));
      // The switch really turns it off: the other gateway delegated.
      for (const body of delegatedCalls) expect(body).not.toEqual(forwardedBody(request));
    } else {
      for (const body of fastCalls) expect(body).not.toEqual(forwardedBody(request));
    }
    return { status: fast.status, answer: JSON.parse(fast.text) as { data?: any; errors?: { message: string; path?: unknown[]; extensions?: any }[] }, calls: fastCalls.length };
  }

  describe('answers the same as the delegated path', () => {
    it.each<[string, GraphQLRequest]>([
      ['a variable', { query: /* GraphQL */ `query ($id: ID!) { problem(id: $id) { id title } }`, variables: { id: 'p1001' } }],
      [
        'aliases, the same field twice',
        {
          query: /* GraphQL */ `{ first: problem(id: "p1001") { name: title id } second: problem(id: "p1002") { id score: rating rating } again: problem(id: "p1001") { id } }`,
        },
      ],
      [
        'named and inline fragments, in an order of their own',
        {
          query: /* GraphQL */ `
            query Page { problems(first: 3) { totalCount nodes { ...Basics ... on Problem { tags difficulty } id statistics { ...Stats } } } }
            fragment Basics on Problem { slug title }
            fragment Stats on ProblemStatistics { submissions accepted acceptanceRate }`,
          operationName: 'Page',
        },
      ],
      [
        'nested lists and nullable objects',
        {
          query: /* GraphQL */ `{ problems(first: 4) { edges { cursor node { id examples { input output explanation } contest { id title problems { id rating } } } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }`,
        },
      ],
      [
        'variables left to their defaults',
        { query: /* GraphQL */ `query ($first: Int = 2, $after: String, $filter: ProblemFilter) { problems(first: $first, after: $after, filter: $filter) { nodes { id rating } } }` },
      ],
      [
        'variables given, some null',
        {
          query: /* GraphQL */ `query ($first: Int = 2, $after: String, $filter: ProblemFilter) { problems(first: $first, after: $after, filter: $filter) { nodes { id rating difficulty } } }`,
          variables: { first: 3, after: null, filter: { difficulty: ['HARD', 'MEDIUM'], ratingMin: null, tags: null } },
        },
      ],
      [
        '__typename at every level, aliased too',
        { query: /* GraphQL */ `{ __typename problems(first: 2) { __typename nodes { kind: __typename id statistics { __typename solvers } contest { __typename } } } }` },
      ],
      [
        '@include and @skip, from literals and variables',
        {
          query: /* GraphQL */ `query ($withTitle: Boolean!, $skipId: Boolean = false) { problem(id: "p1001") { id @skip(if: $skipId) title @include(if: $withTitle) slug ... on Problem @include(if: $withTitle) { rating } } tags @skip(if: true) }`,
          variables: { withTitle: false },
        },
      ],
      [
        '@include and @skip the other way',
        {
          query: /* GraphQL */ `query ($withTitle: Boolean!, $skipId: Boolean = false) { problem(id: "p1001") { id @skip(if: $skipId) title @include(if: $withTitle) slug ... on Problem @include(if: $withTitle) { rating } } tags @skip(if: true) }`,
          variables: { withTitle: true, skipId: true },
        },
      ],
      ['unknown ids: nulls', { query: /* GraphQL */ `{ problem(id: "p0") { id } user(handle: "nobody") { handle } contest(id: "c0") { id title } slug: problem(slug: "no-such-slug") { id } }` }],
      [
        'one operation of several, the others touching translation',
        {
          query: /* GraphQL */ `
            query Other { translation { languages { code } } problem(id: "p1001") { translation(to: "es") { title } } }
            query Wanted($id: ID = "p1002") { problem(id: $id) { title id } }`,
          operationName: 'Wanted',
        },
      ],
      ['users, enums and floats', { query: /* GraphQL */ `{ users(first: 2) { totalCount nodes { handle rating solvedCount { total hard } ratingHistory { rank contest { id } } } } languages { id name extensions } }` }],
      [
        // Delegation took `__typename` out of such fragments and sent nothing at all: `data: null`.
        '__typename only inside inline fragments',
        { query: /* GraphQL */ `{ problem(id: "p1001") { ... on Problem { __typename } } problems(first: 2) { nodes { ... @include(if: true) { __typename } } } }` },
      ],
      [
        // Delegation kept the first of the two, left out, and the field came back null.
        'a field twice, its first occurrence left out by @include or @skip',
        {
          query: /* GraphQL */ `query ($on: Boolean!) { languages { version @include(if: $on) version id @skip(if: true) id } problem(id: "p1001") { slug @include(if: $on) ... on Problem { slug } } }`,
          variables: { on: false },
        },
      ],
    ])('%s', async (_, request) => {
      const { status, answer } = await both(request);
      expect(status).toBe(200);
      expect(answer.errors).toBeUndefined();
      expect(answer.data).toBeTruthy();
    });

    it('keeps the order the operation asked for, through fragments', async () => {
      const { answer } = await both({ query: /* GraphQL */ `{ problem(id: "p1001") { ...A id title } } fragment A on Problem { slug title }` });
      expect(Object.keys(answer.data.problem)).toEqual(['slug', 'title', 'id']);
    });

    it('places a field where its first occurrence that @skip and @include leave in is, as execution does', async () => {
      const query = /* GraphQL */ `query ($on: Boolean!) { problem(id: "p1001") { ...A @include(if: $on) title @skip(if: true) id title } } fragment A on Problem { slug title }`;
      expect(Object.keys((await both({ query, variables: { on: false } })).answer.data.problem)).toEqual(['id', 'title']);
      expect(Object.keys((await both({ query, variables: { on: true } })).answer.data.problem)).toEqual(['slug', 'title', 'id']);
    });

    it.each<[string, GraphQLRequest, unknown[][]]>([
      ['an argument the source refuses, on a nullable root field', { query: /* GraphQL */ `{ problem(id: "p1001", slug: "x") { id } tags }` }, [['problem']]],
      [
        'a refusal on a non-null root field, which nulls the whole upstream answer',
        { query: /* GraphQL */ `{ tags problems(filter: { ratingMin: 3000, ratingMax: 1000 }) { totalCount } __typename }` },
        [['problems']],
      ],
      [
        'refusals on two root fields, aliased, beside one that answers',
        { query: /* GraphQL */ `{ a: problem(id: "p1", slug: "x") { id } b: problem(id: "p1002") { title } c: problem(id: "p1", slug: "y") { id } }` },
        [['a'], ['c']],
      ],
      ['a refusal through a variable', { query: /* GraphQL */ `query ($after: String) { problems(after: $after) { nodes { id } } }`, variables: { after: 'bm9wZQ==' } }, [['problems']]],
    ])('%s', async (_, request, paths) => {
      const { answer } = await both(request);
      expect(answer.errors?.map((error) => error.path)).toEqual(paths);
      for (const error of answer.errors ?? []) expect(error.extensions).toEqual({ code: 'UPSTREAM_ERROR', service: 'problems' });
    });

    it('the same errors, masked, in production', async () => {
      const { answer } = await both({ query: /* GraphQL */ `{ tags a: problem(id: "p1", slug: "x") { id } b: problem(id: "p1", slug: "y") { id } }` }, { which: 'production' });
      expect(answer.errors?.map((error) => error.message)).toEqual(['The problems service reported an error.', 'The problems service reported an error.']);
      await both({ query: /* GraphQL */ `query ($id: ID!) { problem(id: $id) { id title statement } }`, variables: { id: 'p1003' } }, { which: 'production' });
    });

    it('variables that do not coerce: the same request error, from the delegated path, with no call', async () => {
      for (const accept of ['application/graphql-response+json', 'application/json']) {
        for (const variables of [{}, { id: { not: 'an id' } }]) {
          const { status, answer, calls } = await both({ query: /* GraphQL */ `query ($id: ID!) { problem(id: $id) { id } }`, variables }, { forwarded: false, accept });
          expect(status).toBe(400);
          expect(answer.errors?.[0].message).toMatch(/^Variable "\$id"/);
          expect(calls).toBe(0);
        }
      }
    });
  });

  describe('leaves the delegated path to what needs the gateway', () => {
    it('a problem with its translation (the link) is sent whole, the gateway completing the link, and answers the same', async () => {
      const { answer } = await both({ query: /* GraphQL */ `{ problem(id: "p1001") { id title translation(to: "es") { title } } tags }` }, { forwarded: 'linked' });
      expect(answer.data.problem.translation.title).toBe(translatedTitleOf('p1001', 'es'));
      expect(answer.data.tags.length).toBeGreaterThan(0);
    });

    it.each<[string, GraphQLRequest]>([
      ['a page of problems with their translations', { query: /* GraphQL */ `{ problems(first: 5) { totalCount nodes { id translation(to: "es") { title statement language } } } }` }],
      [
        'aliases: two languages, renamed fields, the link beside the fields it reads',
        { query: /* GraphQL */ `{ a: problem(id: "p1002") { es: translation(to: "ES") { t: title language } de: translation(to: "de") { title } name: title statement } }` },
      ],
      [
        'the link in a fragment, with statementHtml and __typename',
        {
          query: /* GraphQL */ `query Q { problem(id: "p1003") { ...F id } } fragment F on Problem { slug translation(to: "fr") { __typename title statementHtml } }`,
          operationName: 'Q',
        },
      ],
      [
        'variables, and @skip/@include on the link',
        {
          query: /* GraphQL */ `query ($to: String!, $skip: Boolean!) { problem(id: "p1004") { id translation(to: $to) @skip(if: $skip) { title } again: translation(to: $to) @include(if: $skip) { statement } } }`,
          variables: { to: 'it', skip: true },
        },
      ],
      ['a language the service does not offer: a field error', { query: /* GraphQL */ `{ problem(id: "p1005") { id translation(to: "tlh") { title } } }` }],
      ['an unknown problem: null, nothing to translate', { query: /* GraphQL */ `{ problem(id: "p9999") { id translation(to: "es") { title } } }` }],
      [
        'links deeper down, in lists of lists',
        { query: /* GraphQL */ `{ problems(first: 3) { edges { node { contest { title problems { id translation(to: "pt") { title } } } } } } }` },
      ],
    ])('linked: %s', async (_, request) => {
      await both(request, { forwarded: 'linked' });
    });

    it('linked: an answer of the source with errors goes the delegated way after all, and answers the same (through yoga, then the direct lane)', async () => {
      // Fields in an order delegation does not keep by itself (a plain field after the batched one).
      const request = { query: /* GraphQL */ `{ problem(id: "p1001", slug: "x") { id } other: problem(id: "p1002") { translation(to: "es") { title } id } tags }` };
      problems.seen.length = 0;
      const fast = await post(pairs.plain.fast, request);
      const fastCalls = problems.seen.splice(0);
      const again = await post(pairs.plain.fast, request);
      const againCalls = problems.seen.splice(0);
      const delegated = await post(pairs.plain.delegated, request);
      problems.seen.length = 0;
      expect(fast.text).toBe(delegated.text);
      expect(fast.status).toBe(delegated.status);
      expect(again.text).toBe(delegated.text);
      expect(again.status).toBe(delegated.status);
      expect(logs.fast.at(-1)?.lane).toBe('direct');
      // The forwarded call, then delegation's own, both times.
      expect(fastCalls).toHaveLength(2);
      expect(againCalls).toHaveLength(2);
      expect(JSON.parse(fast.text).errors.length).toBeGreaterThan(0);
    });

    it('the translation namespace beside problems goes the delegated way', async () => {
      const { answer } = await both(
        { query: /* GraphQL */ `{ problem(id: "p1002") { title } translation { translate(text: "Print the sum.", to: "es") { text } } }` },
        { forwarded: false },
      );
      expect(answer.data.translation.translate.text).toBe(standInTranslation('Print the sum.', 'es'));
    });

    it('a response key of the client’s own in the links’ alias space goes the delegated way, and the link reads the right field', async () => {
      // Forwarded, `_gatewayLink_title: id` stood in for the title the link reads: the id came back as
      // the translated title.
      const { answer } = await both({ query: /* GraphQL */ `{ problem(id: "p1001") { _gatewayLink_title: id translation(to: "es") { title } } }` }, { forwarded: false });
      expect(answer.data.problem._gatewayLink_title).toBe('p1001');
      expect(answer.data.problem.translation.title).toBe(translatedTitleOf('p1001', 'es'));
    });

    it.each<[string, GraphQLRequest, string]>([
      ['on one problem', { query: /* GraphQL */ `{ problem(id: "p1001") { title: slug statement: id id: rating translation(to: "es") { title } } }` }, 'translation'],
      [
        'in a page, through a named fragment',
        { query: /* GraphQL */ `{ problems(first: 3) { nodes { ...F translation(to: "de") { title } } } } fragment F on Problem { title: slug statement: id }` },
        'translation',
      ],
      ['in an inline fragment, the link outside it', { query: /* GraphQL */ `{ problem(id: "p1002") { ... on Problem { title: difficulty } translation(to: "fr") { title } } }` }, 'translation'],
      ['a key in the gateway’s renaming space too', { query: /* GraphQL */ `{ problem(id: "p1001") { _gatewayAlias_title: id title: slug translation(to: "es") { title } } }` }, 'translation'],
      ['the link itself under such a key, failing', { query: /* GraphQL */ `{ problem(id: "p1003") { id: translation(to: "tlh") { title } title: slug } }` }, 'id'],
    ])('linked: client keys that are fields the link reads (`title: slug`), %s: the same answer, each key the client’s', async (_, request, linkKey) => {
      // Delegated, such a key met the field the link reads, under the same name in one call: the
      // source refused the call (UPSTREAM_BAD_REQUEST) until shadowing-selections.ts renamed the client's.
      const { answer } = await both(request, { forwarded: 'linked' });
      // Every other key holds what the service itself answers for them.
      const link = /(\w+: )?translation\(to: "\w+"\) \{ title \}/;
      const service = await post(`${stack.upstreamSettings.problemsUrl}/graphql`, { query: request.query.replace(link, '') }, 'application/json', { authorization: `Bearer ${PROBLEMS_KEY}` });
      const withoutLink = (value: unknown): unknown => {
        if (Array.isArray(value)) return value.map(withoutLink);
        if (!value || typeof value !== 'object') return value;
        return Object.fromEntries(Object.entries(value).filter(([key, item]) => key !== linkKey || (item !== null && typeof item !== 'object')).map(([key, item]) => [key, withoutLink(item)]));
      };
      expect(withoutLink(answer.data)).toEqual(JSON.parse(service.text).data);
      const translations = JSON.stringify(answer.data).match(new RegExp(`"${linkKey}":(\\{"title":"[^"]+"\\}|null)`, 'g')) ?? [];
      expect(translations.length).toBeGreaterThan(0);
      if (linkKey === 'id') {
        expect(answer.errors?.map((error) => error.path)).toEqual([['problem', 'id']]);
      } else {
        expect(answer.errors).toBeUndefined();
        expect(translations.every((translation) => translation.startsWith(`"${linkKey}":{`))).toBe(true);
      }
    });

    it('a lone __typename, or every source field skipped: answered by the gateway with no call, as delegated', async () => {
      const SKIPPABLE = /* GraphQL */ `query ($skip: Boolean!) { __typename ... @skip(if: $skip) { problem(id: "p1001") { id } } }`;
      for (const request of [{ query: '{ __typename }' }, { query: SKIPPABLE, variables: { skip: true } }]) {
        const { answer, calls } = await both(request, { forwarded: false });
        expect(answer.data).toEqual({ __typename: 'Query' });
        expect(calls).toBe(0);
      }
      const { answer } = await both({ query: SKIPPABLE, variables: { skip: false } });
      expect(answer.data).toEqual({ __typename: 'Query', problem: { id: 'p1001' } });
    });

    it('introspection beyond __typename is never forwarded', async () => {
      const { answer, calls } = await both({ query: /* GraphQL */ `{ __type(name: "Problem") { name } problem(id: "p1001") { id } }` }, { forwarded: false });
      expect(answer.data.__type.name).toBe('Problem');
      expect(calls).toBe(1);
    });

    it('@defer on problems fields: sent whole without it, the deferred part delivered by the gateway, as delegation now does too', async () => {
      const deferred = async (url: string, query: string, variables?: Record<string, unknown>) => {
        problems.seen.length = 0;
        const response = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'multipart/mixed' },
          body: JSON.stringify({ query, variables }),
        });
        return { status: response.status, text: await response.text(), sent: problems.seen.splice(0) as { query: string; variables?: unknown }[] };
      };
      const parts = (text: string) => [...text.matchAll(/\r?\n\r?\n(\{.*\})\r?\n/g)].map((match) => JSON.parse(match[1]));
      const QUERY = /* GraphQL */ `query ($late: Boolean = true) { problem(id: "p1001") { id ... @defer(if: $late) { title } ...Late @defer } } fragment Late on Problem { rating }`;
      const fast = await deferred(pairs.plain.fast, QUERY);
      expect(fast.status).toBe(200);
      expect(fast.sent).toHaveLength(1);
      expect(fast.sent[0].query).not.toContain('@defer');
      expect(fast.sent[0].query).not.toContain('$late');
      const fastParts = parts(fast.text);
      expect(fastParts[0]).toEqual({ data: { problem: { id: 'p1001' } }, hasNext: true });
      const delivered = fastParts.slice(1).flatMap((part) => part.incremental ?? []);
      expect(delivered.map((increment: { data: unknown }) => increment.data)).toEqual(expect.arrayContaining([{ title: expect.any(String) }, { rating: expect.any(Number) }]));
      expect(fast.text).not.toContain('errors');
      // Delegation (schema stitching) kept deferred fields out of its call and nulled them; the
      // gateway's transform (deferred-fields-transform.ts) sends them too, so both ways agree.
      const delegated = await deferred(pairs.plain.delegated, QUERY);
      expect(parts(delegated.text)).toEqual(parts(fast.text));
      expect(delegated.sent.map((sent) => sent.query).join()).not.toContain('@defer');
      // An operation the fast path does not take (the translation namespace beside it) is delegated
      // with the fast path on too: its deferred problems fields arrive as well.
      const beside = await deferred(pairs.plain.fast, /* GraphQL */ `{ translation { languages { code } } problem(id: "p1001") { id ... @defer { title } } }`);
      const besideParts = parts(beside.text);
      expect(beside.text).not.toContain('errors');
      expect(besideParts.slice(1).flatMap((part) => part.incremental ?? []).map((increment: { data: unknown }) => increment.data)).toEqual([{ title: expect.any(String) }]);
      // A deferred client key that is a field the link reads (shadowing-selections.ts renames it in
      // delegation, and gives it back in the increment).
      const SHADOWED = /* GraphQL */ `{ problem(id: "p1001") { translation(to: "es") { title } ... @defer { title: slug } } }`;
      const shadowed = parts((await deferred(pairs.plain.delegated, SHADOWED)).text);
      expect(shadowed).toEqual(parts((await deferred(pairs.plain.fast, SHADOWED)).text));
      expect(shadowed.slice(1).flatMap((part) => part.incremental ?? []).map((increment: { data: unknown }) => increment.data)).toEqual([{ title: 'palindrome-check' }]);
    });
  });

  describe('an upstream that fails: the same errors as the delegated path', () => {
    const QUERY: GraphQLRequest = { query: /* GraphQL */ `query Two { a: problem(id: "p1001") { id title } tags __typename b: problems(first: 1) @skip(if: false) { totalCount } }` };
    it.each<[string, Fault, Record<string, unknown>, number]>([
      ['500 with a body of its own', { status: 500, body: '{"error":"Traceback: secret internals"}' }, { code: 'UPSTREAM_ERROR', status: 500 }, 1],
      ['503, retried until the retries are spent', { status: 503, headers: { 'retry-after': '0' } }, { code: 'UPSTREAM_ERROR', status: 503, retryAfter: 0 }, 3],
      ['429 with a Retry-After past the budget', { status: 429, headers: { 'retry-after': '120' } }, { code: 'UPSTREAM_RATE_LIMITED', status: 429, retryAfter: 120 }, 1],
      ['401: the key refused', { status: 401, body: '{"errors":[{"message":"Invalid API key."}]}' }, { code: 'UPSTREAM_AUTH_REFUSED', status: 401 }, 1],
      ['a body that is not JSON', { body: '<html>busy</html>' }, { code: 'UPSTREAM_ERROR', status: 200 }, 1],
      ['JSON that is not an answer', { body: '[1,2]' }, { code: 'UPSTREAM_ERROR', status: 200 }, 1],
      ['no answer within PROBLEMS_TIMEOUT_MS', { hang: true }, { code: 'UPSTREAM_TIMEOUT' }, 1],
      ['a body that stalls past PROBLEMS_TIMEOUT_MS', { stallBody: true, body: '{"data":{"a":' }, { code: 'UPSTREAM_TIMEOUT' }, 1],
      ['request errors of its own (no data)', { body: '{"errors":[{"message":"boom","extensions":{"code":"FORBIDDEN","http":{"status":418}}},{"message":"bang"}]}' }, { code: 'UPSTREAM_ERROR' }, 1],
    ])('%s', async (_, fault, extensions, calls) => {
      problems.setFault(fault);
      try {
        const { status, answer, calls: made } = await both(QUERY, { which: 'faults' });
        expect(status).toBe(200);
        expect(made).toBe(calls);
        expect(answer.data).toEqual({ a: null, tags: null, __typename: 'Query', b: null });
        expect(answer.errors?.length).toBeGreaterThanOrEqual(3);
        for (const error of answer.errors ?? []) expect(error.extensions).toEqual({ service: 'problems', ...extensions });
        expect(JSON.stringify(answer)).not.toMatch(/secret|Traceback|127\.0\.0\.1|FORBIDDEN|<html/);
      } finally {
        problems.setFault(undefined);
      }
    });

    it('a source that answers more than was asked: only the selected fields reach the client', async () => {
      problems.setFault({ body: '{"data":{"problem":{"__typename":"Problem","secret":"x","id":"p1001","title":"T","tags":["a"],"statement":"s"},"other":2}}' });
      try {
        const { answer } = await both({ query: /* GraphQL */ `{ problem(id: "p1001") { title id tags } }` }, { which: 'faults' });
        expect(answer).toEqual({ data: { problem: { title: 'T', id: 'p1001', tags: ['a'] } } });
      } finally {
        problems.setFault(undefined);
      }
    });

    it('an answer over PROBLEMS_MAX_RESPONSE_BYTES', async () => {
      const { answer } = await both({ query: /* GraphQL */ `{ problems(first: 20) { nodes { statement } } problem(id: "p1001") { id } }` }, { which: 'faults' });
      expect(answer.errors?.map((error) => [error.path, error.extensions?.code])).toEqual([
        [['problems'], 'UPSTREAM_RESPONSE_TOO_LARGE'],
        [['problem'], 'UPSTREAM_RESPONSE_TOO_LARGE'],
      ]);
    });

    it('an upstream that cannot be reached', async () => {
      const down = await pair({ problemsUrl: 'http://127.0.0.1:9' });
      const fast = await post(down.fast, QUERY);
      expect(fast).toEqual(await post(down.delegated, QUERY));
      expect(JSON.parse(fast.text).errors[0]).toEqual({
        message: 'The problems service could not be reached.',
        path: ['a'],
        extensions: { code: 'UPSTREAM_UNAVAILABLE', service: 'problems' },
      });
    });
  });

  it('keeps the problems cache: an answer reused per client credential, an error never', async () => {
    const query = { query: /* GraphQL */ `query ($id: ID!) { problem(id: $id) { id title rating } }`, variables: { id: 'p1042' } };
    const asked = async (authorization: string, request: GraphQLRequest = query) =>
      (await both(request, { which: 'cached', forwarded: 'unless cached', headers: { authorization } })).calls;
    expect(await asked('Bearer client-a')).toBe(1);
    expect(await asked('Bearer client-a')).toBe(0);
    expect(await asked('Bearer client-b')).toBe(1);
    const refused = { query: /* GraphQL */ `{ problem(id: "p1042", slug: "x") { id } }` };
    expect(await asked('Bearer client-a', refused)).toBe(1);
    expect(await asked('Bearer client-a', refused)).toBe(1);
  });

  it('logs the same line either way (yoga, the direct lane, delegation): operation, upstream calls, outcome, status, errors', async () => {
    logs.fast.length = 0;
    logs.delegated.length = 0;
    await both({ query: /* GraphQL */ `query One { problem(id: "p1001") { id } }` });
    await both({ query: /* GraphQL */ `query Refused { problem(id: "p1001", slug: "x") { id } }` });
    // A line is written once its answer has gone out.
    await vi.waitFor(() => expect(logs.delegated).toHaveLength(2));
    await vi.waitFor(() => expect(logs.fast).toHaveLength(4));
    const comparable = ({ level, operation, operationType, upstreamCalls, outcome, status, errors }: RequestLogEntry) => ({ level, operation, operationType, upstreamCalls, outcome, status, errors });
    // Each text twice on the fast gateway, through gateway.fetch then the listener: the direct lane both times, which says so.
    expect(logs.fast.map((entry) => entry.lane)).toEqual(['direct', 'direct', 'direct', 'direct']);
    // And the first request of a text the listener had never seen takes the direct lane too.
    await post(pairs.plain.fast, { query: /* GraphQL */ `query FirstSeen { problem(id: "p1001") { id } }` });
    await vi.waitFor(() => expect(logs.fast).toHaveLength(5));
    expect(logs.fast.at(-1)).toMatchObject({ operation: 'FirstSeen', lane: 'direct', outcome: 'ok' });
    const [oneByYoga, oneDirect, refusedByYoga, refusedDirect] = logs.fast.map(comparable);
    expect([oneByYoga, refusedByYoga]).toEqual(logs.delegated.map(comparable));
    expect([oneDirect, refusedDirect]).toEqual(logs.delegated.map(comparable));
    expect(logs.delegated.map(comparable)).toEqual([
      { level: 'info', operation: 'One', operationType: 'query', upstreamCalls: { problems: 1, translation: 0 }, outcome: 'ok', status: 200, errors: 0 },
      { level: 'warn', operation: 'Refused', operationType: 'query', upstreamCalls: { problems: 1, translation: 0 }, outcome: 'error', status: 200, errors: 1 },
    ]);
  });

  it('sends the problems key, the request id and the headers the delegated path sends', async () => {
    const headers: Record<string, string | string[] | undefined>[] = [];
    const record = (request: IncomingMessage) => headers.push(request.headers);
    problems.server.server.on('request', record);
    try {
      await both({ query: /* GraphQL */ `{ problem(id: "p1001") { id } }` });
    } finally {
      problems.server.server.off('request', record);
    }
    const [fast, delegated] = headers.map(({ accept, authorization, 'content-type': type, 'x-request-id': id }) => ({ accept, authorization, type, id: typeof id }));
    expect(fast).toEqual(delegated);
    expect(fast).toEqual({ accept: expect.stringMatching(/^application\/graphql-response\+json/), authorization: `Bearer ${stack.upstreamSettings.problemsApiKey}`, type: 'application/json', id: 'string' });
  });
});
