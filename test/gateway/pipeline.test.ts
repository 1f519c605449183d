import { createGraphQLError } from 'graphql-yoga';
import { yogaAloneOf } from '../../src/gateway/composition/engine-serving.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestLogEntry } from '../../src/gateway/observability/index.ts';
import type { GuardList } from '../../src/gateway/request/guards.ts';
import { sharedStack } from '../helpers/shared-stack.ts';
import type { Stack } from '../helpers/start-stack.ts';

const BY_ID = /* GraphQL */ `query ById($id: ID!) { problem(id: $id) { id title } }`;

/** How many times the params guards ran on a request carrying `x-count-params` (by its value). */
const paramsChecks = new Map<string, number>();

/** Throw-away guards, one per phase, each refusing only what carries its header. */
const throwAway: Partial<GuardList> = {
  head: [
    {
      name: 'teapot',
      check: (request) =>
        request.head.headers.get('x-teapot') === null ? undefined : { status: 418, headers: { 'content-type': 'text/plain' }, body: "I'm a teapot" },
    },
  ],
  params: [
    {
      name: 'no variables named secret',
      check: (_request, params) =>
        params.variables && typeof params.variables === 'object' && 'secret' in params.variables
          ? createGraphQLError('No secrets here.', { extensions: { code: 'NO_SECRETS', http: { status: 400 } } })
          : undefined,
    },
    {
      name: 'count',
      check: (request) => {
        const counted = request.head.headers.get('x-count-params');
        if (counted !== null) paramsChecks.set(counted, (paramsChecks.get(counted) ?? 0) + 1);
        return undefined;
      },
    },
  ],
  operation: [
    {
      name: 'problem p1003 is closed',
      check: (_request, estimate) =>
        estimate.fieldArguments.some(({ args }) => args.id === 'p1003')
          ? createGraphQLError('Problem p1003 is closed.', { extensions: { code: 'CLOSED', http: { status: 403 } } })
          : undefined,
    },
  ],
};

describe('one request pipeline', () => {
  let stack: Stack;
  let added: Awaited<ReturnType<Stack['addGateway']>>;
  const logged: RequestLogEntry[] = [];
  beforeAll(async () => {
    stack = await sharedStack('open');
    added = await stack.addGateway({
      settings: { responseCacheTtlSeconds: 30, gatewayApiKeys: ['key-a'] },
      guards: throwAway,
      requestLog: (entry) => logged.push(entry),
    });
  });
  afterAll(async () => {
    await stack?.close();
  });

  const init = (variables: Record<string, unknown>, headers: Record<string, string> = {}): RequestInit => ({
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer key-a', ...headers },
    body: JSON.stringify({ query: BY_ID, variables }),
  });
  /** Through the front door (the listener), and through yoga alone behind no door (its own guard plugin). */
  const bothWays = async (variables: Record<string, unknown>, headers?: Record<string, string>) => {
    const viaListener = await fetch(added.gatewayUrl, init(variables, headers));
    const lane = await lastLane();
    const viaYoga = await yogaAloneOf(added.gateway).fetch(new Request(added.gatewayUrl, init(variables, headers)));
    return {
      listener: { status: viaListener.status, body: await viaListener.text(), lane },
      yoga: { status: viaYoga.status, body: await viaYoga.text() },
    };
  };
  const lastLane = async () => {
    await new Promise((resolve) => setTimeout(resolve, 10));
    return logged.at(-1)?.lane;
  };

  it('lists every guard and plugin in the order they apply', () => {
    expect(added.gateway.pipeline.guards).toEqual({
      head: ['route', 'observe arrival', 'identify caller', 'requests budget', 'require key', 'csrf', 'declared length', 'teapot'],
      params: ['variables depth', 'no variables named secret', 'count'],
      batch: ['requests budget of a batch'],
      operation: ['conditions', 'translation arguments', 'execution limits', 'problem p1003 is closed', 'translation budget'],
    });
    expect(added.gateway.pipeline.plugins).toEqual([
      'mesh',
      'public schema',
      'defer and stream',
      'guards',
      'graphiql files',
      'observation, readiness, metrics',
      'content type',
      'request body',
      'persisted documents',
      'introspection switch',
      'document limits',
      'selection order',
      'response cache',
      'execution',
      'error masking',
    ]);
  });

  it('applies a head guard added to the list on both adapters, before any body is read', async () => {
    const { listener, yoga } = await bothWays({ id: 'p1001' }, { 'x-teapot': '1' });
    expect(listener).toMatchObject({ status: 418, body: "I'm a teapot" });
    expect(yoga).toEqual({ status: 418, body: "I'm a teapot" });
  });

  it('applies a params guard added to the list on both adapters, for a cached query too', async () => {
    // Cached first: the params guards still run before the cache answers.
    expect((await bothWays({ id: 'p1001' })).listener.status).toBe(200);
    const { listener, yoga } = await bothWays({ id: 'p1001', secret: 1 });
    expect(listener.status).toBe(400);
    expect(JSON.parse(listener.body).errors[0].extensions.code).toBe('NO_SECRETS');
    expect(yoga).toEqual({ status: listener.status, body: listener.body });
  });

  it('runs the params guards once on a request the front door hands on to yoga', async () => {
    // A text never asked before, with `@include`: the front door checks its params, misses the
    // cache, and hands it on; yoga does not check them again.
    const query = /* GraphQL */ `query Once($id: ID!, $slug: Boolean!) { problem(id: $id) { id slug @include(if: $slug) } }`;
    for (const [round, expected] of [['first', 200], ['second', 200]] as const) {
      const response = await fetch(added.gatewayUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer key-a', 'x-count-params': round },
        body: JSON.stringify({ query, variables: { id: 'p1001', slug: round === 'first' } }),
      });
      expect(response.status).toBe(expected);
      expect(paramsChecks.get(round)).toBe(1);
    }
  });

  it('applies an operation guard added to the list on both adapters, on an operation the node:http adapter forwards itself', async () => {
    // The first request goes through yoga, which vets the text; the next is the node:http adapter's own.
    expect((await bothWays({ id: 'p1002' })).listener.status).toBe(200);
    const { listener, yoga } = await bothWays({ id: 'p1003' });
    expect(listener.lane).toBe('direct');
    expect(listener.status).toBe(403);
    expect(JSON.parse(listener.body).errors[0].extensions.code).toBe('CLOSED');
    expect(yoga).toEqual({ status: listener.status, body: listener.body });
  });
});
