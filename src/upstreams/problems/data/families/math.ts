import { code, gcd, many, md, MOD, MOD_998, multi, powMod, samples, table, type Family, type IO, type Rng } from '../kit.ts';

const arrayLine = (a: readonly number[]) => `${a.length}\n${a.join(' ')}`;
const isPrime = (x: number) => {
  if (x < 2) return false;
  for (let d = 2; d * d <= x; d++) if (x % d === 0) return false;
  return true;
};
const divisors = (x: number) => {
  const out: number[] = [];
  for (let d = 1; d * d <= x; d++) if (x % d === 0) out.push(d, ...(d * d === x ? [] : [x / d]));
  return out.sort((a, b) => a - b);
};
const lines = (xs: readonly (number | string)[]) => xs.join('\n');
const queries = (xs: readonly number[]) => `${xs.length}\n${lines(xs)}`;

export const divisibility: Family = () => {
  const whole: IO<number[]> = {
    fmt: arrayLine,
    solve: (a) => String(a.reduce(gcd)),
    explain: (a, out) => (out === '1' ? undefined : md`Every number is divisible by $${out}$.`),
  };
  const removeOne: IO<number[]> = {
    fmt: arrayLine,
    solve: (a) => String(Math.max(...a.map((_, i) => a.filter((__, j) => j !== i).reduce(gcd)))),
  };
  type Q = { a: number[]; qs: Array<[number, number]> };
  const segments: IO<Q> = {
    fmt: ({ a, qs }) => `${a.length} ${qs.length}\n${a.join(' ')}\n${qs.map((q) => q.join(' ')).join('\n')}`,
    solve: ({ a, qs }) => lines(qs.map(([l, r]) => a.slice(l - 1, r).reduce(gcd))),
  };
  const multiples = (r: Rng, n: number) => {
    const g = r.pick([2, 3, 4, 6]);
    return r.ints(n, 1, 12).map((x) => x * g);
  };
  return [
    {
      title: 'Common Divisor',
      rating: 800,
      tags: ['math', 'number-theory'],
      legend: [
        md`You are given $n$ positive integers. Find the largest integer $d$ such that every given number is divisible by $d$.`,
        md`This number is called the greatest common divisor, or $\gcd(a_1, a_2, \ldots, a_n)$.`,
      ],
      input: [md`The first line contains one integer $n$. The second line contains $n$ integers $a_1, a_2, \ldots, a_n$.`],
      output: [md`Print one integer — the greatest common divisor.`],
      constraints: [md`$1 \le n \le 10^5$`, md`$1 \le a_i \le 10^{18}$`],
      examples: samples([(r) => multiples(r, 4), () => [7, 5, 3]], whole),
    },
    {
      title: 'Remove One Number',
      rating: 1400,
      tags: ['math', 'number-theory', 'data-structures'],
      legend: [
        md`You are given an array of $n$ positive integers. You must remove exactly one element from the array.`,
        md`After that, the greatest common divisor of the remaining elements should be as large as possible. Print this maximum value.`,
      ],
      input: [md`The first line contains one integer $n$. The second line contains $n$ integers $a_1, a_2, \ldots, a_n$.`],
      output: [md`Print one integer — the maximum possible greatest common divisor.`],
      constraints: [md`$2 \le n \le 2 \cdot 10^5$`, md`$1 \le a_i \le 10^9$`],
      examples: samples([(r) => [...multiples(r, 4), r.int(5, 9)], () => [12, 15, 18]], removeOne),
    },
    {
      title: 'GCD on Segments',
      rating: 1600,
      tags: ['number-theory', 'data-structures'],
      legend: [
        md`You are given an array of $n$ integers and $q$ queries. Each query is a segment $[l, r]$.`,
        md`For each query, find $\gcd(a_l, a_{l+1}, \ldots, a_r)$.`,
      ],
      input: [
        md`The first line contains two integers $n$ and $q$. The second line contains the array.`,
        md`Each of the next $q$ lines contains two integers $l$ and $r$.`,
      ],
      output: [md`For each query print one integer — the answer.`],
      constraints: [md`$1 \le n, q \le 2 \cdot 10^5$`, md`$1 \le a_i \le 10^9$`, md`$1 \le l \le r \le n$`],
      examples: samples([(r) => ({ a: multiples(r, 6), qs: [[1, 6], [2, 3], [4, 4], [r.int(1, 3), r.int(4, 6)]] as Array<[number, number]> })], segments),
    },
  ];
};

