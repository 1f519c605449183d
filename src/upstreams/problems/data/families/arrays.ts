import { code, many, md, multi, samples, table, type Family, type IO } from '../kit.ts';

const arrayLine = (a: readonly number[]) => `${a.length}\n${a.join(' ')}`;
const terms = (xs: readonly number[]) => xs.map((x) => (x < 0 ? `(${x})` : String(x))).join(' + ');

function bestSegment(a: readonly number[], length?: number) {
  let best = { sum: -Infinity, l: 0, r: 0 };
  for (let l = 0; l < a.length; l++) {
    let s = 0;
    for (let r = l; r < a.length; r++) {
      s += a[r];
      if ((length === undefined || r - l + 1 === length) && s > best.sum) best = { sum: s, l: l + 1, r: r + 1 };
    }
  }
  return best;
}

export const segmentSums: Family = () => {
  const single: IO<number[]> = {
    fmt: arrayLine,
    solve: (a) => String(bestSegment(a).sum),
    explain: (a) => {
      const { l, r, sum } = bestSegment(a);
      if (l === r) return md`The best segment is the single element $a_${l} = ${sum}$.`;
      return md`The best segment is $[${l}, ${r}]$. Its sum is $${terms(a.slice(l - 1, r))} = ${sum}$.`;
    },
  };
  type Fixed = { a: number[]; k: number };
  const fixed: IO<Fixed> = {
    fmt: ({ a, k }) => `${a.length} ${k}\n${a.join(' ')}`,
    solve: ({ a, k }) => String(bestSegment(a, k).sum),
    explain: ({ a, k }) => {
      const { l, r, sum } = bestSegment(a, k);
      return md`Take the elements from position $${l}$ to position $${r}$: $${terms(a.slice(l - 1, r))} = ${sum}$.`;
    },
  };
  return [
    {
      title: 'Best Segment',
      rating: 900,
      tags: ['dp', 'greedy'],
      legend: [
        md`You are given an array $a$ of $n$ integers. A *segment* of the array is a non-empty group of consecutive elements $a_l, a_{l+1}, \ldots, a_r$.`,
        md`Find the maximum sum of a segment. The numbers can be negative, so the answer can be negative too.`,
      ],
      input: [
        md`The first line contains one integer $n$ — the length of the array.`,
        md`The second line contains $n$ integers $a_1, a_2, \ldots, a_n$.`,
      ],
      output: [md`Print one integer — the maximum sum of a segment.`],
      constraints: [md`$1 \le n \le 2 \cdot 10^5$`, md`$-10^9 \le a_i \le 10^9$`],
      notes: [
        md`The answer may not fit in a 32-bit integer. Use a 64-bit type, for example \`long long\` in C++ or \`long\` in Java.`,
        md`The simple solution below checks every segment. It is correct, but it is too slow for $n = 2 \cdot 10^5$:`,
        code(
          'cpp',
          md`
          long long best = LLONG_MIN;
          for (int l = 0; l < n; l++) {
              long long sum = 0;
              for (int r = l; r < n; r++) {
                  sum += a[r];
                  best = max(best, sum);
              }
          }`,
        ),
      ],
      examples: samples([(r) => r.ints(r.int(6, 8), -10, 10), (r) => r.ints(4, -9, -1)], single),
    },
    {
      title: 'Profit Window',
      rating: 1100,
      tags: ['dp', 'greedy'],
      legend: [
        md`A small shop writes down its profit for each of $n$ days. On a bad day the profit is negative.`,
        md`The owner wants to choose one period of consecutive days with the largest total profit. In other words, find`,
        md`$$
\max_{1 \le l \le r \le n} \sum_{i=l}^{r} a_i.
$$`,
        md`The period must contain at least one day. Answer $t$ independent test cases.`,
      ],
      input: [
        md`The first line contains one integer $t$ — the number of test cases.`,
        md`Each test case has two lines. The first line contains one integer $n$ — the number of days. The second line contains $n$ integers $a_1, a_2, \ldots, a_n$ — the profit on each day.`,
      ],
      output: [md`For each test case, print one integer — the maximum total profit of a period.`],
      constraints: [
        md`$1 \le t \le 10^4$`,
        md`$1 \le n \le 2 \cdot 10^5$`,
        md`$-10^9 \le a_i \le 10^9$`,
        md`The sum of $n$ over all test cases does not exceed $2 \cdot 10^5$.`,
      ],
      examples: samples([many(3, (r) => r.ints(r.int(3, 6), -8, 8))], multi(single)),
    },
    {
      title: 'Segment of Length K',
      rating: 1000,
      tags: ['two-pointers', 'implementation'],
      legend: [
        md`You are given an array of $n$ integers and an integer $k$.`,
        md`Choose exactly $k$ consecutive elements of the array so that their sum is as large as possible. Print this sum.`,
      ],
      input: [
        md`The first line contains two integers $n$ and $k$.`,
        md`The second line contains $n$ integers $a_1, a_2, \ldots, a_n$.`,
      ],
      output: [md`Print one integer — the maximum sum of $k$ consecutive elements.`],
      constraints: [md`$1 \le k \le n \le 2 \cdot 10^5$`, md`$-10^4 \le a_i \le 10^4$`],
      examples: samples(
        [
          (r) => ({ a: r.ints(7, -5, 9), k: 3 }),
          (r) => ({ a: r.ints(5, -9, 9), k: r.int(1, 5) }),
        ],
        fixed,
      ),
    },
  ];
};

