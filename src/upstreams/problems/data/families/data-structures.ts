import { code, md, MOD, samples, table, type Family, type IO, type Rng } from '../kit.ts';

const arrayLine = (a: readonly number[]) => `${a.length}\n${a.join(' ')}`;
type Query = number[];
type Queries = { a: number[]; qs: Query[] };
const queriesText = ({ a, qs }: Queries) => `${a.length} ${qs.length}\n${a.join(' ')}\n${qs.map((q) => q.join(' ')).join('\n')}`;
const segment = (r: Rng, n: number): [number, number] => {
  const l = r.int(1, n);
  return [l, r.int(l, n)];
};

export const rangeQueries: Family = () => {
  const staticSums: IO<Queries> = {
    fmt: queriesText,
    solve: ({ a, qs }) => qs.map(([l, r]) => a.slice(l - 1, r).reduce((s, x) => s + x, 0)).join('\n'),
  };
  const withUpdates = (combine: (xs: number[]) => number): IO<Queries> => ({
    fmt: queriesText,
    solve: ({ a, qs }) => {
      const cur = [...a];
      const out: number[] = [];
      for (const [kind, x, y] of qs) {
        if (kind === 1) cur[x - 1] = y;
        else out.push(combine(cur.slice(x - 1, y)));
      }
      return out.join('\n');
    },
  });
  const mixed = (r: Rng, n: number, count: number): Query[] =>
    Array.from({ length: count }, (_, i) => (i % 2 === 0 ? [2, ...segment(r, n)] : [1, r.int(1, n), r.int(1, 9)]));
  return [
    {
      title: 'Range Sum Queries',
      rating: 900,
      tags: ['data-structures', 'implementation'],
      legend: [md`You are given an array of $n$ integers and $q$ queries. For each query $[l, r]$, print the sum $a_l + a_{l+1} + \ldots + a_r$.`],
      input: [
        md`The first line contains two integers $n$ and $q$. The second line contains $n$ integers $a_1, a_2, \ldots, a_n$.`,
        md`Each of the next $q$ lines contains two integers $l$ and $r$.`,
      ],
      output: [md`For each query print one integer — the sum.`],
      constraints: [md`$1 \le n, q \le 2 \cdot 10^5$`, md`$1 \le a_i \le 10^9$`, md`$1 \le l \le r \le n$`],
      notes: [
        md`The sums can be larger than $2^{31} - 1$.`,
        md`A classic way to answer such queries is a [prefix sum](https://en.wikipedia.org/wiki/Prefix_sum) array; read more at <https://cp-algorithms.com/data_structures/fenwick.html>.`,
      ],
      examples: samples([(r) => ({ a: r.ints(6, 1, 9), qs: [[1, 6], segment(r, 6), segment(r, 6)] })], staticSums),
    },
    {
      title: 'Point Update and Range Sum',
      rating: 1400,
      tags: ['data-structures'],
      legend: [
        md`You are given an array of $n$ integers. Process $q$ queries of two kinds:`,
        table(
          ['Query', 'Action'],
          [
            [md`\`1 k u\``, md`set $a_k = u$`],
            [md`\`2 l r\``, md`print $a_l + a_{l+1} + \ldots + a_r$`],
          ],
        ),
      ],
      input: [md`The first line contains $n$ and $q$. The second line contains the array. Each of the next $q$ lines contains one query.`],
      output: [md`For each query of the second kind print the answer.`],
      constraints: [md`$1 \le n, q \le 2 \cdot 10^5$`, md`$1 \le a_i, u \le 10^9$`],
      examples: samples([(r) => ({ a: r.ints(5, 1, 9), qs: mixed(r, 5, 5) })], withUpdates((xs) => xs.reduce((s, x) => s + x, 0))),
    },
    {
      title: 'Range Minimum With Updates',
      rating: 1500,
      tags: ['data-structures'],
      legend: [
        md`You are given an array of $n$ integers. Process $q$ queries. The query \`1 k u\` sets $a_k = u$. The query \`2 l r\` asks for the minimum of $a_l, a_{l+1}, \ldots, a_r$.`,
      ],
      input: [md`The first line contains $n$ and $q$. The second line contains the array. Each of the next $q$ lines contains one query.`],
      output: [md`For each query of the second kind print the minimum.`],
      constraints: [md`$1 \le n, q \le 2 \cdot 10^5$`, md`$1 \le a_i, u \le 10^9$`],
      examples: samples([(r) => ({ a: r.ints(6, 1, 9), qs: mixed(r, 6, 5) })], withUpdates((xs) => Math.min(...xs))),
    },
  ];
};