export const primes: Family = () => {
  const count: IO<number> = { fmt: String, solve: (n) => String(Array.from({ length: n }, (_, i) => i + 1).filter(isPrime).length) };
  type Q = Array<[number, number]>;
  const segments: IO<Q> = {
    fmt: (qs) => `${qs.length}\n${qs.map((q) => q.join(' ')).join('\n')}`,
    solve: (qs) => lines(qs.map(([l, r]) => Array.from({ length: r - l + 1 }, (_, i) => l + i).filter(isPrime).length)),
  };
  const factors: IO<number[]> = {
    fmt: queries,
    solve: (xs) => lines(xs.map((x) => divisors(x).filter(isPrime).join(' ') || '-1')),
  };
  return [
    {
      title: 'Prime Count',
      rating: 1000,
      tags: ['number-theory', 'math'],
      legend: [
        md`A *prime* number is an integer greater than $1$ that has no divisors except $1$ and itself. The first primes are $2, 3, 5, 7, 11$.`,
        md`Count the prime numbers that are not greater than $n$.`,
      ],
      input: [md`The only line contains one integer $n$.`],
      output: [md`Print one integer — the number of primes $p$ with $p \le n$.`],
      constraints: [md`$1 \le n \le 10^7$`],
      notes: [
        md`Checking every number up to $\sqrt{p}$ is too slow. A sieve works well. Here is the idea in Python:`,
        code(
          'python',
          md`
          is_prime = [True] * (n + 1)
          for i in range(2, n + 1):
              if is_prime[i]:
                  for j in range(i * i, n + 1, i):
                      is_prime[j] = False`,
        ),
      ],
      examples: samples([() => 10, (r) => r.int(20, 60), () => 1], count),
    },
    {
      title: 'Primes on Segments',
      rating: 1200,
      tags: ['number-theory', 'data-structures'],
      legend: [md`You are given $q$ queries. Each query is a segment $[l, r]$. For each query, count the prime numbers $p$ with $l \le p \le r$.`],
      input: [md`The first line contains one integer $q$. Each of the next $q$ lines contains two integers $l$ and $r$.`],
      output: [md`For each query print one integer — the number of primes in the segment.`],
      constraints: [md`$1 \le q \le 10^5$`, md`$1 \le l \le r \le 10^7$`],
      examples: samples([(r) => Array.from({ length: 4 }, () => [r.int(1, 20), r.int(20, 50)] as [number, number])], segments),
    },
    {
      title: 'Distinct Prime Factors',
      rating: 1300,
      tags: ['number-theory', 'math'],
      legend: [
        md`Every integer $n \ge 2$ can be written as a product of primes: $$n = p_1^{e_1} \cdot p_2^{e_2} \cdot \ldots \cdot p_k^{e_k}.$$`,
        md`For each given number, print its different prime factors $p_1 < p_2 < \ldots < p_k$. For the number $1$, print $-1$.`,
      ],
      input: [md`The first line contains one integer $q$. Each of the next $q$ lines contains one integer $n$.`],
      output: [md`For each number print its different prime factors in increasing order on one line.`],
      constraints: [md`$1 \le q \le 100$`, md`$1 \le n \le 10^{12}$`],
      examples: samples([(r) => [360, r.int(2, 100), 97, 1, r.int(1000, 5000)]], factors),
    },
  ];
};

