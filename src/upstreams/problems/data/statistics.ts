/**
 * Judge statistics per problem. Made up, but shaped like a real judge: easy problems get many more
 * submissions and a higher share of accepted ones, and solvers never exceed accepted submissions.
 */
import { problems } from './catalogue.ts';
import { createRng } from './kit.ts';
import type { ProblemStatistics } from './types.ts';

export function round4(x: number): number {
  return Math.round(x * 10_000) / 10_000;
}

function statisticsOf(id: string, rating: number): ProblemStatistics {
  const rng = createRng(`statistics:${id}`);
  const submissions = Math.round(90_000 * Math.exp(-(rating - 800) / 900) * (0.6 + 0.8 * rng.next())) + 300;
  const share = Math.min(0.9, Math.max(0.06, 0.72 - (rating - 800) * 0.00019 + (rng.next() - 0.5) * 0.12));
  const accepted = Math.round(submissions * share);
  const solvers = Math.round(accepted * (0.7 + 0.22 * rng.next()));
  return { submissions, accepted, acceptanceRate: round4(accepted / submissions), solvers };
}

export const statistics: ReadonlyMap<string, ProblemStatistics> = new Map(problems.map((p) => [p.id, statisticsOf(p.id, p.rating)]));