export const monotonicStacks: Family = () => {
  const nextGreater: IO<number[]> = {
    fmt: arrayLine,
    solve: (a) => a.map((x, i) => a.slice(i + 1).find((y) => y > x) ?? -1).join(' '),
  };
  const histogram: IO<number[]> = {
    fmt: arrayLine,
    solve: (h) => {
      let best = 0;
      for (let i = 0; i < h.length; i++) for (let j = i; j < h.length; j++) best = Math.max(best, Math.min(...h.slice(i, j + 1)) * (j - i + 1));
      return String(best);
    },
  };
  const minimums: IO<number[]> = {
    fmt: arrayLine,
    solve: (a) => {
      let total = 0;
      for (let i = 0; i < a.length; i++) for (let j = i; j < a.length; j++) total = (total + Math.min(...a.slice(i, j + 1))) % MOD;
      return String(total);
    },
  };
  return [
    {
      title: 'Next Greater Element',
      rating: 1200,
      tags: ['data-structures'],
      legend: [
        md`You are given an array of $n$ integers. For each element, find the first element to the right of it that is strictly greater.`,
        md`If there is no such element, the answer for this position is $-1$.`,
      ],
      input: [md`The first line contains one integer $n$. The second line contains $n$ integers $a_1, a_2, \ldots, a_n$.`],
      output: [md`Print $n$ integers — the answers for all positions.`],
      constraints: [md`$1 \le n \le 10^6$`, md`$1 \le a_i \le 10^9$`],
      notes: [
        md`The input is large, so \`Scanner\` is too slow in Java. Use a buffered reader:`,
        code(
          'java',
          md`
          BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
          StringTokenizer st = new StringTokenizer(in.readLine());
          int n = Integer.parseInt(st.nextToken());`,
        ),
      ],
      examples: samples([(r) => r.ints(7, 1, 9), () => [5, 4, 3]], nextGreater),
    },
    {
      title: 'Largest Rectangle in a Histogram',
      rating: 1700,
      tags: ['data-structures'],
      legend: [
        md`A histogram is made of $n$ bars of width $1$ standing next to each other. The height of the $i$-th bar is $h_i$.`,
        md`Find the area of the largest rectangle that fits inside the histogram. The sides of the rectangle must be parallel to the sides of the bars.`,
      ],
      input: [md`The first line contains one integer $n$. The second line contains $n$ integers $h_1, h_2, \ldots, h_n$.`],
      output: [md`Print one integer — the largest area.`],
      constraints: [md`$1 \le n \le 10^6$`, md`$0 \le h_i \le 10^9$`],
      notes: [
        md`The input is large. In Python, read it faster like this:`,
        code(
          'python',
          md`
          import sys
          data = sys.stdin.buffer.read().split()
          n = int(data[0])
          h = list(map(int, data[1:n + 1]))`,
        ),
      ],
      examples: samples([() => [2, 1, 5, 6, 2, 3], (r) => r.ints(6, 1, 8)], histogram),
    },
    {
      title: 'Sum of Segment Minimums',
      rating: 1900,
      tags: ['data-structures', 'combinatorics'],
      legend: [
        md`You are given an array of $n$ integers. Find the sum of the minimums of all its segments, modulo $10^9 + 7$. The following code prints the right answer, but it is too slow:`,
        code(
          'cpp',
          md`
          long long answer = 0;
          for (int l = 0; l < n; l++) {
              int low = a[l];
              for (int r = l; r < n; r++) {
                  low = min(low, a[r]);
                  answer = (answer + low) % 1000000007;
              }
          }
          cout << answer << "\n";`,
        ),
        md`Write a faster solution.`,
      ],
      input: [md`The first line contains one integer $n$. The second line contains $n$ integers $a_1, a_2, \ldots, a_n$.`],
      output: [md`Print one integer — the answer.`],
      constraints: [md`$1 \le n \le 10^6$`, md`$1 \le a_i \le 10^9$`],
      examples: samples([() => [3, 1, 2, 4], (r) => r.ints(6, 1, 9)], minimums),
    },
  ];
};

