/**
 * Tools for writing the problem catalogue: a seeded random source, Markdown and LaTeX helpers, and the
 * draft shape every problem family returns. Example outputs are never typed by hand: each family brings a
 * small reference solver, so the samples in a statement are always right.
 */

/** The fixed tag set; `Query.tags` returns it and every problem uses only these. */
export const TAGS = [
  'binary-search',
  'bitmasks',
  'combinatorics',
  'constructive',
  'data-structures',
  'dp',
  'games',
  'geometry',
  'graphs',
  'greedy',
  'implementation',
  'math',
  'number-theory',
  'probabilities',
  'shortest-paths',
  'sorting',
  'strings',
  'trees',
  'two-pointers',
] as const;

export type Tag = (typeof TAGS)[number];

export interface ExampleCase {
  input: string;
  output: string;
  explanation?: string;
}

/** A problem as a family writes it; `problems.ts` turns it into a full `Problem`. */
export interface ProblemDraft {
  title: string;
  rating: number;
  tags: Tag[];
  /** Story and task, one Markdown paragraph (or block) per item. */
  legend: string[];
  input: string[];
  output: string[];
  /** One Markdown line per constraint, shown as a list. */
  constraints: string[];
  /** @default derived from the rating */
  timeLimitMs?: number;
  /** @default 256 */
  memoryLimitMb?: number;
  notes?: string[];
  /** Builds the samples; the seed is the problem's slug so every problem gets its own data. */
  examples: (seed: string) => ExampleCase[];
}

export type Family = () => ProblemDraft[];

/** FNV-1a, 32 bit. */
export function hashString(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform integer in [lo, hi]. */
  int(lo: number, hi: number): number;
  pick<T>(items: readonly T[]): T;
  shuffle<T>(items: readonly T[]): T[];
  ints(n: number, lo: number, hi: number): number[];
  /** `n` different integers from [lo, hi], in random order. */
  distinct(n: number, lo: number, hi: number): number[];
  word(n: number, alphabet?: string): string;
  /** Edges of a random tree on vertices 1..n. */
  tree(n: number): Array<[number, number]>;
  /** A random permutation of 1..n. */
  permutation(n: number): number[];
}

/** mulberry32 seeded by a string: the same seed always gives the same data. */
export function createRng(seed: string): Rng {
  let state = hashString(seed);
  const next = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1));
  const shuffle = <T>(items: readonly T[]): T[] => {
    const copy = [...items];
    for (let i = copy.length - 1; i > 0; i--) {
      const j = int(0, i);
      [copy[i], copy[j]] = [copy[j], copy[i]];
    }
    return copy;
  };
  const permutation = (n: number) => shuffle(Array.from({ length: n }, (_, i) => i + 1));
  return {
    next,
    int,
    shuffle,
    permutation,
    pick: (items) => items[int(0, items.length - 1)],
    ints: (n, lo, hi) => Array.from({ length: n }, () => int(lo, hi)),
    distinct: (n, lo, hi) => {
      const seen = new Set<number>();
      while (seen.size < n) seen.add(int(lo, hi));
      return shuffle([...seen]);
    },
    word: (n, alphabet = 'abcdefghijklmnopqrstuvwxyz') =>
      Array.from({ length: n }, () => alphabet[int(0, alphabet.length - 1)]).join(''),
    tree: (n) => {
      const label = permutation(n);
      const edges: Array<[number, number]> = [];
      for (let v = 2; v <= n; v++) edges.push([label[int(1, v - 1) - 1], label[v - 1]]);
      return shuffle(edges);
    },
  };
}

/**
 * Template tag for statement text: keeps backslashes as written (so LaTeX reads naturally, `\le` not
 * `\\le`) and turns the escaped backtick `` \` `` into a real one for inline code.
 */
export function md(strings: TemplateStringsArray, ...values: unknown[]): string {
  return String.raw({ raw: strings.raw }, ...values).replaceAll('\\`', '`');
}