export const pairCounting: Family = () => {
  type Test = { a: number[]; x: number };
  const fmt = ({ a, x }: Test) => `${a.length} ${x}\n${a.join(' ')}`;
  const countPairs = ({ a, x }: Test, ok: (s: number, x: number) => boolean) => {
    const pairs: Array<[number, number]> = [];
    for (let i = 0; i < a.length; i++) for (let j = i + 1; j < a.length; j++) if (ok(a[i] + a[j], x)) pairs.push([i + 1, j + 1]);
    return pairs;
  };
  const equal: IO<Test> = {
    fmt,
    solve: (t) => String(countPairs(t, (s, x) => s === x).length),
    explain: (t) => {
      const pairs = countPairs(t, (s, x) => s === x);
      if (pairs.length === 0 || pairs.length > 4) return undefined;
      return `The good pairs of positions are ${pairs.map(([i, j]) => `$(${i}, ${j})$`).join(', ')}.`;
    },
  };
  const atMost: IO<Test> = { fmt, solve: (t) => String(countPairs(t, (s, x) => s <= x).length) };
  const triples: IO<number[]> = {
    fmt: arrayLine,
    solve: (a) => {
      let count = 0;
      for (let i = 0; i < a.length; i++)
        for (let j = i + 1; j < a.length; j++) for (let k = j + 1; k < a.length; k++) if (a[i] + a[j] + a[k] === 0) count++;
      return String(count);
    },
  };
  return [
    {
      title: 'Pairs With Given Sum',
      rating: 1100,
      tags: ['sorting', 'binary-search', 'data-structures'],
      legend: [
        md`You are given an array $a$ of $n$ positive integers and an integer $x$.`,
        md`Count the number of pairs of positions $(i, j)$ such that $i < j$ and $a_i + a_j = x$.`,
      ],
      input: [
        md`The first line contains two integers $n$ and $x$.`,
        md`The second line contains $n$ integers $a_1, a_2, \ldots, a_n$.`,
      ],
      output: [md`Print one integer — the number of pairs.`],
      constraints: [md`$1 \le n \le 2 \cdot 10^5$`, md`$1 \le a_i, x \le 10^9$`],
      examples: samples(
        [(r) => ({ a: r.ints(6, 1, 6), x: 7 }), (r) => ({ a: r.ints(5, 1, 3), x: 4 })],
        equal,
      ),
    },
    {
      title: 'Pairs With Sum at Most X',
      rating: 1300,
      tags: ['sorting', 'two-pointers', 'binary-search'],
      legend: [
        md`There are $n$ boxes in a store. The weight of the $i$-th box is $a_i$. A cart can carry two boxes if their total weight is at most $x$.`,
        md`Count the number of pairs of boxes the cart can carry. Two pairs are different if they contain different boxes.`,
      ],
      input: [
        md`The first line contains two integers $n$ and $x$ — the number of boxes and the limit of the cart.`,
        md`The second line contains $n$ integers $a_1, a_2, \ldots, a_n$ — the weights.`,
      ],
      output: [md`Print one integer — the number of pairs $(i, j)$ with $i < j$ and $a_i + a_j \le x$.`],
      constraints: [md`$2 \le n \le 2 \cdot 10^5$`, md`$1 \le a_i \le 10^9$`, md`$1 \le x \le 2 \cdot 10^9$`],
      examples: samples([(r) => ({ a: r.ints(6, 1, 9), x: 10 }), (r) => ({ a: r.ints(4, 5, 9), x: 9 })], atMost),
    },
    {
      title: 'Triples With Zero Sum',
      rating: 1700,
      tags: ['sorting', 'two-pointers'],
      legend: [
        md`You are given an array of $n$ integers. Count the number of triples of positions $i < j < k$ such that $a_i + a_j + a_k = 0$.`,
        md`Positions are counted, not values: equal values at different positions give different triples.`,
      ],
      input: [md`The first line contains one integer $n$. The second line contains $n$ integers $a_1, a_2, \ldots, a_n$.`],
      output: [md`Print one integer — the number of triples.`],
      constraints: [md`$3 \le n \le 3000$`, md`$-10^6 \le a_i \le 10^6$`],
      examples: samples([(r) => r.ints(6, -4, 4), (r) => [0, 0, 0, 0]], triples),
    },
  ];
};