export const matrixSums: Family = () => {
  type Grid = { g: number[][]; qs: number[][] };
  const rect: IO<Grid> = {
    fmt: ({ g, qs }) => `${g.length} ${g[0].length} ${qs.length}\n${g.map((row) => row.join(' ')).join('\n')}\n${qs.map((q) => q.join(' ')).join('\n')}`,
    solve: ({ g, qs }) =>
      qs
        .map(([r1, c1, r2, c2]) => {
          let s = 0;
          for (let r = r1; r <= r2; r++) for (let c = c1; c <= c2; c++) s += g[r - 1][c - 1];
          return s;
        })
        .join('\n'),
  };
  const square: IO<string[]> = {
    fmt: (g) => `${g.length} ${g[0].length}\n${g.join('\n')}`,
    solve: (g) => {
      let best = 0;
      for (let r = 0; r < g.length; r++)
        for (let c = 0; c < g[0].length; c++)
          for (let k = 1; r + k <= g.length && c + k <= g[0].length; k++) {
            const rows = g.slice(r, r + k).map((row) => row.slice(c, c + k));
            if (rows.every((row) => !row.includes('0'))) best = Math.max(best, k);
          }
      return String(best);
    },
  };
  type K = { g: number[][]; k: number };
  const withSum: IO<K> = {
    fmt: ({ g, k }) => `${g.length} ${g[0].length} ${k}\n${g.map((row) => row.join(' ')).join('\n')}`,
    solve: ({ g, k }) => {
      let count = 0;
      const h = g.length;
      const w = g[0].length;
      for (let r1 = 0; r1 < h; r1++)
        for (let r2 = r1; r2 < h; r2++)
          for (let c1 = 0; c1 < w; c1++)
            for (let c2 = c1; c2 < w; c2++) {
              let s = 0;
              for (let r = r1; r <= r2; r++) for (let c = c1; c <= c2; c++) s += g[r][c];
              if (s === k) count++;
            }
      return String(count);
    },
  };
  return [
    {
      title: 'Rectangle Sums',
      rating: 1200,
      tags: ['data-structures', 'dp'],
      legend: [
        md`You are given a table of $n$ rows and $m$ columns with a number in each cell. Answer $q$ queries: find the sum of the numbers in the rectangle with the top left corner $(r_1, c_1)$ and the bottom right corner $(r_2, c_2)$.`,
      ],
      input: [
        md`The first line contains three integers $n$, $m$ and $q$. Each of the next $n$ lines contains $m$ integers.`,
        md`Each of the next $q$ lines contains four integers $r_1$, $c_1$, $r_2$ and $c_2$.`,
      ],
      output: [md`For each query print one integer — the sum.`],
      constraints: [md`$1 \le n, m \le 1000$`, md`$1 \le q \le 2 \cdot 10^5$`, md`$0 \le a_{i,j} \le 10^9$`],
      examples: samples([(r) => ({ g: Array.from({ length: 3 }, () => r.ints(4, 0, 9)), qs: [[1, 1, 3, 4], [2, 2, 3, 3], [1, 4, 1, 4]] })], rect),
    },
    {
      title: 'Largest Square of Ones',
      rating: 1500,
      tags: ['dp'],
      legend: [md`You are given a table of zeros and ones with $n$ rows and $m$ columns. Find the side of the largest square that contains only ones.`],
      input: [md`The first line contains two integers $n$ and $m$. Each of the next $n$ lines contains a string of $m$ characters \`0\` or \`1\`.`],
      output: [md`Print one integer — the side of the largest square. If there are no ones, print $0$.`],
      constraints: [md`$1 \le n, m \le 2000$`],
      examples: samples([(r) => Array.from({ length: 4 }, () => r.word(5, '01111')), () => ['00', '00']], square),
    },
    {
      title: 'Submatrices With Sum K',
      rating: 1900,
      tags: ['data-structures', 'two-pointers'],
      legend: [
        md`You are given a table of $n$ rows and $m$ columns with integers, and a number $k$.`,
        md`Count the rectangles inside the table whose sum is exactly $k$. A rectangle is defined by its top and bottom rows and its left and right columns.`,
      ],
      input: [md`The first line contains three integers $n$, $m$ and $k$. Each of the next $n$ lines contains $m$ integers.`],
      output: [md`Print one integer — the number of rectangles.`],
      constraints: [md`$1 \le n, m \le 100$`, md`$-1000 \le a_{i,j} \le 1000$`, md`$|k| \le 10^9$`],
      examples: samples([(r) => ({ g: Array.from({ length: 3 }, () => r.ints(3, -1, 2)), k: 2 })], withSum),
    },
  ];
};