export const modularPowers: Family = () => {
  type Pow = [number, number, number];
  const fast: IO<Pow> = {
    fmt: (t) => t.join(' '),
    solve: ([a, b, m]) => String(powMod(BigInt(a), BigInt(b), BigInt(m))),
  };
  const tower: IO<Pow> = {
    fmt: (t) => t.join(' '),
    solve: ([a, b, c]) => {
      const p = BigInt(MOD);
      if (BigInt(a) % p === 0n) return '0';
      return String(powMod(BigInt(a), powMod(BigInt(b), BigInt(c), p - 1n), p));
    },
  };
  const series: IO<Pow> = {
    fmt: (t) => t.join(' '),
    solve: ([a, n, m]) => {
      let total = 0n;
      let term = 1n % BigInt(m);
      for (let i = 0; i <= n; i++) ((total = (total + term) % BigInt(m)), (term = (term * BigInt(a)) % BigInt(m)));
      return String(total);
    },
  };
  return [
    {
      title: 'Fast Power',
      rating: 1000,
      tags: ['math', 'number-theory'],
      legend: [
        md`For each test case you are given three integers $a$, $b$ and $m$. Find $a^b \bmod m$.`,
        md`Note that $b$ can be very large, so multiplying $b$ times is too slow.`,
      ],
      input: [md`The first line contains one integer $t$. Each of the next $t$ lines contains three integers $a$, $b$ and $m$.`],
      output: [md`For each test case print one integer — the value of $a^b \bmod m$.`],
      constraints: [md`$1 \le t \le 10^5$`, md`$0 \le a, b \le 10^{18}$`, md`$1 \le m \le 10^9$`],
      examples: samples([many(3, (r) => [r.int(0, 10), r.int(0, 30), r.int(1, 1000)] as Pow)], multi(fast)),
    },
    {
      title: 'Power Tower',
      rating: 1700,
      tags: ['number-theory', 'math'],
      legend: [
        md`For each test case find the value of $$a^{\left(b^c\right)} \bmod (10^9 + 7).$$`,
        md`Remember that $10^9 + 7$ is a prime number.`,
      ],
      input: [md`The first line contains one integer $t$. Each of the next $t$ lines contains three integers $a$, $b$ and $c$.`],
      output: [md`For each test case print one integer — the answer.`],
      constraints: [md`$1 \le t \le 10^5$`, md`$0 \le a \le 10^9$`, md`$1 \le b, c \le 10^9$`],
      examples: samples([many(3, (r) => [r.int(0, 9), r.int(1, 9), r.int(1, 9)] as Pow)], multi(tower)),
    },
    {
      title: 'Geometric Series Sum',
      rating: 1800,
      tags: ['math', 'number-theory'],
      legend: [
        md`You are given three integers $a$, $n$ and $m$. Find the value of $$\left( \sum_{i=0}^{n} a^i \right) \bmod m.$$`,
        md`Note that $m$ is not always a prime number, so you cannot always divide by $a - 1$.`,
      ],
      input: [md`The only line contains three integers $a$, $n$ and $m$.`],
      output: [md`Print one integer — the answer.`],
      constraints: [md`$1 \le a \le 10^9$`, md`$0 \le n \le 10^{18}$`, md`$1 \le m \le 10^9$`],
      examples: samples([(r) => [r.int(2, 5), r.int(3, 8), r.int(10, 1000)] as Pow, () => [1, 4, 100] as Pow], series),
    },
  ];
};

function binom(n: number, k: number): bigint {
  if (k < 0 || k > n) return 0n;
  let result = 1n;
  for (let i = 1; i <= k; i++) result = (result * BigInt(n - k + i)) / BigInt(i);
  return result;
}