export const orderingIntervals: Family = () => {
  const digitSum = (x: number) => [...String(x)].reduce((s, d) => s + Number(d), 0);
  const byDigits: IO<number[]> = {
    fmt: arrayLine,
    solve: (a) => [...a].sort((x, y) => digitSum(x) - digitSum(y) || x - y).join(' '),
  };
  type Seg = Array<[number, number]>;
  const segLines = (s: Seg) => `${s.length}\n${s.map((p) => p.join(' ')).join('\n')}`;
  const rooms: IO<Seg> = {
    fmt: segLines,
    solve: (s) => {
      const events = s.flatMap(([a, b]) => [[a, 1], [b, -1]] as const).sort((x, y) => x[0] - y[0] || x[1] - y[1]);
      let cur = 0;
      let best = 0;
      for (const [, d] of events) best = Math.max(best, (cur += d));
      return String(best);
    },
  };
  const merge = (s: Seg) => {
    const sorted = [...s].sort((x, y) => x[0] - y[0]);
    const out: Seg = [];
    for (const [l, r] of sorted) {
      const last = out[out.length - 1];
      if (last && l <= last[1]) last[1] = Math.max(last[1], r);
      else out.push([l, r]);
    }
    return out;
  };
  const merging: IO<Seg> = { fmt: segLines, solve: (s) => segLines(merge(s)) };
  const genSeg = (r: { int(lo: number, hi: number): number }, n: number, max: number): Seg =>
    Array.from({ length: n }, () => {
      const a = r.int(1, max - 1);
      return [a, r.int(a + 1, Math.min(max, a + 6))];
    });
  return [
    {
      title: 'Sort by Digit Sum',
      rating: 900,
      tags: ['sorting', 'implementation'],
      legend: [
        md`The digit sum of a number is the sum of its decimal digits. For example:`,
        table(['Number', 'Digit sum'], [[45, 9], [123, 6], [1000, 1], [909, 18]]),
        md`You are given $n$ positive integers. Sort them by digit sum in increasing order. If two numbers have the same digit sum, the smaller number goes first.`,
      ],
      input: [md`The first line contains one integer $n$. The second line contains $n$ integers $a_1, a_2, \ldots, a_n$.`],
      output: [md`Print the $n$ numbers in the new order, separated by spaces.`],
      constraints: [md`$1 \le n \le 10^5$`, md`$1 \le a_i \le 10^9$`],
      examples: samples([(r) => r.ints(6, 1, 200), (r) => [91, 19, 10, 100, 55]], byDigits),
    },
    {
      title: 'Meeting Rooms',
      rating: 1300,
      tags: ['sorting', 'greedy'],
      legend: [
        md`A company plans $n$ meetings for tomorrow. The $i$-th meeting starts at time $s_i$ and ends at time $e_i$, so it uses a room during the time interval $[s_i, e_i)$.`,
        md`Two meetings cannot use the same room at the same time. A meeting that ends at time $t$ and a meeting that starts at time $t$ can use the same room.`,
        md`Find the minimum number of rooms needed for all meetings.`,
      ],
      input: [
        md`The first line contains one integer $n$ — the number of meetings.`,
        md`Each of the next $n$ lines contains two integers $s_i$ and $e_i$.`,
      ],
      output: [md`Print one integer — the minimum number of rooms.`],
      constraints: [md`$1 \le n \le 2 \cdot 10^5$`, md`$0 \le s_i < e_i \le 10^9$`],
      examples: samples([(r) => genSeg(r, 5, 12), (r) => [[1, 3], [3, 5], [5, 7]] as Seg], rooms),
    },
    {
      title: 'Merge Intervals',
      rating: 1200,
      tags: ['sorting', 'implementation'],
      legend: [
        md`You are given $n$ segments on a number line. The $i$-th segment is $[l_i, r_i]$ and contains all points $x$ with $l_i \le x \le r_i$.`,
        md`If two segments have at least one common point, they are merged into one segment. Merging repeats while it is possible. Print the final segments.`,
      ],
      input: [
        md`The first line contains one integer $n$.`,
        md`Each of the next $n$ lines contains two integers $l_i$ and $r_i$.`,
      ],
      output: [
        md`In the first line print $k$ — the number of final segments.`,
        md`Then print $k$ lines, each with two integers: the ends of a segment. Print the segments from left to right.`,
      ],
      constraints: [md`$1 \le n \le 10^5$`, md`$0 \le l_i \le r_i \le 10^9$`],
      examples: samples([(r) => genSeg(r, 5, 20), (r) => [[1, 2], [2, 3], [5, 6]] as Seg], merging),
    },
  ];
};

