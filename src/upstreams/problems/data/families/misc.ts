import { code, list, many, md, multi, samples, table, type Family, type IO } from '../kit.ts';

const arrayLine = (a: readonly number[]) => `${a.length}\n${a.join(' ')}`;

export const answerSearch: Family = () => {
  type Ropes = { a: number[]; k: number };
  const ropes: IO<Ropes> = {
    fmt: ({ a, k }) => `${a.length} ${k}\n${a.join(' ')}`,
    solve: ({ a, k }) => {
      let best = 0;
      for (let len = 1; len <= Math.max(...a); len++) if (a.reduce((s, x) => s + Math.floor(x / len), 0) >= k) best = len;
      return String(best);
    },
  };
  const split: IO<Ropes> = {
    fmt: ({ a, k }) => `${a.length} ${k}\n${a.join(' ')}`,
    solve: ({ a, k }) => {
      for (let limit = Math.max(...a); ; limit++) {
        let parts = 1;
        let cur = 0;
        for (const x of a) (cur + x > limit ? ((parts++), (cur = x)) : (cur += x));
        if (parts <= k) return String(limit);
      }
    },
  };
  type Machines = { k: number[]; t: number };
  const machines: IO<Machines> = {
    fmt: ({ k, t }) => `${k.length} ${t}\n${k.join(' ')}`,
    solve: ({ k, t }) => {
      for (let time = 0; ; time++) if (k.reduce((s, x) => s + Math.floor(time / x), 0) >= t) return String(time);
    },
    explain: ({ k, t }, out) =>
      k.length <= 3 ? md`In $${out}$ seconds the machines make ${k.map((x) => Math.floor(Number(out) / x)).join(', ')} products, which is at least $${t}$.` : undefined,
  };
  return [
    {
      title: 'Cutting Ropes',
      rating: 1400,
      tags: ['binary-search'],
      legend: [
        md`You have $n$ ropes with lengths $a_1, a_2, \ldots, a_n$. You need $k$ pieces of rope with the same integer length. You can cut the ropes, but you cannot tie pieces together.`,
        md`Find the maximum length of the pieces. If you cannot get $k$ pieces of length $1$, print $0$.`,
      ],
      input: [md`The first line contains two integers $n$ and $k$. The second line contains $n$ integers $a_1, a_2, \ldots, a_n$.`],
      output: [md`Print one integer — the maximum length.`],
      constraints: [md`$1 \le n \le 10^5$`, md`$1 \le k \le 10^9$`, md`$1 \le a_i \le 10^9$`],
      examples: samples([(r) => ({ a: r.ints(4, 5, 30), k: 7 }), () => ({ a: [1, 1], k: 3 })], ropes),
    },
    {
      title: 'Splitting the Array',
      rating: 1600,
      tags: ['binary-search', 'greedy'],
      legend: [
        md`You are given an array of $n$ positive integers. Split it into at most $k$ segments of consecutive elements, so that each element is in exactly one segment.`,
        md`The weight of a split is the largest sum of a segment. Find the minimum possible weight.`,
      ],
      input: [md`The first line contains two integers $n$ and $k$. The second line contains $n$ integers $a_1, a_2, \ldots, a_n$.`],
      output: [md`Print one integer — the minimum weight.`],
      constraints: [md`$1 \le k \le n \le 2 \cdot 10^5$`, md`$1 \le a_i \le 10^9$`],
      examples: samples([(r) => ({ a: r.ints(6, 1, 9), k: 3 }), () => ({ a: [2, 4, 7, 3, 5], k: 3 })], split),
    },
    {
      title: 'Factory Machines',
      rating: 1500,
      tags: ['binary-search'],
      legend: [
        md`A factory has $n$ machines. The $i$-th machine needs $k_i$ seconds to make one product. All machines work at the same time.`,
        md`Find the minimum time needed to make $t$ products.`,
      ],
      input: [md`The first line contains two integers $n$ and $t$. The second line contains $n$ integers $k_1, k_2, \ldots, k_n$.`],
      output: [md`Print one integer — the minimum number of seconds.`],
      constraints: [md`$1 \le n \le 2 \cdot 10^5$`, md`$1 \le t, k_i \le 10^9$`],
      notes: [md`The answer can be up to $10^{18}$, so it does not fit into a 32-bit integer.`],
      examples: samples([() => ({ k: [3, 2, 5], t: 7 }), (r) => ({ k: r.ints(4, 1, 9), t: r.int(5, 20) })], machines),
    },
  ];
};

