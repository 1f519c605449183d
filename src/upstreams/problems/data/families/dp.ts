import { code, md, MOD, samples, table, type Family, type IO, type Rng } from '../kit.ts';

const arrayLine = (a: readonly number[]) => `${a.length}\n${a.join(' ')}`;

export const coins: Family = () => {
  type Pay = { c: number[]; x: number };
  const fmt = ({ c, x }: Pay) => `${c.length} ${x}\n${c.join(' ')}`;
  const fewest: IO<Pay> = {
    fmt,
    solve: ({ c, x }) => {
      const best = [0, ...new Array<number>(x).fill(Infinity)];
      for (let s = 1; s <= x; s++) for (const v of c) if (v <= s) best[s] = Math.min(best[s], best[s - v] + 1);
      return String(best[x] === Infinity ? -1 : best[x]);
    },
  };
  const ways: IO<Pay> = {
    fmt,
    solve: ({ c, x }) => {
      const w = [1, ...new Array<number>(x).fill(0)];
      for (const v of c) for (let s = v; s <= x; s++) w[s] = (w[s] + w[s - v]) % MOD;
      return String(w[x]);
    },
    explain: ({ c, x }) => (c.join(',') === '1,2,5' && x === 5 ? 'The ways are 5, 2 + 2 + 1, 2 + 1 + 1 + 1 and 1 + 1 + 1 + 1 + 1.' : undefined),
  };
  const sums: IO<number[]> = {
    fmt: arrayLine,
    solve: (c) => {
      let reach = new Set([0]);
      for (const v of c) reach = new Set([...reach, ...[...reach].map((s) => s + v)]);
      const list = [...reach].filter((s) => s > 0).sort((a, b) => a - b);
      return `${list.length}\n${list.join(' ')}`;
    },
  };
  return [
    {
      title: 'Coin Change',
      rating: 1300,
      tags: ['dp'],
      legend: [
        md`A country uses $n$ kinds of coins with values $c_1, c_2, \ldots, c_n$. You have as many coins of each kind as you want.`,
        md`Find the minimum number of coins with total value exactly $x$. If it is not possible, print $-1$.`,
        md`Note that a greedy choice of the largest coin does not always work. For example, with coins $1, 3, 4$ and $x = 6$, the answer is $2$ ($3 + 3$), not $3$ ($4 + 1 + 1$).`,
      ],
      input: [md`The first line contains two integers $n$ and $x$. The second line contains $n$ different integers $c_1, c_2, \ldots, c_n$.`],
      output: [md`Print one integer — the minimum number of coins, or $-1$.`],
      constraints: [md`$1 \le n \le 100$`, md`$1 \le x \le 10^6$`, md`$1 \le c_i \le 10^6$`],
      examples: samples([() => ({ c: [1, 3, 4], x: 6 }), (r) => ({ c: r.distinct(3, 2, 9), x: r.int(10, 30) }), () => ({ c: [2], x: 3 })], fewest),
    },
    {
      title: 'Ways to Pay',
      rating: 1400,
      tags: ['dp', 'combinatorics'],
      legend: [
        md`You have coins of $n$ kinds, and as many coins of each kind as you want. Count the number of ways to pay exactly $x$.`,
        md`The order of coins does not matter: $2 + 1$ and $1 + 2$ are the same way. Print the answer modulo $10^9 + 7$.`,
      ],
      input: [md`The first line contains two integers $n$ and $x$. The second line contains $n$ different integers $c_1, c_2, \ldots, c_n$.`],
      output: [md`Print one integer — the number of ways modulo $10^9 + 7$.`],
      constraints: [md`$1 \le n \le 100$`, md`$1 \le x \le 10^6$`, md`$1 \le c_i \le 10^6$`],
      examples: samples([() => ({ c: [1, 2, 5], x: 5 }), (r) => ({ c: r.distinct(3, 1, 6), x: r.int(10, 20) })], ways),
    },
    {
      title: 'Money Sums',
      rating: 1500,
      tags: ['dp'],
      legend: [
        md`You have $n$ coins with values $c_1, c_2, \ldots, c_n$. Each coin can be used at most once.`,
        md`Find all different sums you can pay using one or more coins.`,
      ],
      input: [md`The first line contains one integer $n$. The second line contains $n$ integers $c_1, c_2, \ldots, c_n$.`],
      output: [md`In the first line print $k$ — the number of different sums. In the second line print the sums in increasing order.`],
      constraints: [md`$1 \le n \le 100$`, md`$1 \le c_i \le 1000$`],
      examples: samples([() => [4, 2, 5, 2], (r) => r.ints(4, 1, 9)], sums),
    },
  ];
};