export const scheduling: Family = () => {
  type Seg = Array<[number, number]>;
  const segLines = (s: Seg) => `${s.length}\n${s.map((p) => p.join(' ')).join('\n')}`;
  const festival: IO<Seg> = {
    fmt: segLines,
    solve: (s) => {
      let count = 0;
      let end = -Infinity;
      for (const [a, b] of [...s].sort((x, y) => x[1] - y[1])) if (a >= end) ((end = b), count++);
      return String(count);
    },
  };
  const arrows: IO<Seg> = {
    fmt: segLines,
    solve: (s) => {
      let count = 0;
      let at = -Infinity;
      for (const [a, b] of [...s].sort((x, y) => x[1] - y[1])) if (a > at) ((at = b), count++);
      return String(count);
    },
  };
  type Task = { d: number; p: number };
  const rewards: IO<Task[]> = {
    fmt: (ts) => `${ts.length}\n${ts.map((t) => `${t.d} ${t.p}`).join('\n')}`,
    solve: (ts) => {
      let best = 0;
      for (let mask = 0; mask < 1 << ts.length; mask++) {
        const chosen = ts.filter((_, i) => mask & (1 << i)).sort((a, b) => a.d - b.d);
        if (chosen.every((t, i) => t.d >= i + 1)) best = Math.max(best, chosen.reduce((s, t) => s + t.p, 0));
      }
      return String(best);
    },
  };
  const genSeg = (r: { int(lo: number, hi: number): number }, n: number): Seg =>
    Array.from({ length: n }, () => {
      const a = r.int(1, 15);
      return [a, a + r.int(1, 5)];
    });
  return [
    {
      title: 'Movie Festival',
      rating: 1200,
      tags: ['greedy', 'sorting'],
      legend: [
        md`A film festival shows $n$ movies. The $i$-th movie starts at time $a_i$ and ends at time $b_i$.`,
        md`You want to watch as many movies as possible from start to end. You can start a movie at the same moment another movie ends. Find the maximum number of movies you can watch.`,
      ],
      input: [md`The first line contains one integer $n$. Each of the next $n$ lines contains two integers $a_i$ and $b_i$.`],
      output: [md`Print one integer — the maximum number of movies.`],
      constraints: [md`$1 \le n \le 2 \cdot 10^5$`, md`$1 \le a_i < b_i \le 10^9$`],
      examples: samples([(r) => genSeg(r, 5), (r) => [[3, 5], [4, 9], [5, 8]] as Seg], festival),
    },
    {
      title: 'Deadlines and Rewards',
      rating: 1600,
      tags: ['greedy', 'data-structures', 'sorting'],
      legend: [
        md`You have $n$ tasks. Each task takes exactly one day, and you can do at most one task per day. Days are numbered $1, 2, 3, \ldots$`,
        md`The $i$-th task gives a reward of $p_i$ coins if you finish it on day $d_i$ or earlier. A late task gives nothing, so you can simply skip it.`,
        md`Find the maximum total reward.`,
      ],
      input: [md`The first line contains one integer $n$. Each of the next $n$ lines contains two integers $d_i$ and $p_i$.`],
      output: [md`Print one integer — the maximum total reward.`],
      constraints: [md`$1 \le n \le 2 \cdot 10^5$`, md`$1 \le d_i \le n$`, md`$1 \le p_i \le 10^9$`],
      examples: samples(
        [(r) => Array.from({ length: 6 }, () => ({ d: r.int(1, 3), p: r.int(1, 20) })), (r) => [{ d: 1, p: 5 }, { d: 1, p: 7 }]],
        rewards,
      ),
    },
    {
      title: 'Minimum Arrows',
      rating: 1300,
      tags: ['greedy', 'sorting'],
      legend: [
        md`There are $n$ balloons above a long line. The $i$-th balloon covers the segment $[l_i, r_i]$ of the line.`,
        md`An arrow shot at point $x$ bursts every balloon with $l_i \le x \le r_i$. Find the minimum number of arrows that burst all balloons.`,
      ],
      input: [md`The first line contains one integer $n$. Each of the next $n$ lines contains two integers $l_i$ and $r_i$.`],
      output: [md`Print one integer — the minimum number of arrows.`],
      constraints: [md`$1 \le n \le 10^5$`, md`$-10^9 \le l_i \le r_i \le 10^9$`],
      examples: samples([(r) => genSeg(r, 6), (r) => [[1, 2], [3, 4], [5, 6]] as Seg], arrows),
    },
  ];
};

