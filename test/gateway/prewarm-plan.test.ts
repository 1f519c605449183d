import { buildSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import { createCallPacer, pageSizeFor } from '../../src/gateway/translation/prewarm/call-pacer.ts';
import { planCataloguePage, readCataloguePage } from '../../src/gateway/translation/prewarm/catalogue-page.ts';

const LINK = /* GraphQL */ `
  type ProblemTranslation { title: String! statement: String! }
  type PageInfo { hasNextPage: Boolean! endCursor: String }
`;

describe('prewarming: the catalogue page, read from the schema', () => {
  it('asks for nodes or edges, with the argument types the schema declares', () => {
    const nodes = planCataloguePage(buildSchema(`${LINK}
      type Problem { id: ID! title: String! statement: String! translation(to: String!, from: String): ProblemTranslation }
      type ProblemConnection { nodes: [Problem!]! pageInfo: PageInfo! totalCount: Int! }
      type Query { problems(first: Int = 20, after: String): ProblemConnection! }`));
    expect('document' in nodes && nodes.document).toContain('nodes { id title statement translation(to: $to) { title statement } } pageInfo { hasNextPage endCursor } totalCount');
    expect('document' in nodes && nodes.variables(5, null, 'es')).toEqual({ first: 5, after: null, to: 'es' });
    const edges = planCataloguePage(buildSchema(`${LINK}
      type Problem { id: ID! translation(to: String): ProblemTranslation }
      type Edge { node: Problem! }
      type ProblemConnection { edges: [Edge!]! pageInfo: PageInfo! }
      type Query { problems(first: Int!, after: String): ProblemConnection! }`));
    expect('document' in edges && edges.document).toContain('$first: Int!, $after: String, $to: String)');
    expect('document' in edges && edges.document).toContain('edges { node { id  translation(to: $to)');
  });

  it('says why it cannot run: no problems list, no pagination, no link', () => {
    expect(planCataloguePage(buildSchema('type Query { tags: [String!]! }'))).toEqual({ reason: 'the schema has no Query.problems list' });
    expect(planCataloguePage(buildSchema(`${LINK} type Problem { id: ID! } type Query { problems: [Problem!]! }`))).toMatchObject({ reason: expect.stringContaining('first: Int') });
    expect(
      planCataloguePage(buildSchema(`${LINK}
        type Problem { id: ID! title: String! }
        type ProblemConnection { nodes: [Problem!]! pageInfo: PageInfo! }
        type Query { problems(first: Int, after: String): ProblemConnection! }`)),
    ).toEqual({ reason: 'the Problem.translation link is not in the schema' });
  });

  it('reads a page: translated problems, failures by code, what is worth another attempt', () => {
    const page = readCataloguePage({
      data: { problems: { nodes: [{ id: 'p1', translation: { title: 'x' } }, { id: 'p2', translation: null }, { id: 'p3', translation: null }], pageInfo: { hasNextPage: true, endCursor: 'c3' }, totalCount: 9 } },
      errors: [{ path: ['problems', 'nodes', 1, 'translation'], extensions: { code: 'UPSTREAM_RATE_LIMITED', retryAfter: 3 } }],
    });
    expect(page.problems.map((problem) => [problem.translated, problem.failure])).toEqual([[true, undefined], [false, 'UPSTREAM_RATE_LIMITED'], [false, 'UPSTREAM_RATE_LIMITED']]);
    expect(page).toMatchObject({ hasNextPage: true, endCursor: 'c3', total: 9, transient: { codes: ['UPSTREAM_RATE_LIMITED'], retryAfterMs: 3000 } });
    expect(readCataloguePage({ data: null, errors: [{ path: ['problems'], extensions: { code: 'UPSTREAM_UNAVAILABLE' } }] }).transient).toEqual({ codes: ['UPSTREAM_UNAVAILABLE'] });
    const refused = readCataloguePage({ data: { problems: { nodes: [{ id: 'p1', translation: null }], pageInfo: { hasNextPage: false, endCursor: 'c1' } } }, errors: [{ path: ['problems', 'nodes', 0, 'translation'], extensions: { code: 'TEXT_TOO_LONG' } }] });
    expect(refused.transient).toBeUndefined();
    expect(refused.problems[0].failure).toBe('TEXT_TOO_LONG');
  });
});

describe('prewarming: the pace', () => {
  it('lets a page start only when the last second, with its expected calls, stays within the rate', () => {
    let now = 10_000;
    const pacer = createCallPacer(3, () => now);
    expect(pacer.waitMs(2)).toBe(0);
    pacer.record(2);
    now += 100;
    expect(pacer.waitMs(1)).toBe(0);
    expect(pacer.waitMs(2)).toBe(901);
    pacer.record(1);
    now += 500;
    expect(pacer.waitMs(1)).toBe(401);
    now += 401;
    // The first page's calls have left the window.
    expect(pacer.waitMs(2)).toBe(0);
    expect(pacer.waitMs(3)).toBe(100);
    // More expected than the rate: waits for an empty second.
    expect(pacer.waitMs(10)).toBe(100);
  });

  it('sizes pages to make at most the rate in calls', () => {
    expect(pageSizeFor(2, 1, 20)).toBe(2);
    expect(pageSizeFor(2, 0.05, 20)).toBe(20);
    expect(pageSizeFor(2, 3, 20)).toBe(1);
    expect(pageSizeFor(2, 0, 20)).toBe(20);
  });
});