export const binomials: Family = () => {
  type NK = [number, number];
  const coefficients: IO<NK[]> = {
    fmt: (qs) => `${qs.length}\n${qs.map((q) => q.join(' ')).join('\n')}`,
    solve: (qs) => lines(qs.map(([n, k]) => String(binom(n, k) % BigInt(MOD)))),
  };
  const paths: IO<NK> = { fmt: (t) => t.join(' '), solve: ([n, m]) => String(binom(n + m - 2, n - 1) % BigInt(MOD)) };
  type Blocked = { h: number; w: number; blocked: NK[] };
  const blocked: IO<Blocked> = {
    fmt: ({ h, w, blocked }) => `${h} ${w} ${blocked.length}\n${blocked.map((b) => b.join(' ')).join('\n')}`,
    solve: ({ h, w, blocked }) => {
      const ways = Array.from({ length: h + 1 }, () => new Array<number>(w + 1).fill(0));
      for (let r = 1; r <= h; r++)
        for (let c = 1; c <= w; c++) {
          if (blocked.some(([br, bc]) => br === r && bc === c)) continue;
          ways[r][c] = r === 1 && c === 1 ? 1 : (ways[r - 1][c] + ways[r][c - 1]) % MOD;
        }
      return String(ways[h][w]);
    },
  };
  return [
    {
      title: 'Binomial Coefficients',
      rating: 1300,
      tags: ['combinatorics', 'math'],
      legend: [
        md`The number of ways to choose $k$ items from $n$ different items is $$\binom{n}{k} = \frac{n!}{k! \, (n-k)!}.$$`,
        md`Answer $q$ queries. Each query gives $n$ and $k$; print $\binom{n}{k}$ modulo $10^9 + 7$.`,
      ],
      input: [md`The first line contains one integer $q$. Each of the next $q$ lines contains two integers $n$ and $k$.`],
      output: [md`For each query print one integer — the answer.`],
      constraints: [md`$1 \le q \le 10^5$`, md`$0 \le k \le n \le 10^6$`],
      examples: samples([(r) => [[5, 2], [10, 0], [r.int(10, 40), r.int(1, 9)], [1000, 500]] as NK[]], coefficients),
    },
    {
      title: 'Paths in a Grid',
      rating: 1200,
      tags: ['combinatorics', 'math', 'dp'],
      legend: [
        md`A grid has $n$ rows and $m$ columns. You start in the top left cell and want to reach the bottom right cell. In one move you go one cell down or one cell right.`,
        md`Count the number of different paths modulo $10^9 + 7$.`,
      ],
      input: [md`The only line contains two integers $n$ and $m$.`],
      output: [md`Print one integer — the number of paths modulo $10^9 + 7$.`],
      constraints: [md`$1 \le n, m \le 10^6$`],
      examples: samples([() => [2, 3] as NK, (r) => [r.int(3, 9), r.int(3, 9)] as NK, () => [1000, 1000] as NK], paths),
    },
    {
      title: 'Grid Paths With Blocked Cells',
      rating: 2200,
      tags: ['combinatorics', 'dp', 'math'],
      legend: [
        md`A grid has $h$ rows and $w$ columns. You start in cell $(1, 1)$ and want to reach cell $(h, w)$, moving one cell down or one cell right at each step.`,
        md`Exactly $k$ cells of the grid are blocked, and you cannot enter them. Count the paths modulo $10^9 + 7$. The grid is very large, but $k$ is small.`,
      ],
      input: [md`The first line contains three integers $h$, $w$ and $k$. Each of the next $k$ lines contains two integers $r_i$ and $c_i$ — a blocked cell.`],
      output: [md`Print one integer — the number of paths modulo $10^9 + 7$.`],
      constraints: [md`$1 \le h, w \le 10^5$`, md`$1 \le k \le 2000$`, md`The cells $(1, 1)$ and $(h, w)$ are not blocked, and all blocked cells are different.`],
      examples: samples(
        [
          () => ({ h: 3, w: 4, blocked: [[2, 2], [2, 3]] as NK[] }),
          (r) => ({ h: 6, w: 6, blocked: [[r.int(2, 5), r.int(2, 5)], [r.int(2, 5), 1], [1, r.int(2, 5)]] as NK[] }),
        ],
        blocked,
      ),
    },
  ];
};