export const implementation: Family = () => {
  type Times = [string, string];
  const minutes = (s: string) => Number(s.slice(0, 2)) * 60 + Number(s.slice(3));
  const time: IO<Times> = { fmt: (t) => t.join(' '), solve: ([a, b]) => String((minutes(b) - minutes(a) + 1440) % 1440) };
  const hhmm = (r: { int(lo: number, hi: number): number }) => `${String(r.int(0, 23)).padStart(2, '0')}:${String(r.int(0, 59)).padStart(2, '0')}`;
  const matrixText = (g: number[][]) => `${g.length} ${g[0].length}\n${g.map((row) => row.join(' ')).join('\n')}`;
  const rotate: IO<number[][]> = {
    fmt: matrixText,
    solve: (g) => g[0].map((_, c) => g.map((row) => row[c]).reverse().join(' ')).join('\n'),
  };
  const spiral: IO<number[][]> = {
    fmt: matrixText,
    solve: (g) => {
      const out: number[] = [];
      let [top, bottom, left, right] = [0, g.length - 1, 0, g[0].length - 1];
      while (top <= bottom && left <= right) {
        for (let c = left; c <= right; c++) out.push(g[top][c]);
        for (let r = top + 1; r <= bottom; r++) out.push(g[r][right]);
        if (top < bottom) for (let c = right - 1; c >= left; c--) out.push(g[bottom][c]);
        if (left < right) for (let r = bottom - 1; r > top; r--) out.push(g[r][left]);
        top++, bottom--, left++, right--;
      }
      return out.join(' ');
    },
  };
  const counting = (h: number, w: number) => Array.from({ length: h }, (_, r) => Array.from({ length: w }, (_, c) => r * w + c + 1));
  return [
    {
      title: 'Time Difference',
      rating: 800,
      tags: ['implementation', 'math'],
      legend: [
        md`A clock shows time in the format \`HH:MM\`, from \`00:00\` to \`23:59\`. You look at the clock twice. The first time it shows $a$, and the second time it shows $b$.`,
        md`Less than one day passed between the two moments, and if $a = b$, no time passed. How many minutes passed?`,
      ],
      input: [md`The first line contains one integer $t$. Each of the next $t$ lines contains two times $a$ and $b$.`],
      output: [md`For each test case print one integer — the number of minutes.`],
      constraints: [md`$1 \le t \le 1440$`],
      examples: samples([(r) => [['10:15', '11:00'] as Times, ['23:50', '00:10'] as Times, [hhmm(r), hhmm(r)] as Times]], multi(time)),
    },
    {
      title: 'Rotate the Matrix',
      rating: 900,
      tags: ['implementation'],
      legend: [md`You are given a matrix of $n$ rows and $m$ columns. Rotate it by $90$ degrees clockwise and print the result.`],
      input: [md`The first line contains two integers $n$ and $m$. Each of the next $n$ lines contains $m$ integers.`],
      output: [md`Print $m$ lines with $n$ integers each — the rotated matrix.`],
      constraints: [md`$1 \le n, m \le 1000$`, md`$|a_{i,j}| \le 10^9$`],
      examples: samples([() => counting(2, 3), (r) => Array.from({ length: 3 }, () => r.ints(3, 0, 9))], rotate),
    },
    {
      title: 'Spiral Order',
      rating: 1000,
      tags: ['implementation'],
      legend: [
        md`You are given a matrix of $n$ rows and $m$ columns. Print its elements in spiral order: start in the top left corner and go right, then down, then left, then up, and continue inside, like this:`,
        code(
          'text',
          md`
          1  2  3  4
          10 11 12 5
          9  8  7  6`,
        ),
      ],
      input: [md`The first line contains two integers $n$ and $m$. Each of the next $n$ lines contains $m$ integers.`],
      output: [md`Print $n \cdot m$ integers — the elements in spiral order.`],
      constraints: [md`$1 \le n, m \le 1000$`],
      examples: samples([() => counting(3, 4), (r) => Array.from({ length: 4 }, () => r.ints(2, 0, 9))], spiral),
    },
  ];
};