export const increasingSubsequences: Family = () => {
  const lis = (a: readonly number[], ok: (x: number, y: number) => boolean) => {
    const best = a.map(() => 1);
    for (let i = 0; i < a.length; i++) for (let j = 0; j < i; j++) if (ok(a[j], a[i])) best[i] = Math.max(best[i], best[j] + 1);
    return Math.max(...best);
  };
  const strict: IO<number[]> = { fmt: arrayLine, solve: (a) => String(lis(a, (x, y) => x < y)) };
  const weak: IO<number[]> = { fmt: arrayLine, solve: (a) => String(lis(a, (x, y) => x <= y)) };
  const count: IO<number[]> = {
    fmt: arrayLine,
    solve: (a) => {
      const ends = a.map(() => 1);
      for (let i = 0; i < a.length; i++) for (let j = 0; j < i; j++) if (a[j] < a[i]) ends[i] = (ends[i] + ends[j]) % MOD;
      return String(ends.reduce((s, x) => (s + x) % MOD, 0));
    },
  };
  return [
    {
      title: 'Growing Sequence',
      rating: 1500,
      tags: ['dp', 'binary-search', 'data-structures'],
      legend: [
        md`You are given an array of $n$ integers. Find the length of its longest strictly increasing subsequence.`,
        md`A subsequence is what remains after you delete some elements (maybe none) without changing the order of the rest. For example, $[1, 4, 7]$ is an increasing subsequence of $[1, 5, 4, 2, 7]$.`,
      ],
      input: [md`The first line contains one integer $n$. The second line contains $n$ integers $a_1, a_2, \ldots, a_n$.`],
      output: [md`Print one integer — the length of the longest increasing subsequence.`],
      constraints: [md`$1 \le n \le 2 \cdot 10^5$`, md`$1 \le a_i \le 10^9$`],
      examples: samples([() => [1, 5, 4, 2, 7], (r) => r.ints(8, 1, 10)], strict),
    },
    {
      title: 'Longest Non-Decreasing Subsequence',
      rating: 1500,
      tags: ['dp', 'binary-search'],
      legend: [
        md`A class stands in a line. The height of the $i$-th student is $h_i$. The teacher wants to choose as many students as possible so that their heights, from left to right, never decrease.`,
        md`The students must stay in their order. Find the maximum number of chosen students.`,
      ],
      input: [md`The first line contains one integer $n$. The second line contains $n$ integers $h_1, h_2, \ldots, h_n$.`],
      output: [md`Print one integer — the answer.`],
      constraints: [md`$1 \le n \le 2 \cdot 10^5$`, md`$1 \le h_i \le 10^9$`],
      examples: samples([(r) => r.ints(8, 150, 155), () => [3, 3, 3]], weak),
    },
    {
      title: 'Count Increasing Subsequences',
      rating: 2000,
      tags: ['dp', 'data-structures'],
      legend: [
        md`You are given an array of $n$ integers. Count its non-empty strictly increasing subsequences. Two subsequences are different if they use different sets of positions.`,
        md`Print the answer modulo $10^9 + 7$.`,
      ],
      input: [md`The first line contains one integer $n$. The second line contains $n$ integers $a_1, a_2, \ldots, a_n$.`],
      output: [md`Print one integer — the number of increasing subsequences modulo $10^9 + 7$.`],
      constraints: [md`$1 \le n \le 2 \cdot 10^5$`, md`$1 \le a_i \le 10^9$`],
      examples: samples([() => [2, 1, 3], (r) => r.ints(6, 1, 6)], count),
    },
  ];
};

