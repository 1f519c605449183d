/** Records of the problems service, as the resolvers see them. */

export type Difficulty = 'EASY' | 'MEDIUM' | 'HARD';

export interface Example {
  input: string;
  output: string;
  explanation?: string;
}

export interface Constraints {
  timeLimitMs: number;
  memoryLimitMb: number;
  /** The constraint lines as a Markdown list, the same text as the statement's `## Constraints` list. */
  text: string;
}

export interface Problem {
  id: string;
  slug: string;
  title: string;
  /** Markdown with LaTeX math: legend, `## Input`, `## Output`, `## Constraints`, `## Examples`, maybe `## Note`. */
  statement: string;
  difficulty: Difficulty;
  rating: number;
  tags: string[];
  examples: Example[];
  constraints: Constraints;
  contestId: string;
}

export interface Contest {
  id: string;
  slug: string;
  title: string;
  /** ISO 8601, UTC. */
  startsAt: string;
  durationMinutes: number;
  problemIds: string[];
}

export interface ProblemStatistics {
  submissions: number;
  accepted: number;
  /** accepted / submissions, rounded to 4 decimals. */
  acceptanceRate: number;
  /** Distinct users with at least one accepted submission; never more than `accepted`. */
  solvers: number;
}

export interface SolvedCount {
  easy: number;
  medium: number;
  hard: number;
  total: number;
}

export interface RatingChange {
  contestId: string;
  /** Rating after the contest. */
  rating: number;
  rank: number;
  /** ISO 8601, UTC: when the contest ended. */
  at: string;
}

export interface User {
  handle: string;
  name: string;
  country: string;
  rating: number;
  maxRating: number;
  solvedCount: SolvedCount;
  /** Oldest first. */
  ratingHistory: RatingChange[];
}

export interface Language {
  id: string;
  name: string;
  version: string;
  extensions: string[];
}
