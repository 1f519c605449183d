import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fullGarbageCollection } from '../../src/cli/release-start-up-memory.ts';
import { PROBLEMS_KEY, TRANSLATION_KEY, startStack, type Stack } from '../helpers/start-stack.ts';

/**
 * One test per hostile input. Each asserts the exact HTTP status and error code, that nothing secret
 * or internal is in the answer, and that the gateway still serves afterwards. The gateway runs as in
 * production: keys required, errors masked, introspection off.
 */
const CLIENT_KEY = 'hostile-suite-client-key';

describe('hostile input', () => {
  let stack: Stack;
  let secrets: string[];

  beforeAll(async () => {
    stack = await startStack({
      settings: { gatewayApiKeys: [CLIENT_KEY], production: true, introspection: false, translationTimeoutMs: 500, translationCacheTtlSeconds: 0 },
    });
    secrets = [CLIENT_KEY, PROBLEMS_KEY, TRANSLATION_KEY, process.env.PROBLEMS_URL!, process.env.TRANSLATION_URL!];
  });
  afterAll(async () => {
    await stack?.close();
  });
  afterEach(async () => {
    // Whatever the last test sent, the gateway still answers a normal query.
    const check = await send({ query: '{ problem(id: "p1001") { id } }' });
    expect(check.status).toBe(200);
    expect(check.body.data).toEqual({ problem: { id: 'p1001' } });
  });

  interface Sent {
    status: number;
    body: any;
    text: string;
  }

  /** POSTs (or sends `init`) with the client key and GraphQL-over-HTTP's own media type. */
  async function send(payload: unknown, init: RequestInit & { url?: string; raw?: BodyInit } = {}): Promise<Sent> {
    const response = await fetch(init.url ?? stack.gatewayUrl, {
      method: 'POST',
      ...init,
      headers: {
        authorization: `Bearer ${CLIENT_KEY}`,
        'content-type': 'application/json',
        accept: 'application/graphql-response+json',
        ...(init.headers as Record<string, string>),
      },
      body: init.method === 'GET' ? undefined : (init.raw ?? JSON.stringify(payload)),
    });
    const text = await response.text();
    let body: any;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    for (const secret of secrets) expect(text).not.toContain(secret);
    expect(text).not.toMatch(/\n\s+at |stack|node_modules/);
    return { status: response.status, body, text };
  }

  const codeOf = (sent: Sent) => sent.body?.errors?.[0]?.extensions?.code;

  it('malformed JSON: 400 BAD_REQUEST', async () => {
    const sent = await send(undefined, { raw: '{"query": ' });
    expect([sent.status, codeOf(sent)]).toEqual([400, 'BAD_REQUEST']);
  });

  it('missing content type: 403 CSRF_CHECK_FAILED (a cross-site form could send it)', async () => {
    const sent = await send(undefined, { raw: '{"query":"{ __typename }"}', headers: { 'content-type': '' } });
    expect([sent.status, codeOf(sent)]).toEqual([403, 'CSRF_CHECK_FAILED']);
  });

  it('wrong content type: 415 with no body to misread', async () => {
    const sent = await send(undefined, { raw: '<query/>', headers: { 'content-type': 'application/xml' } });
    expect(sent.status).toBe(415);
  });

  it('empty body: 400 BAD_REQUEST', async () => {
    const sent = await send(undefined, { raw: '' });
    expect([sent.status, codeOf(sent)]).toEqual([400, 'BAD_REQUEST']);
  });

  it('a 10 MB body: 413 REQUEST_ENTITY_TOO_LARGE', async () => {
    const sent = await send({ query: '{ __typename }', padding: 'x'.repeat(10 * 1024 * 1024) });
    expect([sent.status, codeOf(sent)]).toEqual([413, 'REQUEST_ENTITY_TOO_LARGE']);
  });

  it('a query of 100k tokens: 400 OPERATION_LIMIT_EXCEEDED, stopped while parsing', async () => {
    const sent = await send({ query: `{ ${'a '.repeat(100_000)}}` });
    expect([sent.status, codeOf(sent)]).toEqual([400, 'OPERATION_LIMIT_EXCEEDED']);
    expect(sent.body.errors[0].message).toBe('Token limit of 2000 exceeded.');
  });

  it('depth 200: 400 OPERATION_LIMIT_EXCEEDED', async () => {
    const query = `{ user(handle: "x") { ${'ratingHistory { contest { problems { contest { '.repeat(50)}id${' } } } }'.repeat(50)} } }`;
    const sent = await send({ query });
    expect(sent.status).toBe(400);
    expect(sent.body.errors.map((error: any) => error.extensions.code)).toContain('OPERATION_LIMIT_EXCEEDED');
    expect(sent.body.errors.find((error: any) => error.extensions.code === 'OPERATION_LIMIT_EXCEEDED').message).toMatch(/^Query depth limit of 10 exceeded/);
  });

  it('5,000 aliases of the costly link: 400 OPERATION_LIMIT_EXCEEDED before any translation call', async () => {
    stack.translation.resetStats();
    const aliases = Array.from({ length: 5000 }, (_, index) => `t${index}: translation(to: "es") { title }`).join(' ');
    const sent = await send({ query: `{ problem(id: "p1001") { ${aliases} } }` });
    expect([sent.status, codeOf(sent)]).toEqual([400, 'OPERATION_LIMIT_EXCEEDED']);
    expect(stack.translation.stats.requests).toBe(0);
  });

  it('alias limit itself: 16 aliases refused with 400 OPERATION_LIMIT_EXCEEDED', async () => {
    const aliases = Array.from({ length: 16 }, (_, index) => `t${index}: translation(to: "es") { title }`).join(' ');
    const sent = await send({ query: `{ problem(id: "p1001") { ${aliases} } }` });
    expect([sent.status, codeOf(sent)]).toEqual([400, 'OPERATION_LIMIT_EXCEEDED']);
    expect(sent.body.errors[0].message).toMatch(/^Aliases limit of 15 exceeded/);
  });

  it('fragment cycles: 400 GRAPHQL_VALIDATION_FAILED, reported once', async () => {
    const sent = await send({ query: '{ problem(id: "p1001") { ...A } } fragment A on Problem { id ...B } fragment B on Problem { id ...A }' });
    expect([sent.status, codeOf(sent)]).toEqual([400, 'GRAPHQL_VALIDATION_FAILED']);
    expect(sent.body.errors[0].message).toBe('Cannot spread fragment "A" within itself via "B".');
  });

  it('a fragment spreading itself: 400 GRAPHQL_VALIDATION_FAILED', async () => {
    const sent = await send({ query: '{ problem(id: "p1001") { ...A } } fragment A on Problem { id ...A }' });
    expect([sent.status, codeOf(sent)]).toEqual([400, 'GRAPHQL_VALIDATION_FAILED']);
    expect(sent.body.errors).toHaveLength(1);
  });

  it('1,000 repeated directives: 400 OPERATION_LIMIT_EXCEEDED', async () => {
    const sent = await send({ query: `{ problem(id: "p1001") { id ${'@include(if: true) '.repeat(1000)}} }` });
    expect([sent.status, codeOf(sent)]).toEqual([400, 'OPERATION_LIMIT_EXCEEDED']);
  });

  it('51 directives, under the token limit: 400 OPERATION_LIMIT_EXCEEDED from the directive limit', async () => {
    const sent = await send({ query: `{ problem(id: "p1001") { id ${'@skip(if: false) '.repeat(51)}} }` });
    expect([sent.status, codeOf(sent)]).toEqual([400, 'OPERATION_LIMIT_EXCEEDED']);
    expect(sent.body.errors[0].message).toMatch(/^Directives limit of 50 exceeded/);
  });

  it('unknown operationName: 400 OPERATION_RESOLUTION_FAILURE', async () => {
    const sent = await send({ query: 'query A { __typename }', operationName: 'B' });
    expect([sent.status, codeOf(sent)]).toEqual([400, 'OPERATION_RESOLUTION_FAILURE']);
  });

  it('variables of the wrong type: 400 BAD_USER_INPUT', async () => {
    const sent = await send({ query: 'query ($n: Int) { problems(first: $n) { totalCount } }', variables: { n: 'ten' } });
    expect([sent.status, codeOf(sent)]).toEqual([400, 'BAD_USER_INPUT']);
  });

  it('deeply nested variable objects: 400 BAD_USER_INPUT, not a stack overflow', async () => {
    const nested = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`;
    const raw = `{"query":"query ($f: ProblemFilter) { problems(filter: $f) { totalCount } }","variables":{"f":${nested}}}`;
    const sent = await send(undefined, { raw });
    expect([sent.status, codeOf(sent)]).toEqual([400, 'BAD_USER_INPUT']);
    expect(sent.body.errors[0].message).toBe('Variables nest deeper than 20 levels.');
  });

  it('invalid UTF-8: 400 REQUEST_NOT_UTF8', async () => {
    const raw = Buffer.concat([Buffer.from('{"query":"{ problem(id: \\"p'), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('\\") { id } }"}')]);
    const sent = await send(undefined, { raw });
    expect([sent.status, codeOf(sent)]).toEqual([400, 'REQUEST_NOT_UTF8']);
  });

  /** A body sent in chunks, with no Content-Length (as a streaming client sends it). */
  const chunked = (text: string) =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        const bytes = Buffer.from(text);
        for (let offset = 0; offset < bytes.length; offset += 64 * 1024) controller.enqueue(bytes.subarray(offset, offset + 64 * 1024));
        controller.close();
      },
    });
  const overOneMiB = JSON.stringify({ query: '{ __typename }', variables: { pad: 'x'.repeat(1024 * 1024) } });

  it('a body over MAX_BODY_BYTES with its length declared: 413 REQUEST_ENTITY_TOO_LARGE', async () => {
    const sent = await send(undefined, { raw: overOneMiB });
    expect([sent.status, codeOf(sent)]).toEqual([413, 'REQUEST_ENTITY_TOO_LARGE']);
  });

  it('a body over MAX_BODY_BYTES sent in chunks, no length: 413 REQUEST_ENTITY_TOO_LARGE', async () => {
    const sent = await send(undefined, { raw: chunked(overOneMiB), duplex: 'half' } as RequestInit & { raw: BodyInit });
    expect([sent.status, codeOf(sent)]).toEqual([413, 'REQUEST_ENTITY_TOO_LARGE']);
  });

  it('a body within MAX_BODY_BYTES sent in chunks is answered', async () => {
    const raw = chunked(JSON.stringify({ query: '{ problem(id: "p1001") { id } }', variables: { pad: 'x'.repeat(200 * 1024) } }));
    const sent = await send(undefined, { raw, duplex: 'half' } as RequestInit & { raw: BodyInit });
    expect([sent.status, sent.body.data]).toEqual([200, { problem: { id: 'p1001' } }]);
  });

  it('a mutation over GET: 405 BAD_REQUEST', async () => {
    const url = `${stack.gatewayUrl}?query=${encodeURIComponent('mutation { __typename }')}`;
    const sent = await send(undefined, { method: 'GET', url, headers: { 'x-graphql-yoga-csrf': '1' } });
    expect([sent.status, codeOf(sent)]).toEqual([405, 'BAD_REQUEST']);
  });

  it('500 operations in one batched request: 413 BAD_REQUEST', async () => {
    const sent = await send(Array.from({ length: 500 }, () => ({ query: '{ __typename }' })));
    expect([sent.status, codeOf(sent)]).toEqual([413, 'BAD_REQUEST']);
    expect(sent.body.errors[0].message).toBe('Batching is limited to 10 operations per request.');
  });

  it('__schema introspection in production when disabled: 400 GRAPHQL_VALIDATION_FAILED', async () => {
    const sent = await send({ query: '{ __schema { types { name } } }' });
    expect([sent.status, codeOf(sent)]).toEqual([400, 'GRAPHQL_VALIDATION_FAILED']);
    expect(sent.body.data).toBeUndefined();
  });

  it('no field suggestions in production', async () => {
    const sent = await send({ query: '{ problm(id: "p1001") { id } }' });
    expect([sent.status, codeOf(sent)]).toEqual([400, 'GRAPHQL_VALIDATION_FAILED']);
    expect(sent.text).not.toContain('Did you mean');
  });

  it('translation `to:` an unknown code: 200 with UNSUPPORTED_LANGUAGE on that field', async () => {
    const sent = await send({ query: '{ problem(id: "p1001") { id translation(to: "xx") { title } } }' });
    expect([sent.status, codeOf(sent)]).toEqual([200, 'UNSUPPORTED_LANGUAGE']);
    expect(sent.body.data.problem).toEqual({ id: 'p1001', translation: null });
    expect(sent.body.errors[0].extensions.argument).toBe('to');
  });

  it('translation `to:` 10 KB of text: BAD_USER_INPUT naming `to`, no translation call', async () => {
    stack.translation.resetStats();
    const sent = await send({ query: 'query ($to: String!) { problem(id: "p1001") { id translation(to: $to) { title } } }', variables: { to: 'e'.repeat(10 * 1024) } });
    expect([sent.status, codeOf(sent)]).toEqual([400, 'BAD_USER_INPUT']);
    expect(sent.body.errors[0].extensions.argument).toBe('to');
    expect(stack.translation.stats.requests).toBe(0);
  });

  it('translation `to:` control characters: 400 BAD_USER_INPUT naming `to`, no upstream call', async () => {
    stack.problems.resetStats();
    stack.translation.resetStats();
    const sent = await send({ query: 'query ($to: String!) { problem(id: "p1001") { id translation(to: $to) { title } } }', variables: { to: 'es\u0000\u0007\n' } });
    expect([sent.status, codeOf(sent)]).toEqual([400, 'BAD_USER_INPUT']);
    expect(sent.body.errors[0].extensions.argument).toBe('to');
    expect(stack.problems.stats.requests + stack.translation.stats.requests).toBe(0);
  });

  it('a problem id of 1 MB: 400 BAD_USER_INPUT, never sent upstream', async () => {
    stack.problems.resetStats();
    const sent = await send({ query: 'query ($id: ID!) { problem(id: $id) { id } }', variables: { id: 'p'.repeat(1024 * 1024 - 200) } });
    expect([sent.status, codeOf(sent)]).toEqual([400, 'BAD_USER_INPUT']);
    expect(sent.body.errors[0].extensions).toMatchObject({ argument: 'id', limit: 10_000 });
    expect(stack.problems.stats.requests).toBe(0);
  });

  it.each([['/graphql/'], ['/x/graphql'], ['/?p=/graphql']])('a path merely ending in the endpoint (%s): 404 NOT_FOUND, never GraphQL without a key', async (path) => {
    const response = await fetch(new URL(path, stack.gatewayUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
      body: JSON.stringify({ query: '{ problem(id: "p1001") { id } }' }),
    });
    expect(response.status).toBe(404);
    expect((await response.json()).errors[0].extensions.code).toBe('NOT_FOUND');
  });

  it('fragments spreading fragments twice, 30 levels deep: 400 OPERATION_LIMIT_EXCEEDED, estimated in linear time', async () => {
    const fragments = Array.from({ length: 30 }, (_, level) =>
      level === 29 ? `fragment F29 on Query { problem(id: "p1001") { id } }` : `fragment F${level} on Query { ...F${level + 1} ...F${level + 1} }`,
    ).join(' ');
    const sent = await send({ query: `{ ...F0 } ${fragments}` });
    expect([sent.status, codeOf(sent)]).toEqual([400, 'OPERATION_LIMIT_EXCEEDED']);
    expect(sent.body.errors[0].message).toMatch(/^The operation (selects \d+ root fields; at most 20|'s estimated cost is \d+; at most 5000)/);
  });

  it('`detect` of a text over the limit: BAD_USER_INPUT naming `text`, no translation call', async () => {
    stack.translation.resetStats();
    const sent = await send({ query: 'query ($t: String!) { translation { detect(text: $t) { code } } }', variables: { t: 'a'.repeat(5001) } });
    expect(codeOf(sent)).toBe('BAD_USER_INPUT');
    expect(sent.body.errors[0].extensions.argument).toBe('text');
    expect(stack.translation.stats.requests).toBe(0);
  });

  it('concurrent requests that each time out upstream: all answered, no sockets or memory left behind', async () => {
    // Connections the translation stand-in still holds: a timed-out call must close its socket.
    const upstreamConnections = () =>
      new Promise<number>((resolve, reject) =>
        stack.upstreamServers.translation.server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
      );
    const gc = fullGarbageCollection();
    stack.translation.setFaults({ hang: true, routes: ['POST /translate'] });
    const round = async (offset: number) => {
      const results = await Promise.all(
        Array.from({ length: 40 }, (_, index) =>
          send({ query: `{ translation { translate(text: "Timeout probe ${offset + index}.", to: "es") { text } } }` }),
        ),
      );
      for (const result of results) {
        expect(result.status).toBe(200);
        expect(codeOf(result)).toBe('UPSTREAM_TIMEOUT');
      }
    };
    try {
      await round(0); // warm-up: pools and caches reach their steady size
      await new Promise((resolve) => setTimeout(resolve, 200));
      gc?.();
      const socketsBefore = await upstreamConnections();
      const heapBefore = process.memoryUsage().heapUsed;
      for (let index = 1; index <= 3; index += 1) await round(index * 100);
      await new Promise((resolve) => setTimeout(resolve, 200));
      gc?.();
      const socketsAfter = await upstreamConnections();
      const heapAfter = process.memoryUsage().heapUsed;
      console.log(
        `120 timed-out calls: translation stand-in connections ${socketsBefore} -> ${socketsAfter}; heap ${(heapBefore / 1e6).toFixed(1)} MB -> ${(heapAfter / 1e6).toFixed(1)} MB`,
      );
      // 120 more timed-out calls leave no more connections open than the warm-up did, or than the
      // pool holds (32: the warm-up may not have reached it) ...
      expect(socketsAfter).toBeLessThanOrEqual(Math.max(socketsBefore, 32));
      // ... nor grow the heap by anything like their number.
      expect(heapAfter - heapBefore).toBeLessThan(20 * 1024 * 1024);
    } finally {
      stack.translation.clearFaults();
    }
    // And the pool is not clogged: the next translation goes through.
    const after = await send({ query: '{ translation { translate(text: "After the storm.", to: "es") { text } } }' });
    expect(after.body.errors).toBeUndefined();
    expect(await upstreamConnections()).toBeLessThanOrEqual(32);
  });
});