export const knapsacks: Family = () => {
  type Items = { w: number[]; v: number[]; cap: number };
  const fmt = ({ w, v, cap }: Items) => `${w.length} ${cap}\n${w.map((x, i) => `${x} ${v[i]}`).join('\n')}`;
  const zeroOne: IO<Items> = {
    fmt,
    solve: ({ w, v, cap }) => {
      let best = 0;
      for (let mask = 0; mask < 1 << w.length; mask++) {
        let tw = 0;
        let tv = 0;
        w.forEach((x, i) => mask & (1 << i) && ((tw += x), (tv += v[i])));
        if (tw <= cap) best = Math.max(best, tv);
      }
      return String(best);
    },
  };
  const unbounded: IO<Items> = {
    fmt,
    solve: ({ w, v, cap }) => {
      const best = new Array<number>(cap + 1).fill(0);
      for (let c = 1; c <= cap; c++) w.forEach((x, i) => x <= c && (best[c] = Math.max(best[c], best[c - x] + v[i])));
      return String(best[cap]);
    },
  };
  const items = (r: Rng, n: number, maxW: number, maxV: number, cap: number): Items => ({ w: r.ints(n, 1, maxW), v: r.ints(n, 1, maxV), cap });
  return [
    {
      title: 'Knapsack',
      rating: 1300,
      tags: ['dp'],
      legend: [
        md`A traveller has a bag that can hold items with total weight at most $W$. There are $n$ items, and the $i$-th item has weight $w_i$ and value $v_i$. Each item can be taken at most once.`,
        md`For example, with $W = 5$ and the items below, the best choice is items $1$ and $2$ with total value $7$.`,
        table(['Item', 'Weight', 'Value'], [[1, 2, 3], [2, 3, 4], [3, 4, 5], [4, 5, 6]]),
        md`Find the maximum total value of items in the bag.`,
      ],
      input: [md`The first line contains two integers $n$ and $W$. Each of the next $n$ lines contains two integers $w_i$ and $v_i$.`],
      output: [md`Print one integer — the maximum total value.`],
      constraints: [md`$1 \le n \le 100$`, md`$1 \le W \le 10^5$`, md`$1 \le w_i \le W$`, md`$1 \le v_i \le 10^9$`],
      examples: samples([() => ({ w: [2, 3, 4, 5], v: [3, 4, 5, 6], cap: 5 }), (r) => items(r, 5, 8, 20, 12)], zeroOne),
    },
    {
      title: 'Knapsack With Heavy Items',
      rating: 1800,
      tags: ['dp'],
      legend: [
        md`There are $n$ items. The $i$-th item has weight $w_i$ and value $v_i$. The bag can hold total weight at most $W$, and each item can be taken at most once.`,
        md`This time the weights and $W$ are very large, but the values are small. Find the maximum total value.`,
      ],
      input: [md`The first line contains two integers $n$ and $W$. Each of the next $n$ lines contains two integers $w_i$ and $v_i$.`],
      output: [md`Print one integer — the maximum total value.`],
      constraints: [md`$1 \le n \le 100$`, md`$1 \le W \le 10^9$`, md`$1 \le w_i \le W$`, md`$1 \le v_i \le 1000$`],
      examples: samples([(r) => items(r, 5, 10 ** 8, 30, 2 * 10 ** 8)], zeroOne),
    },
    {
      title: 'Unbounded Knapsack',
      rating: 1400,
      tags: ['dp'],
      legend: [
        md`A shop sells $n$ kinds of goods. One unit of the $i$-th kind weighs $w_i$ and costs $v_i$. You can take any number of units of each kind.`,
        md`Your bag holds total weight at most $W$. Find the maximum total cost of goods you can carry.`,
      ],
      input: [md`The first line contains two integers $n$ and $W$. Each of the next $n$ lines contains two integers $w_i$ and $v_i$.`],
      output: [md`Print one integer — the maximum total cost.`],
      constraints: [md`$1 \le n \le 1000$`, md`$1 \le W \le 10^4$`, md`$1 \le w_i \le W$`, md`$1 \le v_i \le 10^5$`],
      examples: samples([(r) => items(r, 3, 6, 15, 13)], unbounded),
    },
  ];
};