export const greedyChoices: Family = () => {
  const bills = [100, 20, 10, 5, 1];
  const fewest: IO<number> = {
    fmt: String,
    solve: (n) => String(bills.reduce((acc, b) => ((acc.count += Math.floor(acc.left / b)), (acc.left %= b), acc), { count: 0, left: n }).count),
  };
  const candies: IO<number[]> = {
    fmt: arrayLine,
    solve: (a) => {
      const c = a.map(() => 1);
      for (let i = 1; i < a.length; i++) if (a[i] > a[i - 1]) c[i] = c[i - 1] + 1;
      for (let i = a.length - 2; i >= 0; i--) if (a[i] > a[i + 1]) c[i] = Math.max(c[i], c[i + 1] + 1);
      return String(c.reduce((s, x) => s + x, 0));
    },
  };
  type Trip = { target: number; fuel: number; stations: Array<[number, number]> };
  const refuel: IO<Trip> = {
    fmt: ({ target, fuel, stations }) => `${stations.length} ${target} ${fuel}\n${stations.map((s) => s.join(' ')).join('\n')}`,
    solve: ({ target, fuel, stations }) => {
      // far[j] = the farthest point reachable with j stops.
      const far = [fuel, ...stations.map(() => -1)];
      stations.forEach(([pos, gas], i) => {
        for (let j = i; j >= 0; j--) if (far[j] >= pos) far[j + 1] = Math.max(far[j + 1], far[j] + gas);
      });
      const stops = far.findIndex((d) => d >= target);
      return String(stops);
    },
  };
  return [
    {
      title: 'Fewest Bills',
      rating: 800,
      tags: ['greedy', 'implementation'],
      legend: [
        md`A bank gives out money in bills of these values:`,
        table(['Bill', 'Value in coins'], [...bills].reverse().map((b) => [`${b}-coin bill`, b])),
        md`You want to take exactly $n$ coins from the bank. Find the minimum number of bills.`,
      ],
      input: [md`The only line contains one integer $n$.`],
      output: [md`Print one integer — the minimum number of bills.`],
      constraints: [md`$1 \le n \le 10^9$`],
      examples: samples([() => 125, (r) => r.int(40, 999), () => 1000000000], fewest),
    },
    {
      title: 'Candy Distribution',
      rating: 1500,
      tags: ['greedy'],
      legend: [
        md`There are $n$ children in a line. Each child has a score $a_i$. A teacher gives candies to the children by these rules:`,
        list([md`each child gets at least one candy;`, md`if a child has a higher score than a neighbour, this child gets more candies than that neighbour.`]),
        md`Find the minimum total number of candies.`,
      ],
      input: [md`The first line contains one integer $n$. The second line contains $n$ integers $a_1, a_2, \ldots, a_n$.`],
      output: [md`Print one integer — the minimum number of candies.`],
      constraints: [md`$1 \le n \le 2 \cdot 10^5$`, md`$1 \le a_i \le 10^9$`],
      examples: samples([() => [2, 1, 3], (r) => r.ints(7, 1, 5)], candies),
    },
    {
      title: 'Refuelling Stops',
      rating: 1600,
      tags: ['greedy', 'data-structures', 'dp'],
      legend: [
        md`A car drives along a road from point $0$ to point $L$. It starts with $F$ liters of fuel and uses one liter per kilometer. The tank is very large.`,
        md`There are $n$ gas stations on the road. The $i$-th station is at point $p_i$ and has $g_i$ liters of fuel. When the car stops at a station, it takes all the fuel.`,
        md`Find the minimum number of stops to reach point $L$, or print $-1$ if it is not possible.`,
      ],
      input: [md`The first line contains three integers $n$, $L$ and $F$. Each of the next $n$ lines contains two integers $p_i$ and $g_i$. The stations are given in increasing order of $p_i$.`],
      output: [md`Print one integer — the minimum number of stops, or $-1$.`],
      constraints: [md`$0 \le n \le 2 \cdot 10^5$`, md`$1 \le F, L \le 10^9$`, md`$0 < p_1 < p_2 < \ldots < p_n < L$`, md`$1 \le g_i \le 10^9$`],
      examples: samples(
        [
          () => ({ target: 100, fuel: 10, stations: [[10, 60], [20, 30], [30, 30], [60, 40]] as Array<[number, number]> }),
          () => ({ target: 100, fuel: 1, stations: [[10, 100]] as Array<[number, number]> }),
          (r) => ({ target: 50, fuel: r.int(10, 20), stations: r.distinct(4, 5, 45).sort((a, b) => a - b).map((p) => [p, r.int(5, 20)] as [number, number]) }),
        ],
        refuel,
      ),
    },
  ];
};