export const games: Family = () => {
  type Stones = [number, number];
  const stones: IO<Stones> = { fmt: (t) => t.join(' '), solve: ([n, k]) => (n % (k + 1) ? 'Alice' : 'Bob') };
  const nim: IO<number[]> = { fmt: arrayLine, solve: (a) => (a.reduce((x, y) => x ^ y) ? 'Alice' : 'Bob') };
  const divisorGame: IO<number> = {
    fmt: String,
    solve: (n) => {
      const win = [false, false];
      for (let x = 2; x <= n; x++) win[x] = divisors(x).some((d) => d < x && !win[x - d]);
      return win[n] ? 'Alice' : 'Bob';
    },
  };
  return [
    {
      title: 'Stone Game',
      rating: 1000,
      tags: ['games', 'math'],
      legend: [
        md`There are $n$ stones on a table. Alice and Bob take turns, and Alice moves first. In one move a player takes from $1$ to $k$ stones.`,
        md`The player who takes the last stone wins. Both players play optimally. Who wins?`,
      ],
      input: [md`The first line contains one integer $t$. Each of the next $t$ lines contains two integers $n$ and $k$.`],
      output: [md`For each test case print \`Alice\` or \`Bob\`.`],
      constraints: [md`$1 \le t \le 10^4$`, md`$1 \le n, k \le 10^9$`],
      examples: samples([many(4, (r) => [r.int(1, 20), r.int(1, 4)] as Stones)], multi(stones)),
    },
    {
      title: 'Nim',
      rating: 1300,
      tags: ['games', 'bitmasks', 'math'],
      legend: [
        md`There are $n$ piles of stones. The $i$-th pile has $a_i$ stones. Alice and Bob take turns, and Alice moves first.`,
        md`In one move a player chooses one non-empty pile and takes any positive number of stones from it. The player who cannot move loses. Who wins if both play optimally?`,
      ],
      input: [md`The first line contains one integer $n$. The second line contains $n$ integers $a_1, a_2, \ldots, a_n$.`],
      output: [md`Print \`Alice\` or \`Bob\`.`],
      constraints: [md`$1 \le n \le 10^5$`, md`$1 \le a_i \le 10^9$`],
      examples: samples([(r) => r.ints(3, 1, 7), () => [1, 2, 3]], nim),
    },
    {
      title: 'Divisor Game',
      rating: 1500,
      tags: ['games', 'math', 'number-theory'],
      legend: [
        md`The number $n$ is written on a board. Alice and Bob take turns, and Alice moves first.`,
        md`In one move a player chooses a divisor $d$ of the current number $x$ with $1 \le d < x$ and replaces $x$ with $x - d$. The player who cannot move loses. Who wins if both play optimally?`,
      ],
      input: [md`The only line contains one integer $n$.`],
      output: [md`Print \`Alice\` or \`Bob\`.`],
      constraints: [md`$1 \le n \le 10^{18}$`],
      examples: samples([() => 2, () => 3, (r) => r.int(10, 40)], divisorGame),
    },
  ];
};

export const divisorFunctions: Family = () => {
  const count: IO<number[]> = { fmt: queries, solve: (xs) => lines(xs.map((x) => divisors(x).length)) };
  const sigma: IO<number> = {
    fmt: String,
    solve: (n) => String(divisors(n).reduce((a, b) => a + b, 0)),
    explain: (n) => (n <= 30 ? md`The divisors of $${n}$ are ${divisors(n).join(', ')}.` : undefined),
  };
  const three: IO<number> = {
    fmt: String,
    solve: (n) => String(Array.from({ length: Math.floor(Math.sqrt(n)) }, (_, i) => i + 1).filter((p) => isPrime(p) && p * p <= n).length),
  };
  return [
    {
      title: 'Count Divisors',
      rating: 1100,
      tags: ['number-theory', 'math'],
      legend: [md`You are given $q$ integers. For each integer $x$, count the positive integers that divide $x$.`],
      input: [md`The first line contains one integer $q$. Each of the next $q$ lines contains one integer $x$.`],
      output: [md`For each $x$ print the number of its divisors.`],
      constraints: [md`$1 \le q \le 10^5$`, md`$1 \le x \le 10^6$`],
      examples: samples([(r) => [16, 17, 18, r.int(20, 200)]], count),
    },
    {
      title: 'Sum of Divisors',
      rating: 1300,
      tags: ['number-theory', 'math'],
      legend: [
        md`For a positive integer $n$, let $\sigma(n)$ be the sum of all its positive divisors: $$\sigma(n) = \sum_{d \mid n} d.$$`,
        md`Find $\sigma(n)$ for the given $n$.`,
      ],
      input: [md`The only line contains one integer $n$.`],
      output: [md`Print one integer — the value of $\sigma(n)$.`],
      constraints: [md`$1 \le n \le 10^{12}$`],
      examples: samples([() => 12, (r) => r.int(100, 1000)], sigma),
    },
    {
      title: 'Exactly Three Divisors',
      rating: 1500,
      tags: ['number-theory', 'math'],
      legend: [
        md`Some numbers have exactly three positive divisors. For example, $4$ has the divisors $1$, $2$ and $4$.`,
        md`Count the integers $x$ with $1 \le x \le n$ that have exactly three divisors.`,
      ],
      input: [md`The only line contains one integer $n$.`],
      output: [md`Print one integer — the answer.`],
      constraints: [md`$1 \le n \le 10^{12}$`],
      examples: samples([() => 10, (r) => r.int(100, 2000)], three),
    },
  ];
};

