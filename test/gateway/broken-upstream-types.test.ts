import { Kind, parse, type SelectionSetNode } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen, type RunningServer } from '../../src/shared/listen.ts';
import { sharedStack } from '../helpers/shared-stack.ts';
import type { Stack } from '../helpers/start-stack.ts';

/** What the broken service answers for each field, whatever the schema says the field is. */
const BROKEN: Record<string, unknown> = {
  id: { nested: true },
  title: null,
  difficulty: 'NOPE',
  rating: 'abc',
  slug: 42,
  acceptanceRate: 'abc',
  tags: 'not a list',
};

/**
 * A problems service whose answers break the types of its own schema: it answers any query by
 * walking its selections, giving each field the broken value above (objects for the fields with
 * selections), as a faulty or drifted real service might.
 */
function answerOf(selectionSet: SelectionSetNode, typename: string): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) {
      const key = selection.alias?.value ?? selection.name.value;
      const name = selection.name.value;
      data[key] = name === '__typename' ? typename : selection.selectionSet ? answerOf(selection.selectionSet, name === 'statistics' ? 'ProblemStatistics' : 'Problem') : (BROKEN[name] ?? null);
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      Object.assign(data, answerOf(selection.selectionSet, typename));
    }
  }
  return data;
}

const QUERIES: [string, string][] = [
  ['a null in a non-null field', /* GraphQL */ `query A { problem(id: "p1001") { title } }`],
  ['an enum value the schema does not have', /* GraphQL */ `query B { problem(id: "p1001") { difficulty } }`],
  ['a string in an Int and a Float', /* GraphQL */ `query C { problem(id: "p1001") { rating statistics { acceptanceRate } } }`],
  ['an object in an ID', /* GraphQL */ `query D { problem(id: "p1001") { id } }`],
  ['a number in a String (coerced, as graphql-js does)', /* GraphQL */ `query E { problem(id: "p1001") { slug } }`],
  ['a string where a list belongs', /* GraphQL */ `query F { problem(id: "p1001") { tags } }`],
];

describe('an upstream whose answers break its types: every way of answering completes them as delegation does', () => {
  let stack: Stack;
  let broken: RunningServer;
  let forwarding: Awaited<ReturnType<Stack['addGateway']>>;
  let delegating: Awaited<ReturnType<Stack['addGateway']>>;
  const lanes: (string | undefined)[] = [];
  beforeAll(async () => {
    broken = await listen((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        const { query } = JSON.parse(body) as { query: string };
        const operation = parse(query).definitions.find((definition) => definition.kind === Kind.OPERATION_DEFINITION);
        const data = operation && operation.kind === Kind.OPERATION_DEFINITION ? answerOf(operation.selectionSet, 'Query') : null;
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ data }));
      });
    });
    stack = await sharedStack('open');
    const settings = { problemsUrl: broken.url, responseCacheTtlSeconds: 60 };
    forwarding = await stack.addGateway({ settings, requestLog: (entry) => lanes.push(entry.lane) });
    delegating = await stack.addGateway({ settings: { ...settings, fastPathEnabled: false } });
  });
  afterAll(async () => {
    await stack?.close();
    await broken?.close();
  });

  const post = (url: string, query: string) =>
    fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) }).then(async (response) => ({
      status: response.status,
      body: await response.text(),
    }));

  it.each(QUERIES)('%s', async (_name, query) => {
    const delegated = await post(delegating.gatewayUrl, query);
    // Every request, the first of its text as the later ones, is forwarded by the front door itself
    // (lane `direct`): the response cache kept nothing (its answers would be lane `cache`).
    lanes.length = 0;
    const answers = [await post(forwarding.gatewayUrl, query), await post(forwarding.gatewayUrl, query), await post(forwarding.gatewayUrl, query)];
    // Log lines are written once the answers are out: waited for, then read.
    await expect.poll(() => lanes.length).toBe(3);
    expect(lanes).toEqual(['direct', 'direct', 'direct']);
    for (const answer of answers) expect(answer).toEqual(delegated);
  });

  it('serves none of the broken values as data', async () => {
    for (const [, query] of QUERIES.slice(0, 4)) {
      const { body } = await post(forwarding.gatewayUrl, query);
      const answer = JSON.parse(body) as { data?: { problem: unknown }; errors?: unknown[] };
      expect(answer.errors?.length).toBeGreaterThan(0);
      expect(JSON.stringify(answer.data ?? null)).not.toMatch(/NOPE|abc|nested/);
    }
  });
});