export const constructions: Family = () => {
  const derangement: IO<number> = {
    fmt: String,
    solve: (n) => {
      const used = new Set<number>();
      const out: number[] = [];
      const go = (i: number): boolean => {
        if (i > n) return true;
        for (let v = 1; v <= n; v++) {
          if (v === i || used.has(v)) continue;
          used.add(v), out.push(v);
          if (go(i + 1)) return true;
          used.delete(v), out.pop();
        }
        return false;
      };
      return go(1) ? out.join(' ') : '-1';
    },
  };
  const summands: IO<number> = {
    fmt: String,
    solve: (n) => {
      const out: number[] = [];
      let left = n;
      for (let k = 1; left - k > k; k++) out.push(k), (left -= k);
      out.push(left);
      return `${out.length}\n${out.join(' ')}`;
    },
  };
  const steps: IO<number> = {
    fmt: String,
    solve: (n) => {
      const used = new Set<number>();
      const out: number[] = [];
      const go = (): boolean => {
        if (out.length === n) return true;
        for (let v = 1; v <= n; v++) {
          if (used.has(v) || (out.length && Math.abs(out[out.length - 1] - v) < 2)) continue;
          used.add(v), out.push(v);
          if (go()) return true;
          used.delete(v), out.pop();
        }
        return false;
      };
      return go() ? out.join(' ') : '-1';
    },
  };
  return [
    {
      title: 'Smallest Derangement',
      rating: 1200,
      tags: ['constructive', 'greedy'],
      legend: [
        md`A permutation of length $n$ is an order of the numbers $1, 2, \ldots, n$. A permutation $p$ is a *derangement* if $p_i \ne i$ for every position $i$.`,
        md`Print the lexicographically smallest derangement of length $n$.`,
      ],
      input: [md`The first line contains one integer $t$. Each of the next $t$ lines contains one integer $n$.`],
      output: [md`For each test case print $n$ integers — the smallest derangement.`],
      constraints: [md`$1 \le t \le 100$`, md`$2 \le n \le 1000$`],
      examples: samples([(r) => [2, 3, r.int(4, 7)]], multi(derangement)),
    },
    {
      title: 'Distinct Summands',
      rating: 1100,
      tags: ['constructive', 'greedy', 'math'],
      legend: [
        md`Write the number $n$ as a sum of as many different positive integers as possible.`,
        md`If there are many answers, print the one where the summands, sorted in increasing order, are lexicographically smallest.`,
      ],
      input: [md`The only line contains one integer $n$.`],
      output: [md`In the first line print $k$ — the number of summands. In the second line print the summands in increasing order.`],
      constraints: [md`$1 \le n \le 10^9$`],
      examples: samples([() => 5, () => 9, (r) => r.int(10, 40)], summands),
    },
    {
      title: 'Permutation With Large Steps',
      rating: 1500,
      tags: ['constructive'],
      legend: [
        md`Find the lexicographically smallest permutation $p$ of $1, 2, \ldots, n$ such that $|p_i - p_{i+1}| \ge 2$ for every $i$ from $1$ to $n - 1$.`,
        md`If there is no such permutation, print $-1$.`,
      ],
      input: [md`The first line contains one integer $t$. Each of the next $t$ lines contains one integer $n$.`],
      output: [md`For each test case print the permutation or $-1$.`],
      constraints: [md`$1 \le t \le 100$`, md`$1 \le n \le 10^5$`],
      examples: samples([many(4, (r) => r.int(1, 7))], multi(steps)),
    },
  ];
};
