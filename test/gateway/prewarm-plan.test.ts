import { buildSchema, type ExecutionResult } from 'graphql';
import { describe, expect, it } from 'vitest';
import { createCallPacer, pageSizeFor } from '../../src/gateway/translation/prewarm/call-pacer.ts';
import { planCataloguePage, readCataloguePage } from '../../src/gateway/translation/prewarm/catalogue-page.ts';
import { startTranslationPrewarm } from '../../src/gateway/translation/prewarm/translation-prewarm.ts';
import { until } from '../helpers/translate-calls.ts';

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
    expect('document' in nodes && nodes.variables(5, null, 'es')).toEqual({ size: 5, from: null, to: 'es' });
    const edges = planCataloguePage(buildSchema(`${LINK}
      type Problem { id: ID! translation(to: String): ProblemTranslation }
      type Edge { node: Problem! }
      type ProblemConnection { edges: [Edge!]! pageInfo: PageInfo! }
      type Query { problems(first: Int!, after: String): ProblemConnection! }`));
    expect('document' in edges && edges.document).toContain('$size: Int!, $from: String, $to: String)');
    expect('document' in edges && edges.document).toContain('edges { node { id  translation(to: $to)');
  });

  it('says why it cannot run: no problems list, no pagination, no link', () => {
    expect(planCataloguePage(buildSchema('type Query { tags: [String!]! }'))).toEqual({ reason: 'the schema has no Query.problems list' });
    expect(planCataloguePage(buildSchema(`${LINK} type Problem { id: ID! } type Query { problems: [Problem!]! }`))).toEqual({
      reason: 'Query.problems (no arguments) takes neither `first` and `after` (cursors) nor `offset` or `skip` with `limit` or `first` (numeric offsets), so it cannot be walked page by page',
    });
    expect(
      planCataloguePage(buildSchema(`${LINK}
        type Problem { id: ID! title: String! translation(to: String): ProblemTranslation }
        type ProblemConnection { nodes: [Problem!]! totalCount: Int! }
        type Query { problems(first: Int, after: String): ProblemConnection! }`)),
    ).toEqual({ reason: 'Query.problems takes `first` and `after`, but it answers neither pageInfo { hasNextPage endCursor } nor edges { cursor }, so the next page\'s cursor is unknown' });
    expect(
      planCataloguePage(buildSchema(`${LINK}
        type Problem { id: ID! title: String! }
        type ProblemConnection { nodes: [Problem!]! pageInfo: PageInfo! }
        type Query { problems(first: Int, after: String): ProblemConnection! }`)),
    ).toEqual({ reason: 'the Problem.translation link is not in the schema' });
  });

  it('reads where the next page starts: the last edge cursor, or the offset past the problems read, ending on a short page or totalCount', () => {
    const edges = planCataloguePage(buildSchema(`${LINK}
      type Problem { id: ID! translation(to: String): ProblemTranslation }
      type Edge { cursor: ID! node: Problem! }
      type ProblemConnection { edges: [Edge!]! }
      type Query { problems(first: Int!, after: ID): ProblemConnection! }`));
    if (!('document' in edges)) throw new Error(edges.reason);
    expect(edges.pagination).toBe('cursors on edges');
    expect(edges.document).toContain('edges { cursor node { id  translation(to: $to)');
    const edge = (id: string) => ({ cursor: `c-${id}`, node: { id, translation: { title: 't' } } });
    expect(edges.read({ data: { problems: { edges: [edge('a'), edge('b')] } } }, 2, null)).toMatchObject({ hasNextPage: true, endCursor: 'c-b' });
    expect(edges.read({ data: { problems: { edges: [edge('c')] } } }, 2, 'c-b')).toMatchObject({ hasNextPage: false, endCursor: 'c-c' });

    const offsets = planCataloguePage(buildSchema(`${LINK}
      type Problem { id: ID! translation(to: String): ProblemTranslation }
      type Query { problems(skip: Int, limit: Int): [Problem] }`));
    if (!('document' in offsets)) throw new Error(offsets.reason);
    expect(offsets.pagination).toBe('skip/limit');
    expect(offsets.document).toContain('problems(limit: $size, skip: $from) { id  translation(to: $to)');
    expect(offsets.variables(3, null, 'es')).toEqual({ size: 3, from: 0, to: 'es' });
    expect(offsets.variables(3, '6', 'es')).toEqual({ size: 3, from: 6, to: 'es' });
    const node = (id: string) => ({ id, translation: { title: 't' } });
    expect(offsets.read({ data: { problems: [node('a'), node('b'), node('c')] } }, 3, '6')).toMatchObject({ hasNextPage: true, endCursor: '9' });
    expect(offsets.read({ data: { problems: [node('a')] } }, 3, '9')).toMatchObject({ hasNextPage: false, endCursor: '10' });

    const counted = planCataloguePage(buildSchema(`${LINK}
      type Problem { id: ID! translation(to: String): ProblemTranslation }
      type Page { items: [Problem!]! totalCount: Int! }
      type Query { problems(offset: Int!, first: Int!): Page! }`));
    if (!('document' in counted)) throw new Error(counted.reason);
    expect(counted.read({ data: { problems: { items: [node('a'), node('b')], totalCount: 4 } } }, 2, '2')).toMatchObject({ hasNextPage: false, endCursor: '4', total: 4 });
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

describe('prewarming: a page that keeps failing for some of its problems', () => {
  it('takes the page as it is after its attempts when others on it translated: those count as failed and the walk goes on', async () => {
    const schema = buildSchema(`${LINK}
      type Problem { id: ID! title: String! translation(to: String!): ProblemTranslation }
      type ProblemConnection { nodes: [Problem!]! pageInfo: PageInfo! }
      type Query { problems(first: Int, after: String): ProblemConnection! }`);
    let pages = 0;
    const lines: string[] = [];
    // The problems the link serves: p2's translation fails each time with an error worth another attempt.
    const execute = () => {
      pages += 1;
      return {
        data: { problems: { nodes: [{ id: 'p1', title: 'a', translation: { title: 'A' } }, { id: 'p2', title: 'b', translation: null }], pageInfo: { hasNextPage: false, endCursor: 'c2' } } },
        errors: [{ message: 'failed', path: ['problems', 'nodes', 1, 'translation'], extensions: { code: 'UPSTREAM_ERROR', retryAfter: 0.01 } }],
      } as unknown as ExecutionResult;
    };
    const prewarm = startTranslationPrewarm({
      languages: ['es'],
      target: () => ({ schema, execute }),
      calls: { inFlight: 0, lastSettledAt: 0, madeFor: () => 1 },
      callsPerSecond: 100,
      cacheTtlMs: 60_000,
      readersQuietMs: 0,
      log: (line) => lines.push(line),
    });
    try {
      await until(() => lines.some((line) => line.includes('complete')), 'the walk');
    } finally {
      await prewarm.stop();
    }
    expect(pages).toBe(5);
    expect(lines).toEqual([
      'translation prewarm: es: problem "p2" skipped, not translated (UPSTREAM_ERROR); the walk goes on',
      expect.stringMatching(/^translation prewarm: es complete: 1 problems translated or cached, 1 failed \(UPSTREAM_ERROR\), 5 translation calls/),
    ]);
  });
});