export const slidingWindows: Family = () => {
  type Win = { a: number[]; k: number };
  const windowMax: IO<Win> = {
    fmt: ({ a, k }) => `${a.length} ${k}\n${a.join(' ')}`,
    solve: ({ a, k }) => a.slice(0, a.length - k + 1).map((_, i) => Math.max(...a.slice(i, i + k))).join(' '),
  };
  const noRepeat: IO<string> = {
    fmt: (s) => s,
    solve: (s) => {
      let best = 0;
      for (let i = 0; i < s.length; i++) for (let j = i; j < s.length && new Set(s.slice(i, j + 1)).size === j - i + 1; j++) best = Math.max(best, j - i + 1);
      return String(best);
    },
    explain: (s, out) => (s.length <= 10 ? `A longest good substring has length ${out}.` : undefined),
  };
  type Need = { a: number[]; s: number };
  const shortest: IO<Need> = {
    fmt: ({ a, s }) => `${a.length} ${s}\n${a.join(' ')}`,
    solve: ({ a, s }) => {
      let best = Infinity;
      for (let i = 0; i < a.length; i++) {
        let acc = 0;
        for (let j = i; j < a.length; j++) if ((acc += a[j]) >= s) { best = Math.min(best, j - i + 1); break; }
      }
      return String(best === Infinity ? -1 : best);
    },
  };
  return [
    {
      title: 'Window Maximum',
      rating: 1400,
      tags: ['data-structures', 'two-pointers'],
      legend: [
        md`You are given an array of $n$ integers and a window size $k$. The window starts at the left end of the array and moves one position to the right at each step, until it reaches the right end.`,
        md`For each position of the window, print the maximum of the $k$ numbers inside it.`,
      ],
      input: [md`The first line contains two integers $n$ and $k$. The second line contains $n$ integers $a_1, a_2, \ldots, a_n$.`],
      output: [md`Print $n - k + 1$ integers — the maximum for each position of the window, from left to right.`],
      constraints: [md`$1 \le k \le n \le 10^6$`, md`$-10^9 \le a_i \le 10^9$`],
      timeLimitMs: 2500,
      notes: [
        md`The input is large. In C++, turn off the synchronisation of the standard streams at the start of \`main\`:`,
        code(
          'cpp',
          md`
          ios::sync_with_stdio(false);
          cin.tie(nullptr);`,
        ),
      ],
      examples: samples([(r) => ({ a: r.ints(8, 1, 9), k: 3 }), (r) => ({ a: r.ints(5, -5, 5), k: 1 })], windowMax),
    },
    {
      title: 'Longest Substring Without Repeats',
      rating: 1200,
      tags: ['strings', 'two-pointers'],
      legend: [
        md`A string is *good* if all its characters are different. For example, \`code\` is good and \`level\` is not.`,
        md`You are given a string $s$. Find the length of the longest good substring of $s$. A substring is a part of consecutive characters of the string.`,
      ],
      input: [md`The only line contains the string $s$ of lowercase English letters.`],
      output: [md`Print one integer — the length of the longest good substring.`],
      constraints: [md`$1 \le |s| \le 10^6$`],
      examples: samples([(r) => r.word(10, 'abcde'), () => 'aaaa', (r) => r.word(12)], noRepeat),
    },
    {
      title: 'Short Segment With Large Sum',
      rating: 1300,
      tags: ['two-pointers', 'binary-search'],
      legend: [
        md`You are given an array of $n$ positive integers and a number $s$.`,
        md`Find the length of the shortest segment whose sum is at least $s$. If no such segment exists, print $-1$.`,
      ],
      input: [md`The first line contains two integers $n$ and $s$. The second line contains $n$ integers $a_1, a_2, \ldots, a_n$.`],
      output: [md`Print one integer — the minimum length, or $-1$.`],
      constraints: [md`$1 \le n \le 10^5$`, md`$1 \le a_i \le 10^4$`, md`$1 \le s \le 10^{9}$`],
      examples: samples([(r) => ({ a: r.ints(8, 1, 6), s: 11 }), (r) => ({ a: r.ints(3, 1, 3), s: 100 })], shortest),
    },
  ];
};