/** A fenced code block; the source may be indented as a whole. */
export function code(lang: string, source: string): string {
  const lines = source.replace(/^\n+|\s+$/g, '').split('\n');
  const indent = Math.min(...lines.filter((l) => l.trim()).map((l) => l.length - l.trimStart().length));
  return ['```' + lang, ...lines.map((l) => l.slice(indent)), '```'].join('\n');
}

export function table(head: readonly string[], rows: ReadonlyArray<ReadonlyArray<string | number>>): string {
  const line = (cells: ReadonlyArray<string | number>) => `| ${cells.join(' | ')} |`;
  return [line(head), line(head.map(() => '---')), ...rows.map(line)].join('\n');
}

export function list(items: readonly string[]): string {
  return items.map((item) => `- ${item}`).join('\n');
}

/** A number as it reads in a constraint: 200000 → `2 \cdot 10^5`, 1000000007 stays as is. */
export function tex(n: number): string {
  if (n < 10000) return String(n);
  let exponent = 0;
  while (10 ** (exponent + 1) <= n) exponent++;
  const lead = n / 10 ** exponent;
  if (!Number.isInteger(lead)) return String(n);
  return lead === 1 ? `10^{${exponent}}`.replace(/\{(\d)\}/, '$1') : `${lead} \\cdot 10^{${exponent}}`.replace(/\{(\d)\}/, '$1');
}

/** How a family turns one generated test into sample text. */
export interface IO<T> {
  fmt(test: T): string;
  solve(test: T): string;
  explain?(test: T, output: string): string | undefined;
}

/** Samples from generators (one per example), solved by the family's reference solver. */
export function samples<T>(gens: ReadonlyArray<(r: Rng) => T>, io: IO<T>): (seed: string) => ExampleCase[] {
  return (seed) =>
    gens.map((gen, index) => {
      const test = gen(createRng(`${seed}#${index}`));
      const output = io.solve(test);
      const explanation = io.explain?.(test, output);
      return explanation ? { input: io.fmt(test), output, explanation } : { input: io.fmt(test), output };
    });
}

/** The usual "first line t, then t test cases" format over a single-case IO. */
export function multi<T>(io: IO<T>): IO<T[]> {
  return {
    fmt: (tests) => [String(tests.length), ...tests.map(io.fmt)].join('\n'),
    solve: (tests) => tests.map(io.solve).join('\n'),
  };
}

/** `count` single cases from one generator, for `multi`. */
export const many =
  <T>(count: number, gen: (r: Rng) => T) =>
  (r: Rng): T[] =>
    Array.from({ length: count }, () => gen(r));

export const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);
export const range = (lo: number, hi: number) => Array.from({ length: Math.max(0, hi - lo + 1) }, (_, i) => lo + i);
export const gcd = (a: number, b: number): number => (b === 0 ? Math.abs(a) : gcd(b, a % b));
export const MOD = 1_000_000_007;
export const MOD_998 = 998_244_353;

export function powMod(base: bigint, exp: bigint, mod: bigint): bigint {
  let result = 1n % mod;
  base %= mod;
  while (exp > 0n) {
    if (exp & 1n) result = (result * base) % mod;
    base = (base * base) % mod;
    exp >>= 1n;
  }
  return result;
}

/** Adjacency lists for vertices 1..n. */
export function adjacency(n: number, edges: ReadonlyArray<readonly [number, number]>, directed = false): number[][] {
  const adj: number[][] = Array.from({ length: n + 1 }, () => []);
  for (const [u, v] of edges) {
    adj[u].push(v);
    if (!directed) adj[v].push(u);
  }
  return adj;
}

/** BFS distances from `start`; -1 where unreachable. */
export function bfs(adj: number[][], start: number): number[] {
  const dist = adj.map(() => -1);
  dist[start] = 0;
  const queue = [start];
  for (let head = 0; head < queue.length; head++) {
    const u = queue[head];
    for (const v of adj[u]) {
      if (dist[v] === -1) {
        dist[v] = dist[u] + 1;
        queue.push(v);
      }
    }
  }
  return dist;
}

export const edgeLines = (edges: ReadonlyArray<ReadonlyArray<number>>) => edges.map((e) => e.join(' ')).join('\n');
export const grid = (rows: readonly string[]) => rows.join('\n');
