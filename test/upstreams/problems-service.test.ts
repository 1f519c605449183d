/**
 * Contract of the problems stand-in, over real HTTP: what the gateway (and anyone pointing a GraphQL
 * client at the service) may rely on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen, type RunningServer } from '../../src/shared/listen.ts';
import { createProblemsService, type ProblemsService } from '../../src/upstreams/problems/service.ts';

const API_KEY = 'test-key';

let service: ProblemsService;
let server: RunningServer;

beforeAll(async () => {
  service = createProblemsService({ apiKey: API_KEY });
  server = await listen(service.listener);
});

afterAll(async () => {
  await server?.close();
});

interface GraphQLErrorBody {
  message: string;
  extensions?: { code?: string; [key: string]: unknown };
}

interface GraphQLResponse<T> {
  data?: T | null;
  errors?: GraphQLErrorBody[];
}

async function post(body: unknown, headers: Record<string, string> = { authorization: `Bearer ${API_KEY}` }) {
  const response = await fetch(`${server.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** Runs a query with the right key and returns the parsed body. */
async function gql<T = any>(query: string, variables?: Record<string, unknown>): Promise<GraphQLResponse<T>> {
  const { text } = await post({ query, variables });
  return JSON.parse(text) as GraphQLResponse<T>;
}

/** Runs a query that must succeed and returns its data. */
async function data<T = any>(query: string, variables?: Record<string, unknown>): Promise<T> {
  const result = await gql<T>(query, variables);
  expect(result.errors).toBeUndefined();
  return result.data as T;
}

const round4 = (x: number) => Math.round(x * 10_000) / 10_000;

const PROBLEM_FIELDS = /* GraphQL */ `
  id
  slug
  title
  statement
  difficulty
  rating
  tags
  examples { input output explanation }
  constraints { timeLimitMs memoryLimitMb text }
  contest { id slug }
  statistics { submissions accepted acceptanceRate solvers }
`;

interface ProblemNode {
  id: string;
  slug: string;
  title: string;
  statement: string;
  difficulty: 'EASY' | 'MEDIUM' | 'HARD';
  rating: number;
  tags: string[];
  examples: Array<{ input: string; output: string; explanation: string | null }>;
  constraints: { timeLimitMs: number; memoryLimitMb: number; text: string };
  contest: { id: string; slug: string } | null;
  statistics: { submissions: number; accepted: number; acceptanceRate: number; solvers: number };
}