export const bitmaskSearch: Family = () => {
  const maxXor: IO<number[]> = {
    fmt: arrayLine,
    solve: (a) => String(Math.max(...a.flatMap((x, i) => a.slice(i + 1).map((y) => x ^ y)))),
  };
  type Sub = { a: number[]; x: number };
  const subsets: IO<Sub> = {
    fmt: ({ a, x }) => `${a.length} ${x}\n${a.join(' ')}`,
    solve: ({ a, x }) => {
      let count = 0;
      for (let mask = 0; mask < 1 << a.length; mask++) if (a.reduce((acc, v, i) => (mask & (1 << i) ? acc ^ v : acc), 0) === x) count++;
      return String(count);
    },
  };
  const tsp: IO<number[][]> = {
    fmt: (d) => `${d.length}\n${d.map((row) => row.join(' ')).join('\n')}`,
    solve: (d) => {
      let best = Infinity;
      const go = (at: number, seen: number, cost: number) => {
        if (seen === (1 << d.length) - 1) return void (best = Math.min(best, cost + d[at][0]));
        for (let v = 0; v < d.length; v++) if (!(seen & (1 << v))) go(v, seen | (1 << v), cost + d[at][v]);
      };
      go(0, 1, 0);
      return String(best);
    },
  };
  const symmetric = (r: Rng, n: number) => {
    const d = Array.from({ length: n }, () => new Array<number>(n).fill(0));
    for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) d[i][j] = d[j][i] = r.int(1, 20);
    return d;
  };
  return [
    {
      title: 'Maximum XOR Pair',
      rating: 1800,
      tags: ['bitmasks', 'data-structures', 'greedy'],
      legend: [
        md`You are given an array of $n$ non-negative integers. Choose two elements at different positions so that their bitwise exclusive or $a_i \oplus a_j$ is as large as possible.`,
        md`For example, $5 \oplus 3 = 6$ because $101_2 \oplus 011_2 = 110_2$.`,
      ],
      input: [md`The first line contains one integer $n$. The second line contains $n$ integers $a_1, a_2, \ldots, a_n$.`],
      output: [md`Print one integer — the maximum value of $a_i \oplus a_j$.`],
      constraints: [md`$2 \le n \le 2 \cdot 10^5$`, md`$0 \le a_i < 2^{30}$`],
      examples: samples([(r) => r.ints(5, 0, 31), () => [5, 3]], maxXor),
    },
    {
      title: 'Subsets With Given XOR',
      rating: 1500,
      tags: ['bitmasks', 'dp'],
      legend: [
        md`You are given $n$ integers and a number $x$. Count the subsets of the integers whose exclusive or is equal to $x$.`,
        md`The exclusive or of the empty subset is $0$. Elements at different positions are different, even if they are equal.`,
      ],
      input: [md`The first line contains two integers $n$ and $x$. The second line contains $n$ integers $a_1, a_2, \ldots, a_n$.`],
      output: [md`Print one integer — the number of subsets.`],
      constraints: [md`$1 \le n \le 40$`, md`$0 \le a_i, x < 2^{20}$`],
      examples: samples([(r) => ({ a: r.ints(5, 0, 7), x: r.int(0, 7) }), () => ({ a: [1, 1], x: 0 })], subsets),
    },
    {
      title: 'Travelling Salesman',
      rating: 2000,
      tags: ['bitmasks', 'dp', 'graphs'],
      legend: [
        md`A salesman lives in city $1$ and must visit all $n$ cities exactly once, then come back home. The distance between cities $i$ and $j$ is $d_{i,j}$.`,
        md`Find the minimum total distance of such a trip. The usual way is a dynamic programming over subsets:`,
        code(
          'cpp',
          md`
          // dp[mask][v] = shortest path that starts in city 0,
          // visits exactly the cities in mask and ends in city v
          for (int mask = 1; mask < (1 << n); mask++)
              for (int v = 0; v < n; v++)
                  for (int u = 0; u < n; u++)
                      if (!(mask >> u & 1))
                          dp[mask | 1 << u][u] = min(dp[mask | 1 << u][u], dp[mask][v] + d[v][u]);`,
        ),
      ],
      input: [md`The first line contains one integer $n$. Each of the next $n$ lines contains $n$ integers — the matrix $d$. It is symmetric and $d_{i,i} = 0$.`],
      output: [md`Print one integer — the minimum length of the trip.`],
      constraints: [md`$2 \le n \le 16$`, md`$1 \le d_{i,j} \le 10^6$ for $i \ne j$`],
      examples: samples([(r) => symmetric(r, 4), (r) => symmetric(r, 5)], tsp),
    },
  ];
};