export const heaps: Family = () => {
  const ropes: IO<number[]> = {
    fmt: arrayLine,
    solve: (a) => {
      const pile = [...a];
      let cost = 0;
      while (pile.length > 1) {
        pile.sort((x, y) => x - y);
        const merged = pile.shift()! + pile.shift()!;
        cost += merged;
        pile.push(merged);
      }
      return String(cost);
    },
  };
  type Stream = { a: number[]; k: number };
  const kth: IO<Stream> = {
    fmt: ({ a, k }) => `${a.length} ${k}\n${a.join(' ')}`,
    solve: ({ a, k }) => a.map((_, i) => [...a.slice(0, i + 1)].sort((x, y) => x - y)[k - 1] ?? -1).join(' '),
  };
  const median: IO<number[]> = {
    fmt: arrayLine,
    solve: (a) => a.map((_, i) => [...a.slice(0, i + 1)].sort((x, y) => x - y)[Math.ceil((i + 1) / 2) - 1]).join(' '),
  };
  return [
    {
      title: 'Merge Ropes',
      rating: 1300,
      tags: ['greedy', 'data-structures'],
      legend: [
        md`You have $n$ ropes with lengths $a_1, a_2, \ldots, a_n$. You can tie two ropes into one rope. Tying ropes of lengths $x$ and $y$ costs $x + y$ and gives one rope of length $x + y$.`,
        md`Find the minimum total cost to tie all ropes into one.`,
      ],
      input: [md`The first line contains one integer $n$. The second line contains $n$ integers $a_1, a_2, \ldots, a_n$.`],
      output: [md`Print one integer — the minimum cost.`],
      constraints: [md`$1 \le n \le 2 \cdot 10^5$`, md`$1 \le a_i \le 10^9$`],
      examples: samples([() => [4, 3, 2, 6], (r) => r.ints(5, 1, 20)], ropes),
    },
    {
      title: 'K-th Smallest in a Stream',
      rating: 1500,
      tags: ['data-structures'],
      legend: [
        md`Numbers come one by one. After each new number, print the $k$-th smallest number among all numbers that came so far.`,
        md`If fewer than $k$ numbers came, print $-1$.`,
      ],
      input: [md`The first line contains two integers $n$ and $k$. The second line contains $n$ integers — the numbers in the order they come.`],
      output: [md`Print $n$ integers — the answers after each number.`],
      constraints: [md`$1 \le k \le n \le 2 \cdot 10^5$`, md`$1 \le a_i \le 10^9$`],
      examples: samples([(r) => ({ a: r.ints(7, 1, 20), k: 3 })], kth),
    },
    {
      title: 'Running Median',
      rating: 1600,
      tags: ['data-structures'],
      legend: [
        md`Numbers come one by one. After the $i$-th number, sort all numbers that came so far and print the number at position $\lceil i / 2 \rceil$ (positions start from $1$). This is the *lower median*.`,
      ],
      input: [md`The first line contains one integer $n$. The second line contains $n$ integers.`],
      output: [md`Print $n$ integers — the lower median after each number.`],
      constraints: [md`$1 \le n \le 2 \cdot 10^5$`, md`$-10^9 \le a_i \le 10^9$`],
      examples: samples([(r) => r.ints(7, 1, 20), () => [5, 15, 1, 3]], median),
    },
  ];
};

