import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordUpstreamRequests } from '../helpers/record-upstream-requests.ts';
import { sharedStack } from '../helpers/shared-stack.ts';
import type { GraphQLResponse, Stack } from '../helpers/start-stack.ts';

/**
 * The cost limit (MAX_COST, default 5000) judges the values the executor will use, not the raw
 * variables a client sent: each case pairs a query the estimate once costed as one item per page,
 * and that the stand-ins answered with megabytes, with the same query at a sane size, still served.
 */

/** A page of problems, each with its contest's problems, `levels` times over. */
const nested = (levels: number, leaf: string): string => (levels === 0 ? leaf : `contest { problems { ${nested(levels - 1, leaf)} } }`);

describe('cost limit', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await sharedStack('open');
  });
  afterAll(async () => {
    await stack?.close();
  });

  /** Sends the query, recording what the stand-ins received meanwhile. */
  async function send(query: string, variables?: Record<string, unknown>) {
    const recording = recordUpstreamRequests(stack);
    try {
      const response = await stack.query(query, variables);
      return { response, upstream: recording.seen };
    } finally {
      recording.stop();
    }
  }

  function expectRefused(response: GraphQLResponse): void {
    expect(response.status).toBe(400);
    expect(response.data).toBeUndefined();
    expect(response.errors?.[0]?.extensions).toMatchObject({ code: 'OPERATION_LIMIT_EXCEEDED', limit: 5000 });
  }

  it('MUST refuse a page size given as a variable default, before any upstream call', async () => {
    // 154 bytes that returned 19 MB when the estimate read the unsent `$n` as one problem.
    const query = /* GraphQL */ `query ($n: Int = 100) { problems(first: $n) { nodes { statement ${nested(3, 'statement')} } } }`;
    const refused = await send(query);
    expectRefused(refused.response);
    expect(refused.upstream.problems).toHaveLength(0);

    const served = await send(/* GraphQL */ `query ($n: Int = 100) { problems(first: $n) { nodes { id ${nested(1, 'id')} } } }`, { n: 3 });
    expect(served.response.status).toBe(200);
    expect(served.response.errors).toBeUndefined();
    expect(served.response.data.problems.nodes).toHaveLength(3);
  });

  it('MUST cost `first: null` and an unsent variable as the page the service then returns', async () => {
    // Each returned 4 MB (20 problems, the service's default page) while costed as one problem.
    for (const [query, variables] of [
      [`{ problems(first: null) { nodes { ${nested(3, 'statement')} } } }`, undefined],
      [`query ($n: Int) { problems(first: $n) { nodes { ${nested(3, 'statement')} } } }`, undefined],
      [`query ($n: Int = 5) { problems(first: $n) { nodes { ${nested(3, 'statement')} } } }`, { n: null }],
    ] as const) {
      const refused = await send(query, variables);
      expectRefused(refused.response);
      expect(refused.upstream.problems).toHaveLength(0);
    }

    for (const query of [
      /* GraphQL */ `{ problems(first: null) { nodes { id ${nested(1, 'title')} } } }`,
      /* GraphQL */ `query ($n: Int) { problems(first: $n) { nodes { id ${nested(1, 'title')} } } }`,
    ]) {
      const served = await send(query);
      expect(served.response.status).toBe(200);
      expect(served.response.errors).toBeUndefined();
      expect(served.response.data.problems.nodes).toHaveLength(20);
    }
  });

  it('MUST count the texts of a list variable\'s default, before any translation call', async () => {
    const texts = Array.from({ length: 600 }, (_, i) => `"text ${i}"`).join(' ');
    const refused = await send(/* GraphQL */ `query ($t: [String!]! = [${texts}]) { translation { translateMany(texts: $t, to: "es") { text } } }`);
    expectRefused(refused.response);
    expect(refused.upstream.translation).toHaveLength(0);

    const served = await send(/* GraphQL */ `query ($b: String = "world") { translation { translateMany(texts: ["hello", $b], to: "es") { text } } }`);
    expect(served.response.status).toBe(200);
    expect(served.response.errors).toBeUndefined();
    expect(served.response.data.translation.translateMany).toHaveLength(2);
  });

  it('MUST measure an argument given as a variable default against MAX_ARGUMENT_LENGTH, never sending it upstream', async () => {
    const refused = await send(/* GraphQL */ `query ($id: ID = "${'x'.repeat(20_000)}") { problem(id: $id) { title } }`);
    expect(refused.response.status).toBe(400);
    expect(refused.response.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argument: 'id', limit: 10_000 });
    expect(refused.upstream.problems).toHaveLength(0);

    const served = await send(/* GraphQL */ `query ($id: ID = "p1001") { problem(id: $id) { title } }`);
    expect(served.response.data).toEqual({ problem: { title: 'Palindrome Check' } });
  });
});