export const expectations: Family = () => {
  const dice: IO<number> = {
    fmt: String,
    solve: (n) => {
      const ways = [1];
      for (let s = 1; s <= n; s++) ways[s] = [1, 2, 3, 4, 5, 6].reduce((acc, d) => (acc + (ways[s - d] ?? 0)) % MOD, 0);
      return String(ways[n]);
    },
  };
  type Roll = [number, number];
  const maximum: IO<Roll> = {
    fmt: (t) => t.join(' '),
    solve: ([m, n]) => {
      let e = 0;
      for (let k = 1; k <= m; k++) e += k * ((k / m) ** n - ((k - 1) / m) ** n);
      return e.toFixed(6);
    },
  };
  const draws: IO<Roll> = {
    fmt: (t) => t.join(' '),
    solve: ([r, b]) => {
      const p = BigInt(MOD_998);
      return String((BigInt(r + b + 1) * powMod(BigInt(r + 1), p - 2n, p)) % p);
    },
  };
  return [
    {
      title: 'Dice Sums',
      rating: 1200,
      tags: ['dp', 'combinatorics'],
      legend: [
        md`You throw a usual die several times. Each throw gives a number from $1$ to $6$.`,
        md`Count the number of ways to get the total sum $n$. The order of throws matters: for example, $1 + 2$ and $2 + 1$ are different ways.`,
      ],
      input: [md`The only line contains one integer $n$.`],
      output: [md`Print the number of ways modulo $10^9 + 7$.`],
      constraints: [md`$1 \le n \le 10^6$`],
      examples: samples([() => 3, (r) => r.int(7, 30)], dice),
    },
    {
      title: 'Expected Maximum',
      rating: 1700,
      tags: ['probabilities', 'math'],
      legend: [
        md`A die has $m$ faces with the numbers $1, 2, \ldots, m$. Each face appears with the same probability, and the throws are independent.`,
        md`You throw the die $n$ times. Find the expected value of the maximum number you get.`,
      ],
      input: [md`The only line contains two integers $m$ and $n$.`],
      output: [md`Print one real number — the expected maximum. Your answer is correct if its absolute or relative error is at most $10^{-6}$.`],
      constraints: [md`$1 \le m, n \le 10^5$`],
      examples: samples([() => [6, 1] as Roll, () => [6, 3] as Roll, (r) => [r.int(2, 10), r.int(2, 5)] as Roll], maximum),
    },
    {
      title: 'First Red Ball',
      rating: 2000,
      tags: ['probabilities', 'combinatorics', 'math'],
      legend: [
        md`A bag has $r$ red balls and $b$ blue balls. You take balls from the bag one by one at random, without putting them back, until you take the first red ball.`,
        md`Find the expected number of balls you take. It can be shown that the answer is a fraction $\frac{p}{q}$ where $q$ is not divisible by $998244353$. Print $p \cdot q^{-1} \bmod 998244353$.`,
      ],
      input: [md`The only line contains two integers $r$ and $b$.`],
      output: [md`Print one integer — the answer modulo $998244353$.`],
      constraints: [md`$1 \le r \le 10^8$`, md`$0 \le b \le 10^8$`],
      notes: [
        md`In the first example the bag has only red balls, so you always take exactly one ball.`,
        table(['Value', 'Meaning'], [[md`$q^{-1}$`, md`the number $x$ with $q \cdot x \equiv 1 \pmod{998244353}$`]]),
      ],
      examples: samples([() => [3, 0] as Roll, () => [1, 1] as Roll, (r) => [r.int(1, 5), r.int(1, 5)] as Roll], draws),
    },
  ];
};

