/** The whole dataset of the problems stand-in, with the lookups the resolvers need. */
import { contests, problems } from './catalogue.ts';
import { TAGS } from './kit.ts';
import { languages } from './languages.ts';
import { statistics } from './statistics.ts';
import type { Contest, Language, Problem, ProblemStatistics, User } from './types.ts';
import { users } from './users.ts';

export type * from './types.ts';

export interface Dataset {
  /** Ordered by id. */
  problems: readonly Problem[];
  /** Ordered by start time (and id). */
  contests: readonly Contest[];
  /** Ordered by rating, highest first, then by handle. */
  users: readonly User[];
  languages: readonly Language[];
  /** The fixed tag set, sorted. */
  tags: readonly string[];
  problemById: ReadonlyMap<string, Problem>;
  problemBySlug: ReadonlyMap<string, Problem>;
  contestById: ReadonlyMap<string, Contest>;
  contestBySlug: ReadonlyMap<string, Contest>;
  userByHandle: ReadonlyMap<string, User>;
  statistics: ReadonlyMap<string, ProblemStatistics>;
}

const rankedUsers = [...users].sort((a, b) => b.rating - a.rating || a.handle.localeCompare(b.handle));

export const dataset: Dataset = {
  problems,
  contests,
  users: rankedUsers,
  languages,
  tags: [...TAGS].sort(),
  problemById: new Map(problems.map((p) => [p.id, p])),
  problemBySlug: new Map(problems.map((p) => [p.slug, p])),
  contestById: new Map(contests.map((c) => [c.id, c])),
  contestBySlug: new Map(contests.map((c) => [c.slug, c])),
  userByHandle: new Map(users.map((u) => [u.handle, u])),
  statistics,
};