interface Page<T> {
  edges: Array<{ cursor: string; node: T }>;
  nodes: T[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
  totalCount: number;
}

const PROBLEMS_PAGE = /* GraphQL */ `
  query Problems($first: Int, $after: String, $filter: ProblemFilter, $sort: ProblemSort) {
    problems(first: $first, after: $after, filter: $filter, sort: $sort) {
      edges { cursor node { ${PROBLEM_FIELDS} } }
      nodes { id }
      pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
      totalCount
    }
  }
`;

/** Follows `endCursor` until the end and returns every problem of the list, checking page invariants on the way. */
async function walkProblems(variables: Record<string, unknown> = {}, pageSize = 100): Promise<ProblemNode[]> {
  const all: ProblemNode[] = [];
  let after: string | null = null;
  for (let guard = 0; guard < 100; guard++) {
    const page: Page<ProblemNode> = (await data<{ problems: Page<ProblemNode> }>(PROBLEMS_PAGE, { ...variables, first: pageSize, after })).problems;
    expect(page.nodes.map((n) => n.id)).toEqual(page.edges.map((e) => e.node.id));
    expect(page.pageInfo.hasPreviousPage).toBe(after !== null);
    expect(page.pageInfo.startCursor).toBe(page.edges[0]?.cursor ?? null);
    expect(page.pageInfo.endCursor).toBe(page.edges.at(-1)?.cursor ?? null);
    all.push(...page.edges.map((e) => e.node));
    if (!page.pageInfo.hasNextPage) {
      expect(all).toHaveLength(page.totalCount);
      return all;
    }
    expect(page.edges).toHaveLength(pageSize);
    after = page.pageInfo.endCursor;
  }
  throw new Error('pagination did not end');
}

let everyProblem: ProblemNode[];
async function allProblems() {
  everyProblem ??= await walkProblems();
  return everyProblem;
}

describe('authentication', () => {
  it('returns 401 with an UNAUTHENTICATED error without the Bearer key', async () => {
    const response = await post({ query: '{ tags }' }, {});
    expect(response.status).toBe(401);
    expect(response.headers.get('content-type')).toMatch(/application\/json/);
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
    const body = JSON.parse(response.text);
    expect(body.data).toBeUndefined();
    expect(body.errors).toHaveLength(1);
    expect(body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    expect(body.errors[0].message).toMatch(/API key/);
  });

  it('returns 401 with a wrong key and never echoes either key', async () => {
    const response = await post({ query: '{ tags }' }, { authorization: 'Bearer wrong-key-42' });
    expect(response.status).toBe(401);
    expect(JSON.parse(response.text).errors[0].extensions.code).toBe('UNAUTHENTICATED');
    expect(response.text).not.toContain('wrong-key-42');
    expect(response.text).not.toContain(API_KEY);
  });

  it('returns 401 for a key that is a prefix of the right one, or for another scheme', async () => {
    for (const authorization of ['Bearer test-ke', 'Bearer test-key-and-more', `Basic ${API_KEY}`, API_KEY, 'Bearer']) {
      expect((await post({ query: '{ tags }' }, { authorization })).status).toBe(401);
    }
  });

  it('rejects GET requests without the key too', async () => {
    const response = await fetch(`${server.url}/graphql?query=${encodeURIComponent('{ tags }')}`, { headers: { accept: 'application/json' } });
    expect(response.status).toBe(401);
  });

  it('answers with the right key, whatever the case of the scheme', async () => {
    for (const authorization of [`Bearer ${API_KEY}`, `bearer ${API_KEY}`]) {
      const response = await post({ query: '{ tags }' }, { authorization });
      expect(response.status).toBe(200);
      expect(JSON.parse(response.text).data.tags.length).toBeGreaterThan(0);
    }
  });

  it('keeps the health check open', async () => {
    const response = await fetch(`${server.url}/health`);
    expect(response.status).toBe(200);
  });

  it('counts requests to /graphql, rejected ones included, until reset', async () => {
    service.resetStats();
    expect(service.stats.requests).toBe(0);
    await post({ query: '{ tags }' });
    await post({ query: '{ tags }' }, {});
    await fetch(`${server.url}/health`);
    expect(service.stats.requests).toBe(2);
    service.resetStats();
    expect(service.stats.requests).toBe(0);
  });
});

describe('an open service', () => {
  it('answers without any key when no apiKey is set', async () => {
    const open = createProblemsService();
    const running = await listen(open.listener);
    try {
      const response = await fetch(`${running.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ languages { id } }' }),
      });
      expect(response.status).toBe(200);
      expect((await response.json()).data.languages.length).toBeGreaterThanOrEqual(10);
      expect(open.stats.requests).toBe(1);
    } finally {
      await running.close();
    }
  });
});

describe('problem lookup', () => {
  const BY = /* GraphQL */ `
    query One($id: ID, $slug: String) { problem(id: $id, slug: $slug) { ${PROBLEM_FIELDS} } }
  `;

  it('finds a problem by id with all its fields', async () => {
    const { problem } = await data<{ problem: ProblemNode }>(BY, { id: 'p1001' });
    expect(problem.id).toBe('p1001');
    expect(problem.slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    expect(problem.title.length).toBeGreaterThan(3);
    expect(problem.statement).toContain('## Input');
    expect(problem.examples.length).toBeGreaterThan(0);
    expect(problem.constraints.timeLimitMs).toBeGreaterThan(0);
    expect(problem.contest?.id).toMatch(/^c\d+$/);
    expect(['EASY', 'MEDIUM', 'HARD']).toContain(problem.difficulty);
  });

  it('finds the same problem by slug', async () => {
    const byId = (await data<{ problem: ProblemNode }>(BY, { id: 'p1042' })).problem;
    const bySlug = (await data<{ problem: ProblemNode }>(BY, { slug: byId.slug })).problem;
    expect(bySlug).toEqual(byId);
  });

  it('returns null for an unknown id or slug', async () => {
    expect(await data(BY, { id: 'p999999' })).toEqual({ problem: null });
    expect(await data(BY, { slug: 'no-such-problem' })).toEqual({ problem: null });
  });

  it('rejects a lookup with neither id nor slug', async () => {
    const result = await gql(BY, {});
    expect(result.data).toEqual({ problem: null });
    expect(result.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    expect(result.errors?.[0].message).toMatch(/exactly one of `id` or `slug`/);
  });

  it('rejects a lookup with both id and slug', async () => {
    const result = await gql(BY, { id: 'p1001', slug: 'anything' });
    expect(result.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
  });
});

describe('problem list', () => {
  it('walks all problems with cursors, in id order, matching totalCount', async () => {
    const problems = await walkProblems({}, 37);
    expect(problems.length).toBeGreaterThanOrEqual(150);
    const ids = problems.map((p) => Number(p.id.slice(1)));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(problems).toEqual(await allProblems());
  });

  it('returns 20 problems by default and reports the total', async () => {
    const { problems } = await data<{ problems: Page<ProblemNode> }>(PROBLEMS_PAGE);
    expect(problems.edges).toHaveLength(20);
    expect(problems.pageInfo.hasNextPage).toBe(true);
    expect(problems.pageInfo.hasPreviousPage).toBe(false);
    expect(problems.totalCount).toBe((await allProblems()).length);
  });

  it('returns an empty page for first: 0, with the total count', async () => {
    const { problems } = await data<{ problems: Page<ProblemNode> }>(PROBLEMS_PAGE, { first: 0 });
    expect(problems.edges).toEqual([]);
    expect(problems.pageInfo).toEqual({ hasNextPage: true, hasPreviousPage: false, startCursor: null, endCursor: null });
    expect(problems.totalCount).toBeGreaterThanOrEqual(150);
  });

  it('gives opaque base64 cursors that continue exactly after the item', async () => {
    const first = (await data<{ problems: Page<ProblemNode> }>(PROBLEMS_PAGE, { first: 5 })).problems;
    for (const edge of first.edges) expect(edge.cursor).toMatch(/^[A-Za-z0-9+/]+={0,2}$/);
    const next = (await data<{ problems: Page<ProblemNode> }>(PROBLEMS_PAGE, { first: 3, after: first.edges[1].cursor })).problems;
    expect(next.nodes.map((n) => n.id)).toEqual(first.nodes.slice(2, 5).map((n) => n.id));
  });

  describe('filters', () => {
    it('keeps only the given difficulties', async () => {
      const all = await allProblems();
      let seen = 0;
      for (const difficulty of ['EASY', 'MEDIUM', 'HARD']) {
        const list = await walkProblems({ filter: { difficulty: [difficulty] } });
        expect(list.length).toBeGreaterThan(0);
        expect(list.every((p) => p.difficulty === difficulty)).toBe(true);
        seen += list.length;
      }
      expect(seen).toBe(all.length);
      const two = await walkProblems({ filter: { difficulty: ['EASY', 'HARD'] } });
      expect(two.map((p) => p.id)).toEqual(all.filter((p) => p.difficulty !== 'MEDIUM').map((p) => p.id));
    });

    it('keeps only problems that have all the given tags', async () => {
      const all = await allProblems();
      const list = await walkProblems({ filter: { tags: ['dp', 'strings'] } });
      expect(list.length).toBeGreaterThan(0);
      expect(list.map((p) => p.id)).toEqual(all.filter((p) => p.tags.includes('dp') && p.tags.includes('strings')).map((p) => p.id));
      expect(await walkProblems({ filter: { tags: ['no-such-tag'] } })).toEqual([]);
    });

    it('keeps ratings within ratingMin and ratingMax, both inclusive', async () => {
      const all = await allProblems();
      const list = await walkProblems({ filter: { ratingMin: 1500, ratingMax: 2000 } });
      expect(list.map((p) => p.id)).toEqual(all.filter((p) => p.rating >= 1500 && p.rating <= 2000).map((p) => p.id));
      expect(list.some((p) => p.rating === 1500) && list.some((p) => p.rating === 2000)).toBe(true);
      expect((await walkProblems({ filter: { ratingMin: 3000 } })).every((p) => p.rating >= 3000)).toBe(true);
    });

    it('rejects ratingMin greater than ratingMax', async () => {
      const result = await gql(PROBLEMS_PAGE, { filter: { ratingMin: 2000, ratingMax: 1000 } });
      expect(result.data).toBeNull();
      expect(result.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
      expect(result.errors?.[0].message).toMatch(/ratingMin/);
    });

    it('searches title and statement, ignoring case', async () => {
      const all = await allProblems();
      const list = await walkProblems({ filter: { search: 'PALINDROME' } });
      const expected = all.filter((p) => p.title.toLowerCase().includes('palindrome') || p.statement.toLowerCase().includes('palindrome'));
      expect(list.map((p) => p.id)).toEqual(expected.map((p) => p.id));
      expect(list.some((p) => p.slug === 'palindrome-check')).toBe(true);
      // A word that only occurs in the body of one statement.
      const bodyOnly = await walkProblems({ filter: { search: 'perpendicular' } });
      expect(bodyOnly.map((p) => p.slug)).toEqual(['knight-on-a-board']);
      expect(await walkProblems({ filter: { search: 'zzz-nothing-zzz' } })).toEqual([]);
    });

    it('combines filters with AND and reports the filtered total', async () => {
      const all = await allProblems();
      const filter = { difficulty: ['MEDIUM'], tags: ['graphs'], ratingMax: 1800 };
      const expected = all.filter((p) => p.difficulty === 'MEDIUM' && p.tags.includes('graphs') && p.rating <= 1800);
      const { problems } = await data<{ problems: Page<ProblemNode> }>(PROBLEMS_PAGE, { filter, first: 2 });
      expect(problems.totalCount).toBe(expected.length);
      expect(problems.nodes.map((n) => n.id)).toEqual(expected.slice(0, 2).map((p) => p.id));
    });
  });

  describe('sorting', () => {
    const byId = (a: ProblemNode, b: ProblemNode) => Number(a.id.slice(1)) - Number(b.id.slice(1));
    const cases: Array<[string, 'ASC' | 'DESC', (a: ProblemNode, b: ProblemNode) => number]> = [
      ['RATING', 'ASC', (a, b) => a.rating - b.rating],
      ['RATING', 'DESC', (a, b) => b.rating - a.rating],
      ['TITLE', 'ASC', (a, b) => a.title.localeCompare(b.title, 'en')],
      ['ACCEPTANCE_RATE', 'DESC', (a, b) => b.statistics.acceptanceRate - a.statistics.acceptanceRate],
      ['SUBMISSIONS', 'ASC', (a, b) => a.statistics.submissions - b.statistics.submissions],
      ['ID', 'DESC', (a, b) => byId(b, a)],
    ];

    for (const [field, direction, compare] of cases) {
      it(`sorts by ${field} ${direction}, ties by id, stable across pages`, async () => {
        const all = await allProblems();
        const sorted = await walkProblems({ sort: { field, direction } }, 40);
        expect(sorted.map((p) => p.id)).toEqual([...all].sort((a, b) => compare(a, b) || byId(a, b)).map((p) => p.id));
      });
    }

    it('sorts ascending when no direction is given', async () => {
      const { problems } = await data<{ problems: Page<ProblemNode> }>(PROBLEMS_PAGE, { sort: { field: 'RATING' }, first: 100 });
      const ratings = problems.edges.map((e) => e.node.rating);
      expect(ratings).toHaveLength(100);
      expect(ratings).toEqual([...ratings].sort((a, b) => a - b));
    });

    it('sorts within a filter', async () => {
      const list = await walkProblems({ filter: { difficulty: ['HARD'] }, sort: { field: 'RATING', direction: 'DESC' } });
      expect(list.every((p) => p.difficulty === 'HARD')).toBe(true);
      expect(list.map((p) => p.rating)).toEqual(list.map((p) => p.rating).sort((a, b) => b - a));
    });

    it('rejects an unknown sort field as invalid input', async () => {
      const result = await gql(PROBLEMS_PAGE, { sort: { field: 'POPULARITY' } });
      expect(result.errors?.[0].message).toMatch(/POPULARITY/);
    });
  });

  describe('bad arguments', () => {
    for (const first of [-1, 101, 1_000_000]) {
      it(`rejects first: ${first} with a clear error`, async () => {
        const result = await gql(PROBLEMS_PAGE, { first });
        expect(result.data).toBeNull();
        expect(result.errors).toHaveLength(1);
        expect(result.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
        expect(result.errors?.[0].message).toMatch(/`first` must be between 0 and 100/);
      });
    }

    it('accepts first: 100, the cap', async () => {
      const { problems } = await data<{ problems: Page<ProblemNode> }>(PROBLEMS_PAGE, { first: 100 });
      expect(problems.edges).toHaveLength(100);
    });

    for (const after of ['not-a-cursor', 'bm9wZQ==', '', Buffer.from('problems:-1').toString('base64'), Buffer.from('problems:01').toString('base64')]) {
      it(`rejects the malformed cursor ${JSON.stringify(after)}`, async () => {
        const result = await gql(PROBLEMS_PAGE, { after });
        expect(result.data).toBeNull();
        expect(result.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
        expect(result.errors?.[0].message).toMatch(/Invalid cursor/);
      });
    }

    it('rejects a cursor from another list', async () => {
      const { contests } = await data<{ contests: Page<{ id: string }> }>('{ contests(first: 1) { edges { cursor node { id } } } }');
      const result = await gql(PROBLEMS_PAGE, { after: contests.edges[0].cursor });
      expect(result.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    });

    it('returns an empty page after the cursor of the last problem', async () => {
      const all = await allProblems();
      const { problems: head } = await data<{ problems: Page<ProblemNode> }>(PROBLEMS_PAGE, { first: all.length - 1 > 100 ? 100 : all.length - 1 });
      const { problems: tail } = await data<{ problems: Page<ProblemNode> }>(PROBLEMS_PAGE, { first: 100, after: head.pageInfo.endCursor });
      expect(tail.pageInfo.hasNextPage).toBe(false);
      expect(tail.nodes.at(-1)?.id).toBe(all.at(-1)?.id);
      const { problems: end } = await data<{ problems: Page<ProblemNode> }>(PROBLEMS_PAGE, { first: 5, after: tail.pageInfo.endCursor });
      expect(end.edges).toEqual([]);
      expect(end.pageInfo).toEqual({ hasNextPage: false, hasPreviousPage: true, startCursor: null, endCursor: null });
      expect(end.totalCount).toBe(all.length);
    });

    it('rejects a non-integer first as a GraphQL validation error, not a crash', async () => {
      const response = await post({ query: '{ problems(first: "ten") { totalCount } }' });
      // With `Accept: application/json`, GraphQL over HTTP answers 200 with the validation error.
      expect(response.status).toBe(200);
      const body = JSON.parse(response.text);
      expect(body.data).toBeUndefined();
      expect(body.errors[0].message).toMatch(/Int/);
    });
  });
});

describe('contests', () => {
  const CONTESTS = /* GraphQL */ `
    query Contests($first: Int, $after: String) {
      contests(first: $first, after: $after) {
        edges { cursor node { id slug title startsAt endsAt durationMinutes problemIds problems { id contest { id } rating } } }
        pageInfo { hasNextPage endCursor }
        totalCount
      }
    }
  `;

  it('lists at least 15 contests, oldest first, each with its problems', async () => {
    const { contests } = await data(CONTESTS, { first: 100 });
    expect(contests.totalCount).toBeGreaterThanOrEqual(15);
    expect(contests.edges).toHaveLength(contests.totalCount);
    const starts = contests.edges.map((e: any) => Date.parse(e.node.startsAt));
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
    const problemIds = new Set<string>();
    for (const { node } of contests.edges) {
      expect(node.startsAt).toBe(new Date(node.startsAt).toISOString());
      expect(Date.parse(node.endsAt) - Date.parse(node.startsAt)).toBe(node.durationMinutes * 60_000);
      expect(node.problems.map((p: any) => p.id)).toEqual(node.problemIds);
      expect(node.problems.length).toBeGreaterThanOrEqual(4);
      for (const p of node.problems) {
        expect(p.contest.id).toBe(node.id);
        problemIds.add(p.id);
      }
      const ratings = node.problems.map((p: any) => p.rating);
      expect(ratings).toEqual([...ratings].sort((a: number, b: number) => a - b));
    }
    expect(problemIds.size).toBe((await allProblems()).length);
  });

  it('pages through contests with cursors', async () => {
    const first = (await data(CONTESTS, { first: 10 })).contests;
    const second = (await data(CONTESTS, { first: 10, after: first.pageInfo.endCursor })).contests;
    const all = (await data(CONTESTS, { first: 20 })).contests;
    expect([...first.edges, ...second.edges].map((e: any) => e.node.id)).toEqual(all.edges.map((e: any) => e.node.id));
  });

  it('finds a contest by id and by slug, and null when unknown', async () => {
    const Q = 'query C($id: ID, $slug: String) { contest(id: $id, slug: $slug) { id slug title } }';
    const { contest } = await data(Q, { id: 'c101' });
    expect(contest.id).toBe('c101');
    expect((await data(Q, { slug: contest.slug })).contest).toEqual(contest);
    expect((await data(Q, { id: 'c1' })).contest).toBeNull();
    expect((await gql(Q, {})).errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
  });

  it('rejects a bad first for contests and users too', async () => {
    for (const query of ['{ contests(first: 500) { totalCount } }', '{ users(first: -3) { totalCount } }']) {
      expect((await gql(query)).errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    }
  });
});

describe('users', () => {
  const USER = /* GraphQL */ `
    query U($handle: String!) {
      user(handle: $handle) {
        handle name country rating maxRating
        solvedCount { easy medium hard total }
        ratingHistory { contestId contest { id startsAt endsAt } rating rank at }
      }
    }
  `;

  it('lists at least 30 users, highest rating first', async () => {
    const { users } = await data('{ users(first: 100) { nodes { handle rating } totalCount pageInfo { hasNextPage } } }');
    expect(users.totalCount).toBeGreaterThanOrEqual(30);
    expect(users.nodes).toHaveLength(users.totalCount);
    expect(users.pageInfo.hasNextPage).toBe(false);
    const ratings = users.nodes.map((u: any) => u.rating);
    expect(ratings).toEqual([...ratings].sort((a: number, b: number) => b - a));
    expect(new Set(users.nodes.map((u: any) => u.handle)).size).toBe(users.totalCount);
  });

  it('returns a user with solved counts and a consistent rating history', async () => {
    const { users } = await data('{ users(first: 100) { nodes { handle } } }');
    const problems = await allProblems();
    const available = { easy: 0, medium: 0, hard: 0 };
    for (const p of problems) available[p.difficulty.toLowerCase() as keyof typeof available]++;
    for (const { handle } of users.nodes) {
      const { user } = await data(USER, { handle });
      expect(user.handle).toBe(handle);
      expect(user.name.length).toBeGreaterThan(0);
      expect(user.country.length).toBeGreaterThan(0);
      const { easy, medium, hard, total } = user.solvedCount;
      expect(easy + medium + hard).toBe(total);
      expect(easy).toBeLessThanOrEqual(available.easy);
      expect(medium).toBeLessThanOrEqual(available.medium);
      expect(hard).toBeLessThanOrEqual(available.hard);
      expect(user.ratingHistory.length).toBeGreaterThan(0);
      const times = user.ratingHistory.map((c: any) => Date.parse(c.at));
      expect(times).toEqual([...times].sort((a, b) => a - b));
      for (const change of user.ratingHistory) {
        expect(change.contest.id).toBe(change.contestId);
        expect(change.at).toBe(change.contest.endsAt);
        expect(change.rank).toBeGreaterThanOrEqual(1);
      }
      expect(user.ratingHistory.at(-1).rating).toBe(user.rating);
      expect(user.maxRating).toBe(Math.max(...user.ratingHistory.map((c: any) => c.rating)));
    }
  });

  it('gives different users different ranks in the same contest', async () => {
    const { users } = await data('{ users(first: 100) { nodes { ratingHistory { contestId rank } } } }');
    const seen = new Map<string, Set<number>>();
    for (const user of users.nodes)
      for (const { contestId, rank } of user.ratingHistory) {
        const ranks = seen.get(contestId) ?? new Set<number>();
        expect(ranks.has(rank)).toBe(false);
        seen.set(contestId, ranks.add(rank));
      }
  });

  it('returns null for an unknown handle', async () => {
    expect(await data(USER, { handle: 'nobody_here' })).toEqual({ user: null });
  });
});

describe('languages and tags', () => {
  it('lists at least 10 judge languages under the root field `languages`, type `Language`', async () => {
    const { languages, __type } = await data('{ languages { id name version extensions } __type(name: "Language") { name kind } }');
    expect(__type).toEqual({ name: 'Language', kind: 'OBJECT' });
    expect(languages.length).toBeGreaterThanOrEqual(10);
    expect(new Set(languages.map((l: any) => l.id)).size).toBe(languages.length);
    expect(languages).toContainEqual(expect.objectContaining({ id: 'cpp17', name: 'C++17' }));
    for (const language of languages) {
      expect(language.version.length).toBeGreaterThan(0);
      expect(language.extensions.length).toBeGreaterThan(0);
      for (const extension of language.extensions) expect(extension).toMatch(/^\.[a-z]+$/);
    }
  });

  it('lists the fixed tag set, sorted, covering every tag in use', async () => {
    const { tags } = await data<{ tags: string[] }>('{ tags }');
    expect(tags).toEqual([...tags].sort());
    for (const tag of ['greedy', 'dp', 'graphs', 'math', 'strings', 'sorting', 'binary-search', 'trees', 'geometry', 'number-theory', 'implementation', 'data-structures']) {
      expect(tags).toContain(tag);
    }
    const used = new Set((await allProblems()).flatMap((p) => p.tags));
    for (const tag of used) expect(tags).toContain(tag);
    for (const tag of tags) expect(used.has(tag)).toBe(true);
  });
});

describe('statistics', () => {
  it('keeps solvers <= accepted <= submissions and acceptanceRate = accepted / submissions to 4 decimals', async () => {
    for (const { statistics: s } of await allProblems()) {
      expect(Number.isInteger(s.submissions) && Number.isInteger(s.accepted) && Number.isInteger(s.solvers)).toBe(true);
      expect(s.submissions).toBeGreaterThan(0);
      expect(s.accepted).toBeLessThanOrEqual(s.submissions);
      expect(s.solvers).toBeLessThanOrEqual(s.accepted);
      expect(s.solvers).toBeGreaterThan(0);
      expect(s.acceptanceRate).toBe(round4(s.accepted / s.submissions));
    }
  });

  it('gives easier problems more submissions on average', async () => {
    const problems = await allProblems();
    const mean = (d: string) => {
      const list = problems.filter((p) => p.difficulty === d);
      return list.reduce((s, p) => s + p.statistics.submissions, 0) / list.length;
    };
    expect(mean('EASY')).toBeGreaterThan(mean('MEDIUM'));
    expect(mean('MEDIUM')).toBeGreaterThan(mean('HARD'));
  });

  it('is the same on every request and in a fresh service', async () => {
    const again = createProblemsService();
    const response = await again.yoga.fetch('http://localhost/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ problems(first: 100) { nodes { id statement statistics { submissions accepted solvers } } } }' }),
    });
    const fresh = (await response.json()).data.problems.nodes;
    const mine = (await allProblems()).slice(0, 100).map((p) => ({ id: p.id, statement: p.statement, statistics: { submissions: p.statistics.submissions, accepted: p.statistics.accepted, solvers: p.statistics.solvers } }));
    expect(fresh).toEqual(mine);
  });
});

describe('dataset', () => {
  it('has at least 150 problems with unique ids and slugs', async () => {
    const problems = await allProblems();
    expect(problems.length).toBeGreaterThanOrEqual(150);
    expect(new Set(problems.map((p) => p.id)).size).toBe(problems.length);
    expect(new Set(problems.map((p) => p.slug)).size).toBe(problems.length);
    expect(new Set(problems.map((p) => p.title)).size).toBe(problems.length);
    for (const p of problems) expect(p.id).toMatch(/^p\d{4}$/);
  });

  it('gives every statement Input, Output, Constraints and Examples sections with fenced samples', async () => {
    for (const p of await allProblems()) {
      const sections = [...p.statement.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
      expect(sections.slice(0, 4)).toEqual(['Input', 'Output', 'Constraints', 'Examples']);
      expect(p.statement.indexOf('## Input')).toBeGreaterThan(0);
      expect(p.examples.length).toBeGreaterThan(0);
      for (const example of p.examples) {
        expect(example.input.length).toBeGreaterThan(0);
        expect(example.output.length).toBeGreaterThan(0);
        expect(p.statement).toContain('```\n' + example.input + '\n```');
        expect(p.statement).toContain('```\n' + example.output + '\n```');
      }
      expect(p.statement).toContain(p.constraints.text);
    }
  });

  it('writes math in LaTeX in most statements, display math in some', async () => {
    const problems = await allProblems();
    const inline = problems.filter((p) => /\$[^$\n]+\$/.test(p.statement));
    const display = problems.filter((p) => /\$\$[^$]+\$\$/.test(p.statement));
    expect(inline.length / problems.length).toBeGreaterThan(0.8);
    expect(display.length).toBeGreaterThanOrEqual(5);
    expect(problems.some((p) => p.statement.includes('\\le'))).toBe(true);
  });

  it('has inline code, fenced code with a language, tables and lists in some statements', async () => {
    const problems = await allProblems();
    const count = (re: RegExp) => problems.filter((p) => re.test(p.statement)).length;
    expect(count(/[^`]`[^`\n]+`[^`]/)).toBeGreaterThanOrEqual(10);
    expect(count(/^```(cpp|python|java|javascript)$/m)).toBeGreaterThanOrEqual(5);
    expect(count(/^\| --- \|/m)).toBeGreaterThanOrEqual(3);
    expect(count(/^- /m)).toBeGreaterThanOrEqual(3);
  });

  it('keeps ratings in 800..3500 and difficulty in line with the rating', async () => {
    for (const p of await allProblems()) {
      expect(p.rating).toBeGreaterThanOrEqual(800);
      expect(p.rating).toBeLessThanOrEqual(3500);
      expect(p.difficulty).toBe(p.rating < 1400 ? 'EASY' : p.rating < 2100 ? 'MEDIUM' : 'HARD');
      expect(p.tags.length).toBeGreaterThan(0);
      expect(p.tags).toEqual([...p.tags].sort());
      expect(p.constraints.memoryLimitMb).toBeGreaterThanOrEqual(64);
      expect(p.constraints.timeLimitMs).toBeGreaterThanOrEqual(500);
    }
  });
});

describe('schema', () => {
  it('documents every type, field, argument and enum value', async () => {
    const { __schema } = await data(/* GraphQL */ `
      {
        __schema {
          types {
            name
            description
            fields { name description args { name description } }
            inputFields { name description }
            enumValues { name description }
          }
        }
      }
    `);
    const missing: string[] = [];
    for (const type of __schema.types) {
      if (type.name.startsWith('__') || ['String', 'Int', 'Float', 'Boolean', 'ID'].includes(type.name)) continue;
      if (!type.description) missing.push(type.name);
      for (const field of type.fields ?? []) {
        if (!field.description) missing.push(`${type.name}.${field.name}`);
        for (const arg of field.args) if (!arg.description) missing.push(`${type.name}.${field.name}(${arg.name})`);
      }
      for (const field of type.inputFields ?? []) if (!field.description) missing.push(`${type.name}.${field.name}`);
      for (const value of type.enumValues ?? []) if (!value.description) missing.push(`${type.name}.${value.name}`);
    }
    expect(missing).toEqual([]);
  });
});