export const twoArrays: Family = () => {
  type Two = { a: number[]; b: number[] };
  const fmt = ({ a, b }: Two) => `${a.length} ${b.length}\n${a.join(' ')}\n${b.join(' ')}`;
  const sorted = (xs: number[]) => [...xs].sort((x, y) => x - y);
  const merged: IO<Two> = { fmt, solve: ({ a, b }) => sorted([...a, ...b]).join(' ') };
  const common: IO<Two> = { fmt, solve: ({ a, b }) => String(a.filter((x) => b.includes(x)).length) };
  const closest: IO<Two> = {
    fmt,
    solve: ({ a, b }) => String(Math.min(...a.flatMap((x) => b.map((y) => Math.abs(x - y))))),
    explain: ({ a, b }) => {
      let best = { d: Infinity, i: 0, j: 0 };
      a.forEach((x, i) => b.forEach((y, j) => Math.abs(x - y) < best.d && (best = { d: Math.abs(x - y), i, j })));
      return md`Take $a_{${best.i + 1}} = ${a[best.i]}$ and $b_{${best.j + 1}} = ${b[best.j]}$.`;
    },
  };
  return [
    {
      title: 'Merge Two Sorted Arrays',
      rating: 900,
      tags: ['two-pointers', 'sorting'],
      legend: [md`You are given two arrays $a$ and $b$. Both arrays are sorted in non-decreasing order. Merge them into one sorted array.`],
      input: [
        md`The first line contains two integers $n$ and $m$ — the lengths of the arrays.`,
        md`The second line contains $n$ integers $a_1 \le a_2 \le \ldots \le a_n$. The third line contains $m$ integers $b_1 \le b_2 \le \ldots \le b_m$.`,
      ],
      output: [md`Print $n + m$ integers — the merged array.`],
      constraints: [md`$1 \le n, m \le 10^5$`, md`$-10^9 \le a_i, b_i \le 10^9$`],
      examples: samples([(r) => ({ a: sorted(r.ints(4, 1, 20)), b: sorted(r.ints(5, 1, 20)) })], merged),
    },
    {
      title: 'Common Elements',
      rating: 900,
      tags: ['two-pointers', 'sorting'],
      legend: [
        md`Two friends collect stamps. Each stamp has a number. The first friend has $n$ different stamps and the second friend has $m$ different stamps. Both lists are sorted in increasing order.`,
        md`Find how many stamp numbers are in both collections.`,
      ],
      input: [
        md`The first line contains two integers $n$ and $m$.`,
        md`The second line contains $n$ integers $a_1 < a_2 < \ldots < a_n$. The third line contains $m$ integers $b_1 < b_2 < \ldots < b_m$.`,
      ],
      output: [md`Print one integer — the number of common stamps.`],
      constraints: [md`$1 \le n, m \le 10^5$`, md`$1 \le a_i, b_i \le 10^9$`],
      examples: samples([(r) => ({ a: sorted(r.distinct(5, 1, 12)), b: sorted(r.distinct(6, 1, 12)) })], common),
    },
    {
      title: 'Closest Pair of Values',
      rating: 1100,
      tags: ['two-pointers', 'sorting', 'binary-search'],
      legend: [
        md`You are given two arrays $a$ and $b$. Choose one element from each array so that the difference between them is as small as possible.`,
        md`Print the minimum value of $|a_i - b_j|$.`,
      ],
      input: [
        md`The first line contains two integers $n$ and $m$. The second line contains $n$ integers $a_i$. The third line contains $m$ integers $b_j$.`,
      ],
      output: [md`Print one integer — the minimum difference.`],
      constraints: [md`$1 \le n, m \le 2 \cdot 10^5$`, md`$0 \le a_i, b_j \le 10^9$`],
      examples: samples([(r) => ({ a: r.ints(4, 1, 60), b: r.ints(4, 1, 60) }), (r) => ({ a: [5], b: [5, 9] })], closest),
    },
  ];
};

