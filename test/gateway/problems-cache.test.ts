import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../helpers/start-stack.ts';

describe('problems answers cache (PROBLEMS_CACHE_TTL_SECONDS)', () => {
  let stack: Stack;
  const upstreamCalls = () => stack.problems.stats.requests;

  beforeAll(async () => {
    stack = await startStack({ settings: { problemsCacheTtlSeconds: 60 } });
  });
  afterAll(async () => {
    await stack?.close();
  });
  beforeEach(() => stack.problems.resetStats());

  it('answers a repeated query from the cache', async () => {
    const query = /* GraphQL */ `{ problems(first: 3, sort: { field: RATING }) { nodes { id rating } } }`;
    const first = await stack.query(query);
    const second = await stack.query(query);
    expect(second.data).toEqual(first.data);
    expect(upstreamCalls()).toBe(1);
  });

  it('keeps clients with different credentials apart', async () => {
    const query = /* GraphQL */ `{ problem(id: "p1005") { id title } }`;
    await stack.query(query, undefined, { authorization: 'Bearer client-a' });
    await stack.query(query, undefined, { authorization: 'Bearer client-b' });
    expect(upstreamCalls()).toBe(2);
    await stack.query(query, undefined, { authorization: 'Bearer client-a' });
    expect(upstreamCalls()).toBe(2);
  });

  it('never caches an answer with errors', async () => {
    // A cursor the service never issued: it answers with an error.
    const query = /* GraphQL */ `{ problems(after: "not-a-cursor") { totalCount } }`;
    const first = await stack.query(query);
    expect(first.errors?.length).toBeGreaterThan(0);
    await stack.query(query);
    expect(upstreamCalls()).toBe(2);
  });

  it('sends one upstream call for identical queries in flight together', async () => {
    const query = /* GraphQL */ `{ problem(id: "p1006") { id statistics { submissions } } }`;
    const results = await Promise.all([stack.query(query), stack.query(query), stack.query(query)]);
    for (const result of results) expect(result.data.problem.id).toBe('p1006');
    expect(upstreamCalls()).toBe(1);
  });
});