export const digitCounting: Family = () => {
  const digits = (x: number) => [...String(x)].map(Number);
  type Range = [number, number];
  const digitSums: IO<Range> = {
    fmt: (t) => t.join(' '),
    solve: ([l, r]) => {
      let total = 0;
      for (let x = l; x <= r; x++) total += digits(x).reduce((a, b) => a + b, 0);
      return String(total % MOD);
    },
  };
  const noEqual: IO<Range> = {
    fmt: (t) => t.join(' '),
    solve: ([l, r]) => {
      let count = 0;
      for (let x = l; x <= r; x++) if (digits(x).every((d, i, ds) => i === 0 || d !== ds[i - 1])) count++;
      return String(count);
    },
  };
  const divisible: IO<Range> = {
    fmt: (t) => t.join('\n'),
    solve: ([n, k]) => {
      let count = 0;
      for (let x = 1; x <= n; x++) if (digits(x).reduce((a, b) => a + b, 0) % k === 0) count++;
      return String(count % MOD);
    },
  };
  return [
    {
      title: 'Sum of Digits in a Range',
      rating: 1700,
      tags: ['dp', 'math'],
      legend: [
        md`Let $S(x)$ be the sum of the digits of $x$. For example, $S(305) = 8$. You are given two numbers $l$ and $r$. Find $$\sum_{x=l}^{r} S(x) \bmod (10^9 + 7).$$`,
      ],
      input: [md`The only line contains two integers $l$ and $r$.`],
      output: [md`Print one integer — the answer.`],
      constraints: [md`$1 \le l \le r \le 10^{18}$`],
      examples: samples([() => [1, 12] as Range, (r) => [r.int(90, 110), r.int(120, 300)] as Range], digitSums),
    },
    {
      title: 'No Equal Neighbours',
      rating: 2000,
      tags: ['dp', 'combinatorics'],
      legend: [
        md`A number is *nice* if no two neighbouring digits in it are equal. For example, $121$ and $7$ are nice, but $1223$ is not.`,
        md`Count the nice numbers $x$ with $l \le x \le r$.`,
      ],
      input: [md`The only line contains two integers $l$ and $r$.`],
      output: [md`Print one integer — the answer.`],
      constraints: [md`$0 \le l \le r \le 10^{18}$`],
      examples: samples([() => [1, 100] as Range, (r) => [r.int(100, 500), r.int(600, 2000)] as Range], noEqual),
    },
    {
      title: 'Digit Sum Divisible by K',
      rating: 2100,
      tags: ['dp', 'math'],
      legend: [
        md`You are given a very large number $n$ and a number $k$. Count the integers $x$ with $1 \le x \le n$ such that the sum of the digits of $x$ is divisible by $k$.`,
        md`Print the answer modulo $10^9 + 7$.`,
      ],
      input: [md`The first line contains the number $n$ without leading zeros. The second line contains the integer $k$.`],
      output: [md`Print one integer — the answer modulo $10^9 + 7$.`],
      constraints: [md`$1 \le n < 10^{10000}$`, md`$1 \le k \le 100$`],
      examples: samples([() => [30, 4] as Range, (r) => [r.int(100, 999), r.int(2, 9)] as Range], divisible),
    },
  ];
};

