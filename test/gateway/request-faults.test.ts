import { Kind, parse, type SelectionSetNode } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textsOf } from '../../src/gateway/links/problem-translation.ts';
import { listen, type RunningServer } from '../../src/shared/listen.ts';
import { startRedis, type RedisServer } from '../helpers/redis-server.ts';
import { sharedStack } from '../helpers/shared-stack.ts';
import { startStack, type Stack } from '../helpers/start-stack.ts';

type Answer = { status: number; body: string };
const send = (url: string, body: unknown, headers: Record<string, string> = {}): Promise<Answer> =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) }).then(async (response) => ({
    status: response.status,
    body: await response.text(),
  }));
const viaYoga = (target: { gateway: { fetch(request: Request): Promise<Response> }; gatewayUrl: string }, body: unknown): Promise<Answer> =>
  target.gateway
    .fetch(new Request(target.gatewayUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }))
    .then(async (response) => ({ status: response.status, body: await response.text() }));

/** Issue 28, items 5–8: faults of a request that must not depend on which way, or which replica, answers it. */
describe('a cached answer is served only where the request would have run', () => {
  let redis: RedisServer;
  let stack: Stack;
  let production: Awaited<ReturnType<Stack['addGateway']>>;
  beforeAll(async () => {
    redis = await startRedis();
    const shared = { redisUrl: redis.url, responseCacheTtlSeconds: 60 };
    // A development replica (introspection on) and a production one (off), sharing one Redis.
    stack = await startStack({ settings: { ...shared, introspection: true } });
    production = await stack.addGateway({ settings: { ...shared, introspection: false, production: true } });
  });
  afterAll(async () => {
    await stack?.close();
    await redis?.stop();
  });

  it('MUST NOT serve, from the shared cache, introspection another replica answered where this one refuses it', async () => {
    const query = { query: '{ __schema { queryType { name } } }' };
    const development = await send(stack.gatewayUrl, query);
    expect(development.status).toBe(200);
    expect(development.body).toContain('"queryType"');
    for (const answer of [await send(production.gatewayUrl, query), await viaYoga(production, query)]) {
      expect(answer.body).not.toContain('"queryType"');
      expect(answer.body).toContain('"errors"');
    }
  });
});

describe('what a request says, answered alike whichever way answers it', () => {
  let stack: Stack;
  let cached: Awaited<ReturnType<Stack['addGateway']>>;
  let delegating: Awaited<ReturnType<Stack['addGateway']>>;
  beforeAll(async () => {
    stack = await sharedStack('open');
    cached = await stack.addGateway({ settings: { responseCacheTtlSeconds: 60 } });
    delegating = await stack.addGateway({ settings: { fastPathEnabled: false } });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('MUST treat operationName "" as a name no operation has, even after the query was cached without one', async () => {
    const query = 'query N { problem(id: "p1004") { id } }';
    const first = await send(cached.gatewayUrl, { query, operationName: '' });
    expect(first.status).toBe(400);
    expect(first.body).toContain('OPERATION_RESOLUTION_FAILURE');
    expect((await send(cached.gatewayUrl, { query })).status).toBe(200);
    expect((await send(cached.gatewayUrl, { query })).status).toBe(200);
    for (const answer of [await send(cached.gatewayUrl, { query, operationName: '' }), await viaYoga(cached, { query, operationName: '' })]) {
      expect(answer).toEqual(first);
    }
  });

  it('MUST answer an explicit null for a defaulted variable in @include(if:) as delegation does, forwarded or not', async () => {
    const body = {
      query: 'query Q3($s: Boolean!, $i: Boolean = true) { problem(id: "p1001") @include(if: $s) { id title @include(if: $i) } }',
      variables: { s: true, i: null },
    };
    const problemsCalls = stack.problems.stats.requests;
    const delegated = await send(delegating.gatewayUrl, body);
    // The client's input, refused before any call: 400, naming the argument.
    expect(delegated.status).toBe(400);
    expect(JSON.parse(delegated.body)).toEqual({
      errors: [{ message: 'Variable "$i" is null, but @skip(if:) and @include(if:) take true or false.', extensions: { code: 'BAD_USER_INPUT', argument: 'if' } }],
    });
    expect(stack.problems.stats.requests).toBe(problemsCalls);
    // Through yoga first, then the node:http adapter's own lane for a text yoga vetted.
    const vetting = { ...body, variables: { s: true, i: true } };
    expect((await send(cached.gatewayUrl, vetting)).status).toBe(200);
    for (const answer of [await viaYoga(cached, body), await send(cached.gatewayUrl, body), await send(cached.gatewayUrl, body)]) {
      expect(answer).toEqual(delegated);
    }
  });
});

describe('a problem whose title the service answers null', () => {
  let stack: Stack;
  let broken: RunningServer;
  let forwarding: Awaited<ReturnType<Stack['addGateway']>>;
  let delegating: Awaited<ReturnType<Stack['addGateway']>>;
  const answerOf = (selectionSet: SelectionSetNode, typename: string): Record<string, unknown> => {
    const data: Record<string, unknown> = {};
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.INLINE_FRAGMENT) Object.assign(data, answerOf(selection.selectionSet, typename));
      if (selection.kind !== Kind.FIELD) continue;
      const key = selection.alias?.value ?? selection.name.value;
      const name = selection.name.value;
      if (name === '__typename') data[key] = typename;
      else if (selection.selectionSet) data[key] = answerOf(selection.selectionSet, 'Problem');
      else data[key] = name === 'title' ? null : name === 'id' ? 'p1001' : name === 'statement' ? 'Print the answer.' : null;
    }
    return data;
  };
  beforeAll(async () => {
    broken = await listen((request, response) => {
      let text = '';
      request.on('data', (chunk: Buffer) => (text += chunk.toString()));
      request.on('end', () => {
        const operation = parse((JSON.parse(text) as { query: string }).query).definitions.find((definition) => definition.kind === Kind.OPERATION_DEFINITION);
        const data = operation?.kind === Kind.OPERATION_DEFINITION ? answerOf(operation.selectionSet, 'Query') : null;
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ data }));
      });
    });
    stack = await sharedStack('open');
    forwarding = await stack.addGateway({ settings: { problemsUrl: broken.url } });
    delegating = await stack.addGateway({ settings: { problemsUrl: broken.url, fastPathEnabled: false } });
  });
  afterAll(async () => {
    await stack?.close();
    await broken?.close();
  });

  it('MUST say what happened (the service gave no title), not blame a deferred fragment', async () => {
    const body = { query: '{ problem(id: "p1001") { translation(to: "es") { title } } }' };
    for (const target of [delegating, forwarding]) {
      const answer = await send(target.gatewayUrl, body);
      expect(answer.body).not.toMatch(/deferred fragment/);
      expect(answer.body).toMatch(/returned no title or statement|Cannot return null/);
    }
  });
});

describe('the link, given a problem whose texts the service answered null', () => {
  it('MUST blame the service, not a deferred fragment, whatever else the problem lacks', async () => {
    // The texts were fetched with the problem (present, null); no id came with them to fetch them by.
    await expect(textsOf({ title: null, statement: 'Print the answer.' } as never, {})).rejects.toMatchObject({
      message: 'The problems service returned no title or statement for this problem.',
      extensions: { code: 'UPSTREAM_ERROR', service: 'problems' },
    });
  });
});