export const segmentTrees: Family = () => {
  const addSum: IO<Queries> = {
    fmt: queriesText,
    solve: ({ a, qs }) => {
      const cur = [...a];
      const out: number[] = [];
      for (const q of qs) {
        if (q[0] === 1) for (let i = q[1]; i <= q[2]; i++) cur[i - 1] += q[3];
        else out.push(cur.slice(q[1] - 1, q[2]).reduce((s, x) => s + x, 0));
      }
      return out.join('\n');
    },
  };
  const distinct: IO<Queries> = {
    fmt: queriesText,
    solve: ({ a, qs }) => qs.map(([l, r]) => new Set(a.slice(l - 1, r)).size).join('\n'),
  };
  const kth: IO<Queries> = {
    fmt: queriesText,
    solve: ({ a, qs }) => qs.map(([l, r, k]) => a.slice(l - 1, r).sort((x, y) => x - y)[k - 1]).join('\n'),
  };
  return [
    {
      title: 'Range Add and Range Sum',
      rating: 1900,
      tags: ['data-structures'],
      legend: [
        md`You are given an array of $n$ integers. Process $q$ queries of two kinds:`,
        table(
          ['Query', 'Action'],
          [
            [md`\`1 l r x\``, md`add $x$ to every element from $a_l$ to $a_r$`],
            [md`\`2 l r\``, md`print the sum $a_l + \ldots + a_r$`],
          ],
        ),
      ],
      input: [md`The first line contains $n$ and $q$. The second line contains the array. Each of the next $q$ lines contains one query.`],
      output: [md`For each query of the second kind print the sum.`],
      constraints: [md`$1 \le n, q \le 2 \cdot 10^5$`, md`$-10^6 \le a_i, x \le 10^6$`],
      examples: samples(
        [(r) => ({ a: r.ints(5, 1, 9), qs: [[2, 1, 5], [1, ...segment(r, 5), r.int(1, 5)], [2, 1, 5], [1, 2, 4, -2], [2, ...segment(r, 5)]] })],
        addSum,
      ),
    },
    {
      title: 'Distinct Values on Segments',
      rating: 2000,
      tags: ['data-structures', 'sorting'],
      legend: [md`You are given an array of $n$ integers and $q$ queries. For each query $[l, r]$, count the different values among $a_l, a_{l+1}, \ldots, a_r$.`],
      input: [md`The first line contains $n$ and $q$. The second line contains the array. Each of the next $q$ lines contains two integers $l$ and $r$.`],
      output: [md`For each query print one integer — the number of different values.`],
      constraints: [md`$1 \le n, q \le 2 \cdot 10^5$`, md`$1 \le a_i \le 10^9$`],
      examples: samples([(r) => ({ a: r.ints(7, 1, 4), qs: [[1, 7], segment(r, 7), segment(r, 7)] })], distinct),
    },
    {
      title: 'K-th Smallest on a Segment',
      rating: 2500,
      tags: ['data-structures', 'binary-search'],
      legend: [
        md`You are given an array of $n$ integers and $q$ queries. Each query has three numbers $l$, $r$ and $k$.`,
        md`For each query, sort the elements $a_l, a_{l+1}, \ldots, a_r$ and print the $k$-th of them. The array itself does not change.`,
      ],
      input: [md`The first line contains $n$ and $q$. The second line contains the array. Each of the next $q$ lines contains three integers $l$, $r$ and $k$.`],
      output: [md`For each query print one integer — the answer.`],
      constraints: [md`$1 \le n, q \le 2 \cdot 10^5$`, md`$|a_i| \le 10^9$`, md`$1 \le k \le r - l + 1$`],
      timeLimitMs: 3000,
      examples: samples(
        [
          (r) => {
            const a = r.ints(7, 1, 20);
            const qs = Array.from({ length: 3 }, () => {
              const [l, rr] = segment(r, 7);
              return [l, rr, r.int(1, rr - l + 1)];
            });
            return { a, qs };
          },
        ],
        kth,
      ),
    },
  ];
};