export const gridDp: Family = () => {
  const maxPath: IO<number[][]> = {
    fmt: (g) => `${g.length} ${g[0].length}\n${g.map((row) => row.join(' ')).join('\n')}`,
    solve: (g) => {
      const best = g.map((row) => row.map(() => 0));
      g.forEach((row, r) => row.forEach((v, c) => (best[r][c] = v + Math.max(r ? best[r - 1][c] : c ? -Infinity : 0, c ? best[r][c - 1] : -Infinity))));
      return String(best[g.length - 1][g[0].length - 1]);
    },
  };
  const paths: IO<string[]> = {
    fmt: (g) => `${g.length} ${g[0].length}\n${g.join('\n')}`,
    solve: (g) => {
      const ways = g.map((row) => [...row].map(() => 0));
      g.forEach((row, r) =>
        [...row].forEach((ch, c) => {
          if (ch === '#') return;
          ways[r][c] = r === 0 && c === 0 ? 1 : ((r ? ways[r - 1][c] : 0) + (c ? ways[r][c - 1] : 0)) % MOD;
        }),
      );
      return String(ways[g.length - 1][g[0].length - 1]);
    },
  };
  const twoWalkers: IO<number[][]> = {
    fmt: (g) => `${g.length}\n${g.map((row) => row.join(' ')).join('\n')}`,
    solve: (g) => {
      const n = g.length;
      // best[r1][r2] after the same number of steps; both walkers are on the same anti-diagonal.
      let best = [[g[0][0]]] as number[][];
      for (let step = 1; step <= 2 * n - 2; step++) {
        const next = Array.from({ length: n }, () => new Array<number>(n).fill(-Infinity));
        for (let r1 = 0; r1 < n; r1++)
          for (let r2 = 0; r2 < n; r2++) {
            const c1 = step - r1;
            const c2 = step - r2;
            if (c1 < 0 || c2 < 0 || c1 >= n || c2 >= n) continue;
            let prev = -Infinity;
            for (const [d1, d2] of [[0, 0], [1, 0], [0, 1], [1, 1]]) prev = Math.max(prev, best[r1 - d1]?.[r2 - d2] ?? -Infinity);
            next[r1][r2] = prev + g[r1][c1] + (r1 === r2 ? 0 : g[r2][c2]);
          }
        best = next;
      }
      return String(best[n - 1][n - 1]);
    },
  };
  return [
    {
      title: 'Maximum Path Sum in a Grid',
      rating: 1000,
      tags: ['dp'],
      legend: [
        md`A grid has $n$ rows and $m$ columns, and each cell has a number. You start in the top left cell and go to the bottom right cell. In one move you go one cell down or one cell right.`,
        md`Find the maximum sum of the numbers on your path, including the first and the last cell.`,
      ],
      input: [md`The first line contains two integers $n$ and $m$. Each of the next $n$ lines contains $m$ integers.`],
      output: [md`Print one integer — the maximum sum.`],
      constraints: [md`$1 \le n, m \le 1000$`, md`$-10^9 \le a_{i,j} \le 10^9$`],
      examples: samples([(r) => Array.from({ length: 3 }, () => r.ints(4, 0, 9)), (r) => Array.from({ length: 2 }, () => r.ints(3, -5, 5))], maxPath),
    },
    {
      title: 'Grid Paths With Obstacles',
      rating: 1100,
      tags: ['dp', 'combinatorics'],
      legend: [
        md`A grid has $n$ rows and $m$ columns. Some cells have obstacles (\`#\`), other cells are free (\`.\`). You go from the top left cell to the bottom right cell, and in one move you go one cell down or one cell right.`,
        md`Count the paths that do not visit cells with obstacles. Print the answer modulo $10^9 + 7$.`,
      ],
      input: [md`The first line contains two integers $n$ and $m$. Each of the next $n$ lines contains a string of $m$ characters.`],
      output: [md`Print one integer — the number of paths modulo $10^9 + 7$.`],
      constraints: [md`$1 \le n, m \le 1000$`],
      examples: samples([(r) => Array.from({ length: 4 }, () => r.word(5, '....#')), () => ['.#', '#.']], paths),
    },
    {
      title: 'Two Walkers',
      rating: 2200,
      tags: ['dp'],
      legend: [
        md`A square field has $n \times n$ cells, and each cell has some coins. Two walkers start in the top left cell and go to the bottom right cell. Each walker moves one cell down or one cell right at each step.`,
        md`A walker collects the coins of every cell he visits. If both walkers visit the same cell, its coins are collected only once. Find the maximum total number of collected coins.`,
      ],
      input: [md`The first line contains one integer $n$. Each of the next $n$ lines contains $n$ integers — the numbers of coins.`],
      output: [md`Print one integer — the maximum number of coins.`],
      constraints: [md`$1 \le n \le 300$`, md`$0 \le a_{i,j} \le 1000$`],
      examples: samples([(r) => Array.from({ length: 3 }, () => r.ints(3, 0, 9)), (r) => Array.from({ length: 4 }, () => r.ints(4, 0, 5))], twoWalkers),
    },
  ];
};

