/**
 * Turns the problem families into the service's problems and contests. Everything is computed from
 * fixed seeds, so every start of the service (and every test run) sees the same ids, texts and order.
 */
import * as arrays from './families/arrays.ts';
import * as dataStructures from './families/data-structures.ts';
import * as dp from './families/dp.ts';
import * as geometry from './families/geometry.ts';
import * as graphs from './families/graphs.ts';
import * as math from './families/math.ts';
import * as misc from './families/misc.ts';
import * as strings from './families/strings.ts';
import * as trees from './families/trees.ts';
import { createRng, hashString, list, type Family, type ProblemDraft } from './kit.ts';
import type { Contest, Difficulty, Problem } from './types.ts';

const FAMILIES: Family[] = [arrays, strings, graphs, trees, math, dp, dataStructures, geometry, misc].flatMap((module) => Object.values(module));

/** Where one difficulty ends and the next starts, by rating. */
export function difficultyOf(rating: number): Difficulty {
  return rating < 1400 ? 'EASY' : rating < 2100 ? 'MEDIUM' : 'HARD';
}

export function slugify(title: string): string {
  return title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

const seconds = (ms: number) => (ms % 1000 === 0 ? `${ms / 1000} second${ms === 1000 ? '' : 's'}` : `${ms / 1000} seconds`);

function statementOf(draft: ProblemDraft, examples: ReturnType<ProblemDraft['examples']>, timeLimitMs: number, memoryLimitMb: number): string {
  const parts = [
    draft.legend.join('\n\n'),
    '## Input',
    draft.input.join('\n\n'),
    '## Output',
    draft.output.join('\n\n'),
    '## Constraints',
    list(draft.constraints),
    `Time limit: ${seconds(timeLimitMs)}. Memory limit: ${memoryLimitMb} MB.`,
    '## Examples',
    ...examples.flatMap((example, i) => [
      `### Example ${i + 1}`,
      'Input:',
      '```\n' + example.input + '\n```',
      'Output:',
      '```\n' + example.output + '\n```',
      ...(example.explanation ? [`Explanation: ${example.explanation}`] : []),
    ]),
    ...(draft.notes?.length ? ['## Note', draft.notes.join('\n\n')] : []),
  ];
  return parts.join('\n\n') + '\n';
}

interface ContestKind {
  /** Kinds that share a counter share a numbering, as Div. 1 and Div. 2 rounds do. */
  counter: 'round' | 'educational' | 'weekly';
  title: (n: number) => string;
  durationMinutes: number;
}

const KINDS: ContestKind[] = [
  { counter: 'round', title: (n) => `Round ${n} (Div. 2)`, durationMinutes: 120 },
  { counter: 'educational', title: (n) => `Educational Round ${n}`, durationMinutes: 120 },
  { counter: 'weekly', title: (n) => `Weekly Contest ${n}`, durationMinutes: 90 },
  { counter: 'round', title: (n) => `Round ${n} (Div. 1)`, durationMinutes: 150 },
];
const CUPS = ['Winter Cup', 'Spring Cup', 'Summer Cup', 'Autumn Cup'];

function build(): { problems: Problem[]; contests: Contest[] } {
  const drafts = FAMILIES.flatMap((family) => family());
  const rng = createRng('catalogue');
  const contestCount = Math.floor(drafts.length / 6);

  // Deal rating-sorted drafts in blocks of `contestCount`, one per contest, so every contest gets an
  // easy-to-hard spread like a real round.
  const byRating = [...drafts].sort((a, b) => a.rating - b.rating || hashString(a.title) - hashString(b.title));
  const buckets: ProblemDraft[][] = Array.from({ length: contestCount }, () => []);
  for (let start = 0; start < byRating.length; start += contestCount) {
    const block = byRating.slice(start, start + contestCount);
    const seats = rng.shuffle(buckets.map((_, i) => i)).slice(0, block.length);
    block.forEach((draft, i) => buckets[seats[i]].push(draft));
  }

  const problems: Problem[] = [];
  const contests: Contest[] = [];
  const seenSlugs = new Set<string>();
  let startsAt = Date.UTC(2023, 0, 7, 14, 35);
  const counters = { round: 870, educational: 140, weekly: 30 };
  buckets.forEach((bucket, index) => {
    const contestId = `c${101 + index}`;
    const start = new Date(startsAt);
    const isCup = index % 9 === 8;
    const kind = KINDS[index % KINDS.length];
    const title = isCup
      ? `${CUPS[Math.floor(((start.getUTCMonth() + 1) % 12) / 3)]} ${start.getUTCFullYear()}`
      : kind.title(++counters[kind.counter]);
    const problemIds: string[] = [];
    for (const draft of [...bucket].sort((a, b) => a.rating - b.rating)) {
      const id = `p${1001 + problems.length}`;
      const slug = slugify(draft.title);
      if (seenSlugs.has(slug)) throw new Error(`Two problems share the slug ${slug}`);
      seenSlugs.add(slug);
      const timeLimitMs = draft.timeLimitMs ?? (draft.rating < 1500 ? 1000 : 2000);
      const memoryLimitMb = draft.memoryLimitMb ?? 256;
      const examples = draft.examples(slug);
      problems.push({
        id,
        slug,
        title: draft.title,
        statement: statementOf(draft, examples, timeLimitMs, memoryLimitMb),
        difficulty: difficultyOf(draft.rating),
        rating: draft.rating,
        tags: [...draft.tags].sort(),
        examples,
        constraints: { timeLimitMs, memoryLimitMb, text: list(draft.constraints) },
        contestId,
      });
      problemIds.push(id);
    }
    if (contests.some((c) => c.slug === slugify(title))) throw new Error(`Two contests share the slug ${slugify(title)}`);
    contests.push({
      id: contestId,
      slug: slugify(title),
      title,
      startsAt: start.toISOString(),
      durationMinutes: isCup ? 180 : kind.durationMinutes,
      problemIds,
    });
    startsAt += (7 + rng.int(0, 14)) * 24 * 60 * 60 * 1000;
  });
  return { problems, contests };
}

export const { problems, contests } = build();