export const matrixPowers: Family = () => {
  const fib = (n: bigint) => {
    // Fast doubling: (F(k), F(k+1)).
    const go = (k: bigint): [bigint, bigint] => {
      if (k === 0n) return [0n, 1n];
      const [a, b] = go(k >> 1n);
      const p = BigInt(MOD);
      const c = (a * ((2n * b - a + p) % p)) % p;
      const d = (a * a + b * b) % p;
      return k & 1n ? [d, (c + d) % p] : [c, d];
    };
    return go(n)[0];
  };
  const fibonacci: IO<string> = { fmt: (n) => n, solve: (n) => String(fib(BigInt(n))) };
  const tiling: IO<string> = { fmt: (n) => n, solve: (n) => String(fib(BigInt(n) + 1n)) };
  type Walks = { adj: number[][]; k: number };
  const walks: IO<Walks> = {
    fmt: ({ adj, k }) => `${adj.length} ${k}\n${adj.map((row) => row.join(' ')).join('\n')}`,
    solve: ({ adj, k }) => {
      let ways: number[] = adj.map((_, i) => (i === 0 ? 1 : 0));
      for (let step = 0; step < k; step++) ways = adj.map((_, v) => adj.reduce((s, row, u) => (s + ways[u] * row[v]) % MOD, 0));
      return String(ways[adj.length - 1]);
    },
  };
  return [
    {
      title: 'Fibonacci Numbers',
      rating: 1700,
      tags: ['math', 'dp'],
      legend: [
        md`The Fibonacci numbers are defined as follows: $$F_0 = 0, \quad F_1 = 1, \quad F_n = F_{n-1} + F_{n-2} \text{ for } n \ge 2.$$`,
        md`Find $F_n$ modulo $10^9 + 7$. The number $n$ is very large.`,
      ],
      input: [md`The only line contains one integer $n$.`],
      output: [md`Print one integer — the value of $F_n \bmod (10^9 + 7)$.`],
      constraints: [md`$0 \le n \le 10^{18}$`],
      examples: samples([() => '10', (r) => String(r.int(20, 90)), () => '1000000000000000000'], fibonacci),
    },
    {
      title: 'Counting Walks',
      rating: 2000,
      tags: ['graphs', 'math', 'dp'],
      legend: [
        md`You are given a directed graph with $n$ vertices as a matrix: $g_{u,v} = 1$ if there is an edge from $u$ to $v$, and $0$ otherwise.`,
        md`Count the walks of exactly $k$ edges from vertex $1$ to vertex $n$. A walk can visit vertices and edges many times. Print the answer modulo $10^9 + 7$.`,
      ],
      input: [md`The first line contains two integers $n$ and $k$. Each of the next $n$ lines contains $n$ integers — the matrix $g$.`],
      output: [md`Print one integer — the number of walks modulo $10^9 + 7$.`],
      constraints: [md`$1 \le n \le 50$`, md`$1 \le k \le 10^{18}$`],
      examples: samples([(r) => ({ adj: Array.from({ length: 3 }, () => r.ints(3, 0, 1)), k: 3 }), (r) => ({ adj: Array.from({ length: 4 }, () => r.ints(4, 0, 1)), k: 5 })], walks),
    },
    {
      title: 'Tiling a Strip',
      rating: 1800,
      tags: ['dp', 'math', 'combinatorics'],
      legend: [
        md`A strip has $2$ rows and $n$ columns. You want to cover it with $1 \times 2$ dominoes. Each domino can be placed horizontally or vertically, and the dominoes cannot overlap.`,
        md`Count the number of ways to cover the strip modulo $10^9 + 7$.`,
      ],
      input: [md`The only line contains one integer $n$.`],
      output: [md`Print one integer — the number of tilings modulo $10^9 + 7$.`],
      constraints: [md`$1 \le n \le 10^{18}$`],
      examples: samples([() => '3', (r) => String(r.int(5, 40)), () => '123456789012345'], tiling),
    },
  ];
};

