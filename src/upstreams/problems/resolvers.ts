import type { Contest, Dataset, Difficulty, Problem, RatingChange } from './data/index.ts';
import { badInput, paginate } from './pagination.ts';

interface LookupArgs {
  id?: string | null;
  slug?: string | null;
}

interface PageArgs {
  first?: number | null;
  after?: string | null;
}

interface ProblemFilter {
  difficulty?: Difficulty[] | null;
  tags?: string[] | null;
  ratingMin?: number | null;
  ratingMax?: number | null;
  search?: string | null;
}

type SortField = 'ID' | 'RATING' | 'TITLE' | 'ACCEPTANCE_RATE' | 'SUBMISSIONS';

interface ProblemsArgs extends PageArgs {
  filter?: ProblemFilter | null;
  sort?: { field: SortField; direction?: 'ASC' | 'DESC' | null } | null;
}

const MAX_SEARCH_LENGTH = 200;

function lookup<T>(kind: string, { id, slug }: LookupArgs, byId: ReadonlyMap<string, T>, bySlug: ReadonlyMap<string, T>): T | null {
  if ((id == null) === (slug == null)) throw badInput(`Pass exactly one of \`id\` or \`slug\` to look up a ${kind}.`);
  return (id != null ? byId.get(id) : bySlug.get(slug!)) ?? null;
}

function filterProblems(data: Dataset, filter: ProblemFilter | null | undefined): readonly Problem[] {
  if (!filter) return data.problems;
  const { difficulty, tags, ratingMin, ratingMax, search } = filter;
  if (ratingMin != null && ratingMax != null && ratingMin > ratingMax) {
    throw badInput(`\`filter.ratingMin\` (${ratingMin}) must not be greater than \`filter.ratingMax\` (${ratingMax}).`, 'filter');
  }
  if (search != null && search.length > MAX_SEARCH_LENGTH) {
    throw badInput(`\`filter.search\` must be at most ${MAX_SEARCH_LENGTH} characters long.`, 'filter');
  }
  const needle = search?.trim().toLowerCase();
  return data.problems.filter(
    (p) =>
      (difficulty == null || difficulty.includes(p.difficulty)) &&
      (tags == null || tags.every((tag) => p.tags.includes(tag))) &&
      (ratingMin == null || p.rating >= ratingMin) &&
      (ratingMax == null || p.rating <= ratingMax) &&
      (!needle || p.title.toLowerCase().includes(needle) || p.statement.toLowerCase().includes(needle)),
  );
}

function sortProblems(data: Dataset, problems: readonly Problem[], sort: ProblemsArgs['sort']): readonly Problem[] {
  if (!sort) return problems;
  const sign = sort.direction === 'DESC' ? -1 : 1;
  const stats = (p: Problem) => data.statistics.get(p.id)!;
  const key: Record<SortField, (a: Problem, b: Problem) => number> = {
    ID: () => 0,
    RATING: (a, b) => a.rating - b.rating,
    TITLE: (a, b) => a.title.localeCompare(b.title, 'en'),
    ACCEPTANCE_RATE: (a, b) => stats(a).acceptanceRate - stats(b).acceptanceRate,
    SUBMISSIONS: (a, b) => stats(a).submissions - stats(b).submissions,
  };
  const byId = (a: Problem, b: Problem) => Number(a.id.slice(1)) - Number(b.id.slice(1));
  // Ties always go by id ascending, so pages stay stable whatever the direction.
  return [...problems].sort((a, b) => sign * key[sort.field](a, b) || (sort.field === 'ID' ? sign : 1) * byId(a, b));
}

export function createResolvers(data: Dataset) {
  return {
    Query: {
      problem: (_: unknown, args: LookupArgs) => lookup('problem', args, data.problemById, data.problemBySlug),
      problems: (_: unknown, { first, after, filter, sort }: ProblemsArgs) =>
        paginate('problems', sortProblems(data, filterProblems(data, filter), sort), first, after),
      contest: (_: unknown, args: LookupArgs) => lookup('contest', args, data.contestById, data.contestBySlug),
      contests: (_: unknown, { first, after }: PageArgs) => paginate('contests', data.contests, first, after),
      user: (_: unknown, { handle }: { handle: string }) => data.userByHandle.get(handle) ?? null,
      users: (_: unknown, { first, after }: PageArgs) => paginate('users', data.users, first, after),
      languages: () => data.languages,
      tags: () => data.tags,
    },
    Problem: {
      contest: (problem: Problem) => data.contestById.get(problem.contestId) ?? null,
      statistics: (problem: Problem) => data.statistics.get(problem.id),
    },
    Contest: {
      endsAt: (contest: Contest) => new Date(Date.parse(contest.startsAt) + contest.durationMinutes * 60_000).toISOString(),
      problems: (contest: Contest) => contest.problemIds.map((id) => data.problemById.get(id)),
    },
    RatingChange: {
      contest: (change: RatingChange) => data.contestById.get(change.contestId),
    },
  };
}