export const inversions: Family = () => {
  const count: IO<number[]> = {
    fmt: arrayLine,
    solve: (a) => {
      let c = 0;
      for (let i = 0; i < a.length; i++) for (let j = i + 1; j < a.length; j++) if (a[i] > a[j]) c++;
      return String(c);
    },
  };
  const swaps: IO<number[]> = {
    fmt: arrayLine,
    solve: (p) => {
      const seen = new Set<number>();
      let cycles = 0;
      for (let i = 1; i <= p.length; i++) {
        if (seen.has(i)) continue;
        cycles++;
        for (let j = i; !seen.has(j); j = p[j - 1]) seen.add(j);
      }
      return String(p.length - cycles);
    },
  };
  const binary: IO<string> = {
    fmt: (s) => s,
    solve: (s) => {
      let ones = 0;
      let moves = 0;
      for (const ch of s) if (ch === '1') ones++; else moves += ones;
      return String(moves);
    },
  };
  return [
    {
      title: 'Count Inversions',
      rating: 1500,
      tags: ['data-structures', 'sorting'],
      legend: [
        md`An *inversion* in an array $a$ is a pair of positions $(i, j)$ such that $i < j$ and $a_i > a_j$.`,
        md`Count the number of inversions in the given array. The number of inversions shows how far the array is from being sorted.`,
      ],
      input: [md`The first line contains one integer $n$. The second line contains $n$ integers $a_1, a_2, \ldots, a_n$.`],
      output: [md`Print one integer — the number of inversions.`],
      constraints: [md`$1 \le n \le 5 \cdot 10^5$`, md`$1 \le a_i \le 10^9$`],
      examples: samples([(r) => r.ints(6, 1, 9), () => [1, 2, 3, 4]], count),
    },
    {
      title: 'Minimum Swaps to Sort',
      rating: 1400,
      tags: ['graphs', 'sorting', 'greedy'],
      legend: [
        md`You are given a permutation $p$ of the numbers $1, 2, \ldots, n$. In one operation you can swap any two elements.`,
        md`Find the minimum number of operations to sort the permutation in increasing order.`,
      ],
      input: [md`The first line contains one integer $n$. The second line contains the permutation $p_1, p_2, \ldots, p_n$.`],
      output: [md`Print one integer — the minimum number of swaps.`],
      constraints: [md`$1 \le n \le 2 \cdot 10^5$`],
      examples: samples([(r) => r.permutation(6), (r) => r.permutation(4)], swaps),
    },
    {
      title: 'Sort the Binary String',
      rating: 1100,
      tags: ['greedy', 'implementation'],
      legend: [
        md`Bob has a string of zeros and ones. He sorts it with the following program:`,
        code(
          'python',
          md`
          s = list(input())
          swaps = 0
          changed = True
          while changed:
              changed = False
              for i in range(len(s) - 1):
                  if s[i] == '1' and s[i + 1] == '0':
                      s[i], s[i + 1] = s[i + 1], s[i]
                      swaps += 1
                      changed = True
          print(swaps)`,
        ),
        md`The program is correct, but it is very slow for long strings. Find the number it prints without running it. You are given $t$ test cases.`,
      ],
      input: [
        md`The first line contains one integer $t$ — the number of test cases.`,
        md`Each of the next $t$ lines contains a string $s$ of characters \`0\` and \`1\`.`,
      ],
      output: [md`For each test case print one integer — the number of swaps.`],
      constraints: [md`$1 \le t \le 10^4$`, md`$1 \le |s| \le 2 \cdot 10^5$`, md`The total length of all strings does not exceed $2 \cdot 10^5$.`],
      examples: samples([many(3, (r) => r.word(r.int(3, 8), '01'))], multi(binary)),
    },
  ];
};