export const bitCounting: Family = () => {
  const single: IO<number[]> = { fmt: arrayLine, solve: (a) => String(a.reduce((x, y) => x ^ y)) };
  const ones: IO<number> = {
    fmt: String,
    solve: (n) => String(Array.from({ length: n }, (_, i) => (i + 1).toString(2).replaceAll('0', '').length).reduce((a, b) => a + b, 0)),
  };
  type Small = { a: number[]; k: number };
  const smallXor: IO<Small> = {
    fmt: ({ a, k }) => `${a.length} ${k}\n${a.join(' ')}`,
    solve: ({ a, k }) => {
      let count = 0;
      for (let i = 0; i < a.length; i++) for (let j = i + 1; j < a.length; j++) if ((a[i] ^ a[j]) <= k) count++;
      return String(count);
    },
  };
  return [
    {
      title: 'Single Number',
      rating: 800,
      tags: ['bitmasks', 'implementation'],
      legend: [
        md`You are given an array of $n$ integers, where $n$ is odd. Every value appears exactly twice, except one value that appears once.`,
        md`Find this value. Try to use only $O(1)$ extra memory.`,
      ],
      input: [md`The first line contains one integer $n$. The second line contains $n$ integers $a_1, a_2, \ldots, a_n$.`],
      output: [md`Print the value that appears once.`],
      constraints: [md`$1 \le n < 10^6$`, md`$0 \le a_i \le 10^9$`],
      examples: samples(
        [
          (r) => {
            const v = r.distinct(3, 1, 50);
            return r.shuffle([v[0], v[0], v[1], v[1], v[2]]);
          },
        ],
        single,
      ),
    },
    {
      title: 'Count the Ones',
      rating: 1500,
      tags: ['bitmasks', 'math'],
      legend: [
        md`Write all integers from $1$ to $n$ in binary. How many digits \`1\` did you write?`,
        md`For example, for $n = 3$ you write \`1\`, \`10\` and \`11\`, so the answer is $4$. This program gives the right answer, but only for small $n$:`,
        code(
          'javascript',
          md`
          let total = 0;
          for (let x = 1; x <= n; x++) {
            total += x.toString(2).split('1').length - 1;
          }
          console.log(total);`,
        ),
      ],
      input: [md`The only line contains one integer $n$.`],
      output: [md`Print one integer — the total number of ones.`],
      constraints: [md`$1 \le n \le 10^{15}$`],
      examples: samples([() => 3, (r) => r.int(10, 100)], ones),
    },
    {
      title: 'Pairs With Small XOR',
      rating: 2200,
      tags: ['bitmasks', 'data-structures'],
      legend: [
        md`You are given an array of $n$ non-negative integers and an integer $k$. Count the pairs $i < j$ such that $a_i \oplus a_j \le k$, where $\oplus$ is the bitwise exclusive or.`,
        md`In C++, Java and Python the exclusive or is written as \`a ^ b\`.`,
      ],
      input: [md`The first line contains two integers $n$ and $k$. The second line contains $n$ integers $a_1, a_2, \ldots, a_n$.`],
      output: [md`Print one integer — the number of pairs.`],
      constraints: [md`$1 \le n \le 2 \cdot 10^5$`, md`$0 \le a_i, k < 2^{30}$`],
      examples: samples([(r) => ({ a: r.ints(6, 0, 15), k: 5 }), (r) => ({ a: r.ints(5, 0, 31), k: 0 })], smallXor),
    },
  ];
};
