/**
 * Contestants. Handles and names are invented. Each user's history walks from the starting rating
 * (1400) to the current rating over the contests they entered, and the solved counts come from the
 * problems of this catalogue they solved, chosen by the usual Elo chance of solving a problem.
 */
import { contests, problems } from './catalogue.ts';
import { createRng } from './kit.ts';
import type { RatingChange, SolvedCount, User } from './types.ts';

const PEOPLE: ReadonlyArray<readonly [handle: string, name: string, country: string, rating: number]> = [
  ['quiet_fox', 'Mira Lindqvist', 'Sweden', 2140],
  ['bitwise_owl', 'Kenji Watanabe', 'Japan', 2710],
  ['greedy_gecko', 'Tomás Herrera', 'Argentina', 1580],
  ['segtree_sam', 'Samuel Okafor', 'Nigeria', 1930],
  ['modular_mia', 'Mia Novak', 'Croatia', 1450],
  ['dp_dragon', 'Li Wei', 'China', 3020],
  ['lazy_prop', 'Anya Petrova', 'Bulgaria', 2380],
  ['two_pointer', 'Rahul Mehta', 'India', 1720],
  ['off_by_one', 'Jonas Weber', 'Germany', 1210],
  ['null_pointer', 'Chloé Martin', 'France', 980],
  ['prefix_pete', 'Pieter de Vries', 'Netherlands', 1640],
  ['kruskal_kat', 'Katarzyna Zielińska', 'Poland', 2290],
  ['dijkstra_dan', 'Daniel Kim', 'South Korea', 2550],
  ['fenwick_fay', 'Fatima Benali', 'Morocco', 1860],
  ['suffix_sun', 'Sun Yue', 'China', 2460],
  ['bfs_bella', 'Isabella Rossi', 'Italy', 1370],
  ['mod_prime', 'Ahmed Hassan', 'Egypt', 1990],
  ['tiny_tle', 'Lucas Silva', 'Brazil', 1150],
  ['wa_on_test_2', 'Emma Johansson', 'Norway', 890],
  ['hashing_hana', 'Hana Sato', 'Japan', 2220],
  ['centroid_cat', 'Oleksandr Kovalenko', 'Ukraine', 2830],
  ['matrix_max', 'Max Müller', 'Switzerland', 1780],
  ['sparse_table', 'Nguyen Van An', 'Vietnam', 2050],
  ['union_find', 'Sofía Hernández', 'Mexico', 1530],
  ['nim_sum', 'Arjun Nair', 'India', 2640],
  ['convex_carl', 'Carl Andersson', 'Sweden', 1690],
  ['heap_hero', 'Olivia Brown', 'Canada', 1270],
  ['trie_tom', 'Tom Walsh', 'Ireland', 1410],
  ['knapsack_kid', 'Aiko Tanaka', 'Japan', 3280],
  ['bitset_ben', 'Benjamin Cohen', 'Israel', 2410],
  ['mex_master', 'Ivan Horvat', 'Croatia', 1820],
  ['gcd_grace', 'Grace Mensah', 'Ghana', 1090],
  ['pi_approx', 'Yusuf Demir', 'Turkey', 3460],
  ['early_bird', 'Laura García', 'Spain', 1330],
];

const START_RATING = 1400;

interface Entry {
  contestId: string;
  rating: number;
  /** How well the user did: higher is better; decides the order of ranks within a contest. */
  performance: number;
  at: string;
}

function entriesOf(handle: string, target: number): Entry[] {
  const rng = createRng(`history:${handle}`);
  const first = rng.int(0, Math.floor(contests.length / 3));
  const entered = contests.slice(first).filter((_, i) => i === 0 || rng.next() < 0.6);
  let previous = START_RATING;
  return entered.map((contest, i) => {
    const planned = START_RATING + ((target - START_RATING) * (i + 1)) / entered.length;
    const rating = i === entered.length - 1 ? target : Math.max(300, Math.round(planned + (rng.next() - 0.5) * 160));
    const performance = rating + 4 * (rating - previous);
    previous = rating;
    const end = Date.parse(contest.startsAt) + contest.durationMinutes * 60_000;
    return { contestId: contest.id, rating, performance, at: new Date(end).toISOString() };
  });
}

/**
 * Ranks per contest: our users are a sample of a large field, so ranks come from performance on a
 * curve, strictly increasing within a contest so no two users share a place.
 */
function rankAll(entries: ReadonlyMap<string, Entry[]>): Map<Entry, number> {
  const ranks = new Map<Entry, number>();
  for (const contest of contests) {
    const field = [...entries.values()].flatMap((list) => list.filter((e) => e.contestId === contest.id));
    field.sort((a, b) => b.performance - a.performance);
    const rng = createRng(`ranks:${contest.id}`);
    let last = 0;
    for (const entry of field) {
      const curve = Math.round(16_000 * Math.exp(-(entry.performance - 800) / 520) * (0.7 + 0.6 * rng.next()));
      last = Math.max(last + 1, curve);
      ranks.set(entry, last);
    }
  }
  return ranks;
}

function solvedCountOf(handle: string, rating: number): SolvedCount {
  const rng = createRng(`solved:${handle}`);
  const activity = 0.55 + 0.4 * rng.next();
  const count: SolvedCount = { easy: 0, medium: 0, hard: 0, total: 0 };
  for (const problem of problems) {
    const chance = activity / (1 + 10 ** ((problem.rating - rating) / 400));
    if (rng.next() >= chance) continue;
    count[problem.difficulty === 'EASY' ? 'easy' : problem.difficulty === 'MEDIUM' ? 'medium' : 'hard']++;
    count.total++;
  }
  return count;
}

const entries = new Map(PEOPLE.map(([handle, , , rating]) => [handle, entriesOf(handle, rating)]));
const ranks = rankAll(entries);

export const users: User[] = PEOPLE.map(([handle, name, country, rating]) => {
  const ratingHistory: RatingChange[] = entries
    .get(handle)!
    .map((e) => ({ contestId: e.contestId, rating: e.rating, rank: ranks.get(e)!, at: e.at }));
  return {
    handle,
    name,
    country,
    rating,
    maxRating: Math.max(...ratingHistory.map((c) => c.rating)),
    solvedCount: solvedCountOf(handle, rating),
    ratingHistory,
  };
});