export const segmentUpdates: Family = () => {
  type Ops = { n: number; ops: Array<[number, number, number]> };
  const addOn: IO<Ops> = {
    fmt: ({ n, ops }) => `${n} ${ops.length}\n${ops.map((o) => o.join(' ')).join('\n')}`,
    solve: ({ n, ops }) => {
      const a = new Array(n).fill(0);
      for (const [l, r, x] of ops) for (let i = l; i <= r; i++) a[i - 1] += x;
      return a.join(' ');
    },
  };
  type Paint = { n: number; k: number; segs: Array<[number, number]> };
  const paint: IO<Paint> = {
    fmt: ({ n, k, segs }) => `${n} ${segs.length} ${k}\n${segs.map((s) => s.join(' ')).join('\n')}`,
    solve: ({ n, k, segs }) => {
      let good = 0;
      for (let i = 1; i <= n; i++) if (segs.filter(([l, r]) => l <= i && i <= r).length >= k) good++;
      return String(good);
    },
  };
  const covered: IO<Array<[number, number]>> = {
    fmt: (segs) => `${segs.length}\n${segs.map((s) => s.join(' ')).join('\n')}`,
    solve: (segs) => {
      let best = { c: 0, x: 0 };
      const points = [...new Set(segs.map(([l]) => l))].sort((a, b) => a - b);
      for (const x of points) {
        const c = segs.filter(([l, r]) => l <= x && x <= r).length;
        if (c > best.c) best = { c, x };
      }
      return `${best.c} ${best.x}`;
    },
  };
  const seg = (r: { int(lo: number, hi: number): number }, n: number): [number, number] => {
    const l = r.int(1, n);
    return [l, r.int(l, n)];
  };
  return [
    {
      title: 'Add on Segments',
      rating: 1000,
      tags: ['data-structures', 'implementation'],
      legend: [
        md`You have an array of $n$ zeros. Then $q$ operations are applied to it. The operation $(l, r, x)$ adds $x$ to every element with position from $l$ to $r$.`,
        md`Print the array after all operations.`,
      ],
      input: [
        md`The first line contains two integers $n$ and $q$.`,
        md`Each of the next $q$ lines contains three integers $l$, $r$ and $x$ that describe one operation.`,
      ],
      output: [md`Print $n$ integers — the final array.`],
      constraints: [md`$1 \le n, q \le 2 \cdot 10^5$`, md`$1 \le l \le r \le n$`, md`$-10^4 \le x \le 10^4$`],
      examples: samples([(r) => ({ n: 6, ops: Array.from({ length: 3 }, () => [...seg(r, 6), r.int(-3, 5)] as [number, number, number]) })], addOn),
    },
    {
      title: 'Painting the Fence',
      rating: 1300,
      tags: ['data-structures', 'implementation'],
      legend: [
        md`A fence has $n$ boards in a row, numbered from $1$ to $n$. There are $m$ painters. The $i$-th painter paints all boards from $l_i$ to $r_i$ with one layer of paint.`,
        md`A board is well painted if it has at least $k$ layers of paint. Count the well painted boards.`,
      ],
      input: [
        md`The first line contains three integers $n$, $m$ and $k$.`,
        md`Each of the next $m$ lines contains two integers $l_i$ and $r_i$.`,
      ],
      output: [md`Print one integer — the number of boards with at least $k$ layers.`],
      constraints: [md`$1 \le n, m \le 2 \cdot 10^5$`, md`$1 \le k \le m$`, md`$1 \le l_i \le r_i \le n$`],
      examples: samples([(r) => ({ n: 8, k: 2, segs: Array.from({ length: 4 }, () => seg(r, 8)) })], paint),
    },
    {
      title: 'Most Covered Point',
      rating: 1400,
      tags: ['sorting', 'data-structures'],
      legend: [
        md`You are given $n$ segments on a line. A segment $[l, r]$ covers every integer point $x$ with $l \le x \le r$.`,
        md`Find the maximum number of segments that cover one point. Also print the smallest point that is covered by this number of segments.`,
      ],
      input: [md`The first line contains one integer $n$. Each of the next $n$ lines contains two integers $l_i$ and $r_i$.`],
      output: [md`Print two integers — the maximum number of segments and the smallest point with this number.`],
      constraints: [md`$1 \le n \le 2 \cdot 10^5$`, md`$1 \le l_i \le r_i \le 10^9$`],
      examples: samples([(r) => Array.from({ length: 5 }, () => seg(r, 20))], covered),
    },
  ];
};