export const costOptimisation: Family = () => {
  type Frog = { h: number[]; c: number };
  const frog: IO<Frog> = {
    fmt: ({ h, c }) => `${h.length} ${c}\n${h.join(' ')}`,
    solve: ({ h, c }) => {
      const best = h.map((_, i) => (i === 0 ? 0 : Infinity));
      for (let i = 1; i < h.length; i++) for (let j = 0; j < i; j++) best[i] = Math.min(best[i], best[j] + (h[i] - h[j]) ** 2 + c);
      return String(best[h.length - 1]);
    },
  };
  type Split = { a: number[]; k: number };
  const split: IO<Split> = {
    fmt: ({ a, k }) => `${a.length} ${k}\n${a.join(' ')}`,
    solve: ({ a, k }) => {
      const n = a.length;
      const prefix = [0];
      for (const x of a) prefix.push(prefix[prefix.length - 1] + x);
      // One segment: the whole prefix.
      let best = prefix.map((s) => s * s);
      for (let parts = 2; parts <= k; parts++) {
        const next = prefix.map(() => Infinity);
        for (let i = 1; i <= n; i++) for (let j = 1; j < i; j++) next[i] = Math.min(next[i], best[j] + (prefix[i] - prefix[j]) ** 2);
        best = next;
      }
      return String(best[n]);
    },
  };
  const stones: IO<number[]> = {
    fmt: arrayLine,
    solve: (a) => {
      const n = a.length;
      const prefix = [0];
      for (const x of a) prefix.push(prefix[prefix.length - 1] + x);
      const dp = Array.from({ length: n }, () => new Array<number>(n).fill(0));
      for (let len = 2; len <= n; len++)
        for (let i = 0; i + len <= n; i++) {
          const j = i + len - 1;
          dp[i][j] = Infinity;
          for (let m = i; m < j; m++) dp[i][j] = Math.min(dp[i][j], dp[i][m] + dp[m + 1][j]);
          dp[i][j] += prefix[j + 1] - prefix[i];
        }
      return String(dp[0][n - 1]);
    },
  };
  return [
    {
      title: 'Merging Stones',
      rating: 2000,
      tags: ['dp'],
      legend: [
        md`There are $n$ piles of stones in a row, and the $i$-th pile has $a_i$ stones. In one move you merge two neighbouring piles into one pile. The cost of the move is the number of stones in the new pile.`,
        md`Find the minimum total cost to merge all piles into one pile.`,
      ],
      input: [md`The first line contains one integer $n$. The second line contains $n$ integers $a_1, a_2, \ldots, a_n$.`],
      output: [md`Print one integer — the minimum total cost.`],
      constraints: [md`$1 \le n \le 400$`, md`$1 \le a_i \le 10^9$`],
      examples: samples([() => [10, 20, 30, 40], (r) => r.ints(5, 1, 9)], stones),
    },
    {
      title: 'Frog Jumps With Square Cost',
      rating: 2900,
      tags: ['dp', 'geometry', 'data-structures'],
      legend: [
        md`There are $n$ stones in a row, and the height of the $i$-th stone is $h_i$. The heights strictly increase. A frog sits on stone $1$ and wants to reach stone $n$.`,
        md`The frog can jump from stone $i$ to any stone $j > i$. Such a jump costs $(h_j - h_i)^2 + C$. Find the minimum total cost of reaching stone $n$.`,
      ],
      input: [md`The first line contains two integers $n$ and $C$. The second line contains $n$ integers $h_1 < h_2 < \ldots < h_n$.`],
      output: [md`Print one integer — the minimum total cost.`],
      constraints: [md`$2 \le n \le 2 \cdot 10^5$`, md`$1 \le C \le 10^{12}$`, md`$1 \le h_i \le 10^6$`],
      examples: samples([() => ({ h: [1, 2, 3, 4, 5], c: 6 }), (r) => ({ h: r.distinct(6, 1, 30).sort((x, y) => x - y), c: r.int(5, 40) })], frog),
    },
    {
      title: 'Split With Square Cost',
      rating: 3300,
      tags: ['dp', 'binary-search', 'data-structures'],
      legend: [
        md`You are given an array of $n$ positive integers and a number $k$. Split the array into exactly $k$ non-empty segments of consecutive elements.`,
        md`The cost of a split is the sum of the squares of the segment sums: $$\sum_{j=1}^{k} \left( \sum_{i \in \text{segment } j} a_i \right)^2.$$ Find the minimum cost.`,
      ],
      input: [md`The first line contains two integers $n$ and $k$. The second line contains $n$ integers $a_1, a_2, \ldots, a_n$.`],
      output: [md`Print one integer — the minimum cost.`],
      constraints: [md`$1 \le k \le n \le 10^5$`, md`$1 \le a_i \le 1000$`],
      timeLimitMs: 3000,
      examples: samples([() => ({ a: [1, 2, 3, 4], k: 2 }), (r) => ({ a: r.ints(7, 1, 9), k: 3 })], split),
    },
  ];
};
