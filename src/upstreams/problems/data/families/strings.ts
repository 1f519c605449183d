import { list, many, md, multi, samples, table, type Family, type IO } from '../kit.ts';

const isPalindrome = (s: string) => s === [...s].reverse().join('');

const substrings = (s: string) => {
  const out: string[] = [];
  for (let i = 0; i < s.length; i++) for (let j = i + 1; j <= s.length; j++) out.push(s.slice(i, j));
  return out;
};

export const brackets: Family = () => {
  const pairs: Record<string, string> = { ')': '(', ']': '[', '}': '{' };
  const balanced = (s: string) => {
    const stack: string[] = [];
    for (const ch of s) {
      if (!(ch in pairs)) stack.push(ch);
      else if (stack.pop() !== pairs[ch]) return false;
    }
    return stack.length === 0;
  };
  const check: IO<string> = { fmt: (s) => s, solve: (s) => (balanced(s) ? 'YES' : 'NO') };
  const longest: IO<string> = {
    fmt: (s) => s,
    solve: (s) => {
      let best = 0;
      let count = 1;
      for (const sub of substrings(s)) {
        if (!balanced(sub)) continue;
        if (sub.length > best) ((best = sub.length), (count = 1));
        else if (sub.length === best) count++;
      }
      return `${best} ${count}`;
    },
  };
  const insertions: IO<string> = {
    fmt: (s) => s,
    solve: (s) => {
      let open = 0;
      let added = 0;
      for (const ch of s) {
        if (ch === '(') open++;
        else if (open > 0) open--;
        else added++;
      }
      return String(added + open);
    },
    explain: (s, out) => (out === '0' ? 'The string is already balanced.' : undefined),
  };
  const balancedWord = (r: { int(lo: number, hi: number): number; pick<T>(xs: readonly T[]): T }, n: number): string => {
    if (n === 0) return '';
    const [open, close] = r.pick(['()', '[]', '{}']);
    const inner = r.int(0, n - 1);
    return open + balancedWord(r, inner) + close + balancedWord(r, n - 1 - inner);
  };
  return [
    {
      title: 'Balanced Brackets',
      rating: 800,
      tags: ['strings', 'data-structures'],
      legend: [
        md`A string of brackets \`()[]{}\` is *balanced* if it can be built by these rules:`,
        list([
          md`the empty string is balanced;`,
          md`if \`s\` is balanced, then \`(s)\`, \`[s]\` and \`{s}\` are balanced;`,
          md`if \`s\` and \`t\` are balanced, then \`st\` is balanced.`,
        ]),
        md`For example, \`([]){}\` is balanced, and \`([)]\` is not. You are given $t$ strings. Check each of them.`,
      ],
      input: [
        md`The first line contains one integer $t$ — the number of test cases.`,
        md`Each of the next $t$ lines contains one non-empty string of the characters \`(\`, \`)\`, \`[\`, \`]\`, \`{\` and \`}\`.`,
      ],
      output: [md`For each string print \`YES\` if it is balanced and \`NO\` otherwise.`],
      constraints: [md`$1 \le t \le 10^4$`, md`The total length of all strings does not exceed $10^6$.`],
      examples: samples(
        [
          (r) => [balancedWord(r, 3), r.word(6, '()[]{}'), balancedWord(r, 2) + ')', '([)]'],
        ],
        multi(check),
      ),
    },
    {
      title: 'Longest Balanced Substring',
      rating: 1700,
      tags: ['strings', 'dp', 'data-structures'],
      legend: [
        md`A string of round brackets is balanced if every opening bracket has a matching closing bracket after it. For example, \`(())()\` is balanced and \`())(\` is not.`,
        md`You are given a string $s$ of round brackets. Find the length of its longest balanced substring. Also find how many substrings have this length and are balanced.`,
      ],
      input: [md`The only line contains the string $s$. It has only the characters \`(\` and \`)\`.`],
      output: [
        md`Print two integers: the maximum length and the number of balanced substrings with this length.`,
        md`If there is no balanced substring, print \`0 1\`.`,
      ],
      constraints: [md`$1 \le |s| \le 10^6$`],
      examples: samples([(r) => r.word(12, '()'), () => '))((', () => ')()())'], longest),
    },
    {
      title: 'Fewest Bracket Insertions',
      rating: 1200,
      tags: ['greedy', 'strings'],
      legend: [
        md`You are given a string $s$ of round brackets. You can insert a bracket \`(\` or \`)\` at any place in the string.`,
        md`Find the minimum number of insertions to make the string balanced.`,
      ],
      input: [md`The only line contains the string $s$ of the characters \`(\` and \`)\`.`],
      output: [md`Print one integer — the minimum number of insertions.`],
      constraints: [md`$1 \le |s| \le 2 \cdot 10^5$`],
      examples: samples([() => '())(', (r) => r.word(9, '()'), () => '(())'], insertions),
    },
  ];
};

export const palindromes: Family = () => {
  const check: IO<string> = { fmt: (s) => s, solve: (s) => (isPalindrome(s) ? 'YES' : 'NO') };
  const longest: IO<string> = {
    fmt: (s) => `${s.length}\n${s}`,
    solve: (s) => String(Math.max(...substrings(s).filter(isPalindrome).map((x) => x.length))),
    explain: (s, out) => {
      const best = substrings(s).find((x) => x.length === Number(out) && isPalindrome(x));
      return best && best.length > 1 ? md`One longest palindrome is \`${best}\`.` : undefined;
    },
  };
  const insertions: IO<string> = {
    fmt: (s) => s,
    solve: (s) => {
      // Answer = n - LPS(s).
      const n = s.length;
      const dp = Array.from({ length: n }, () => new Array<number>(n).fill(0));
      for (let i = n - 1; i >= 0; i--) {
        dp[i][i] = 1;
        for (let j = i + 1; j < n; j++) dp[i][j] = s[i] === s[j] ? (dp[i + 1]?.[j - 1] ?? 0) + 2 : Math.max(dp[i + 1][j], dp[i][j - 1]);
      }
      return String(n - dp[0][n - 1]);
    },
  };
  const maybePalindrome = (r: { int(lo: number, hi: number): number; word(n: number, a?: string): string }) => {
    const half = r.word(r.int(1, 4), 'abc');
    return r.int(0, 1) ? half + [...half].reverse().join('') : r.word(r.int(2, 7), 'abc');
  };
  return [
    {
      title: 'Palindrome Check',
      rating: 800,
      tags: ['strings', 'implementation'],
      legend: [
        md`A *palindrome* is a string that reads the same from left to right and from right to left. For example, \`level\` and \`noon\` are palindromes, but \`code\` is not.`,
        md`You are given $t$ strings. For each string, check if it is a palindrome.`,
      ],
      input: [md`The first line contains one integer $t$. Each of the next $t$ lines contains one string of lowercase English letters.`],
      output: [md`For each string print \`YES\` if it is a palindrome, and \`NO\` otherwise.`],
      constraints: [md`$1 \le t \le 100$`, md`$1 \le |s| \le 100$`],
      examples: samples([many(4, maybePalindrome)], multi(check)),
    },
    {
      title: 'Longest Palindromic Substring',
      rating: 1600,
      tags: ['strings', 'dp'],
      legend: [
        md`You are given a string $s$ of length $n$. Find the length of the longest substring of $s$ that is a palindrome.`,
        md`A substring is a part of the string made of consecutive characters. Every single character is a palindrome, so the answer is at least $1$.`,
      ],
      input: [md`The first line contains one integer $n$. The second line contains the string $s$ of lowercase English letters.`],
      output: [md`Print one integer — the length of the longest palindromic substring.`],
      constraints: [md`$1 \le n \le 10^6$`],
      examples: samples([(r) => r.word(10, 'ab'), (r) => r.word(7, 'abc')], longest),
    },
    {
      title: 'Make a Palindrome',
      rating: 1800,
      tags: ['dp', 'strings'],
      legend: [
        md`You are given a string $s$. You can insert any characters at any positions of the string.`,
        md`Find the minimum number of insertions that make $s$ a palindrome.`,
      ],
      input: [md`The only line contains the string $s$ of lowercase English letters.`],
      output: [md`Print one integer — the minimum number of insertions.`],
      constraints: [md`$1 \le |s| \le 5000$`],
      memoryLimitMb: 512,
      examples: samples([(r) => r.word(6, 'abc'), () => 'race', () => 'abba'], insertions),
    },
  ];
};

export const commonSubsequences: Family = () => {
  type Two = [string, string];
  const lcs = (a: string, b: string) => {
    const dp = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
    for (let i = 1; i <= a.length; i++)
      for (let j = 1; j <= b.length; j++) dp[i][j] = a[i - 1] === b[j - 1] ? dp[i - 1][j - 1] + 1 : Math.max(dp[i - 1][j], dp[i][j - 1]);
    return dp[a.length][b.length];
  };
  const edit: IO<Two> = {
    fmt: ([a, b]) => `${a}\n${b}`,
    solve: ([a, b]) => {
      const dp = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
      for (let i = 1; i <= a.length; i++)
        for (let j = 1; j <= b.length; j++)
          dp[i][j] = Math.min(dp[i - 1][j] + 1, dp[i][j - 1] + 1, dp[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      return String(dp[a.length][b.length]);
    },
  };
  const common: IO<Two> = { fmt: ([a, b]) => `${a}\n${b}`, solve: ([a, b]) => String(lcs(a, b)) };
  const three: IO<[string, string, string]> = {
    fmt: (ss) => ss.join('\n'),
    solve: ([a, b, c]) => {
      const dp = Array.from({ length: a.length + 1 }, () => Array.from({ length: b.length + 1 }, () => new Array<number>(c.length + 1).fill(0)));
      for (let i = 1; i <= a.length; i++)
        for (let j = 1; j <= b.length; j++)
          for (let k = 1; k <= c.length; k++)
            dp[i][j][k] =
              a[i - 1] === b[j - 1] && b[j - 1] === c[k - 1]
                ? dp[i - 1][j - 1][k - 1] + 1
                : Math.max(dp[i - 1][j][k], dp[i][j - 1][k], dp[i][j][k - 1]);
      return String(dp[a.length][b.length][c.length]);
    },
  };
  return [
    {
      title: 'Edit Distance',
      rating: 1600,
      tags: ['dp', 'strings'],
      legend: [
        md`You are given two strings $a$ and $b$. You can change the string $a$ with these operations. Each operation costs one coin.`,
        table(
          ['Operation', 'Example'],
          [
            ['insert one character', md`\`cat\` → \`cart\``],
            ['remove one character', md`\`cart\` → \`art\``],
            ['replace one character', md`\`art\` → \`ant\``],
          ],
        ),
        md`Find the minimum number of coins to turn $a$ into $b$.`,
      ],
      input: [md`The first line contains the string $a$. The second line contains the string $b$. Both strings have only lowercase English letters.`],
      output: [md`Print one integer — the minimum number of operations.`],
      constraints: [md`$1 \le |a|, |b| \le 5000$`],
      examples: samples([() => ['love', 'movie'] as Two, (r) => [r.word(6, 'abc'), r.word(5, 'abc')] as Two], edit),
    },
    {
      title: 'Longest Common Subsequence',
      rating: 1500,
      tags: ['dp', 'strings'],
      legend: [
        md`A *subsequence* of a string is what remains after you delete some characters (maybe none) without changing the order of the rest. For example, \`ace\` is a subsequence of \`abcde\`.`,
        md`Find the length of the longest string that is a subsequence of both $a$ and $b$.`,
      ],
      input: [md`The first line contains the string $a$, the second line contains the string $b$.`],
      output: [md`Print one integer — the length of the longest common subsequence.`],
      constraints: [md`$1 \le |a|, |b| \le 3000$`],
      examples: samples([(r) => [r.word(7, 'abcd'), r.word(6, 'abcd')] as Two, () => ['abc', 'xyz'] as Two], common),
    },
    {
      title: 'Common Subsequence of Three Strings',
      rating: 1900,
      tags: ['dp', 'strings'],
      legend: [
        md`You are given three strings $a$, $b$ and $c$. Find the length of the longest string that is a subsequence of all three of them.`,
        md`The answer can be $0$ if the strings have no common characters.`,
      ],
      input: [md`Three lines contain the strings $a$, $b$ and $c$ of lowercase English letters.`],
      output: [md`Print one integer — the answer.`],
      constraints: [md`$1 \le |a|, |b|, |c| \le 200$`],
      examples: samples([(r) => [r.word(6, 'abc'), r.word(6, 'abc'), r.word(5, 'abc')] as [string, string, string]], three),
    },
  ];
};

export const patterns: Family = () => {
  type Find = [string, string];
  const occurrences = ([s, p]: Find) => [...s].filter((_, i) => s.startsWith(p, i)).length;
  const find: IO<Find> = {
    fmt: ([s, p]) => `${s}\n${p}`,
    solve: (t) => String(occurrences(t)),
    explain: ([s, p]) => {
      const at = [...s].map((_, i) => i + 1).filter((i) => s.startsWith(p, i - 1));
      return at.length > 0 && at.length <= 5 ? md`The pattern starts at positions ${at.join(', ')}.` : undefined;
    },
  };
  const period = (s: string) => {
    for (let k = 1; k <= s.length; k++) if ([...s].every((ch, i) => i + k >= s.length || ch === s[i + k])) return k;
    return s.length;
  };
  const borders = (s: string) => [...s].map((_, k) => k).filter((k) => k > 0 && s.slice(0, k) === s.slice(s.length - k));
  const repeat = (r: { word(n: number, a?: string): string; int(lo: number, hi: number): number }) => {
    const base = r.word(r.int(2, 3), 'ab');
    return base.repeat(r.int(2, 4)) + base.slice(0, r.int(0, base.length - 1));
  };
  return [
    {
      title: 'Find the Pattern',
      rating: 1200,
      tags: ['strings'],
      legend: [
        md`You are given a text $s$ and a pattern $p$. Count how many times $p$ occurs in $s$ as a substring.`,
        md`Occurrences can overlap. For example, the pattern \`aa\` occurs in \`aaaa\` three times.`,
      ],
      input: [md`The first line contains the text $s$. The second line contains the pattern $p$. Both have only lowercase English letters.`],
      output: [md`Print one integer — the number of occurrences.`],
      constraints: [md`$1 \le |p| \le |s| \le 10^6$`],
      examples: samples([(r) => [r.word(12, 'ab'), 'aba'] as Find, () => ['hello', 'world'] as Find], find),
    },
    {
      title: 'Shortest Period',
      rating: 1500,
      tags: ['strings'],
      legend: [
        md`An integer $k$ is a *period* of a string $s$ of length $n$ if $s_i = s_{i+k}$ for every $i$ from $1$ to $n - k$. The length $n$ is always a period.`,
        md`For example, \`abcab\` has the periods $3$ and $5$. Find the smallest period of the given string.`,
      ],
      input: [md`The only line contains the string $s$.`],
      output: [md`Print one integer — the smallest period of $s$.`],
      constraints: [md`$1 \le |s| \le 10^6$`],
      examples: samples([repeat, () => 'abcab', (r) => r.word(5, 'xyz')], { fmt: (s) => s, solve: (s) => String(period(s)) }),
    },
    {
      title: 'Border Lengths',
      rating: 1600,
      tags: ['strings'],
      legend: [
        md`A *border* of a string is a prefix that is also a suffix, but is not the whole string. For example, \`abacaba\` has the borders \`a\` and \`aba\`.`,
        md`Print the lengths of all borders of the given string in increasing order.`,
      ],
      input: [md`The only line contains the string $s$ of lowercase English letters.`],
      output: [md`Print the lengths of all borders in increasing order, separated by spaces. If the string has no borders, print $-1$.`],
      constraints: [md`$1 \le |s| \le 10^6$`],
      examples: samples([() => 'abacaba', repeat, () => 'abc'], {
        fmt: (s) => s,
        solve: (s) => (borders(s).length ? borders(s).join(' ') : '-1'),
      }),
    },
  ];
};

export const anagrams: Family = () => {
  const key = (s: string) => [...s].sort().join('');
  const check: IO<[string, string]> = { fmt: (p) => p.join(' '), solve: ([a, b]) => (key(a) === key(b) ? 'YES' : 'NO') };
  const groups: IO<string[]> = {
    fmt: (ws) => `${ws.length}\n${ws.join('\n')}`,
    solve: (ws) => String(new Set(ws.map(key)).size),
    explain: (ws) => {
      const byKey = new Map<string, string[]>();
      for (const w of ws) byKey.set(key(w), [...(byKey.get(key(w)) ?? []), w]);
      return `The groups are: ${[...byKey.values()].map((g) => `{${g.join(', ')}}`).join(', ')}.`;
    },
  };
  const windows: IO<[string, string]> = {
    fmt: (p) => p.join('\n'),
    solve: ([s, p]) => String([...s].filter((_, i) => i + p.length <= s.length && key(s.slice(i, i + p.length)) === key(p)).length),
  };
  const shuffled = (r: { shuffle<T>(xs: readonly T[]): T[]; word(n: number, a?: string): string; int(lo: number, hi: number): number }) => {
    const a = r.word(r.int(3, 6), 'abcde');
    return [a, r.int(0, 1) ? r.shuffle([...a]).join('') : r.word(a.length, 'abcde')] as [string, string];
  };
  return [
    {
      title: 'Anagram Check',
      rating: 800,
      tags: ['strings', 'sorting'],
      legend: [
        md`Two words are *anagrams* if one of them can be made from the other by changing the order of the letters. For example, \`listen\` and \`silent\` are anagrams.`,
        md`You are given $t$ pairs of words. For each pair, check if the words are anagrams.`,
      ],
      input: [md`The first line contains one integer $t$. Each of the next $t$ lines contains two words separated by a space.`],
      output: [md`For each pair print \`YES\` or \`NO\`.`],
      constraints: [md`$1 \le t \le 1000$`, md`Each word has from $1$ to $100$ lowercase English letters.`],
      examples: samples([many(4, shuffled)], multi(check)),
    },
    {
      title: 'Group the Anagrams',
      rating: 1000,
      tags: ['strings', 'sorting', 'data-structures'],
      legend: [
        md`You are given $n$ words. Put the words into groups so that two words are in the same group if and only if they are anagrams of each other.`,
        md`Print the number of groups.`,
      ],
      input: [md`The first line contains one integer $n$. Each of the next $n$ lines contains one word.`],
      output: [md`Print one integer — the number of groups.`],
      constraints: [md`$1 \le n \le 10^5$`, md`The total length of all words does not exceed $10^6$.`],
      examples: samples([() => ['tea', 'eat', 'ate', 'tan', 'nat', 'bat'], (r) => Array.from({ length: 5 }, () => r.word(2, 'ab'))], groups),
    },
    {
      title: 'Anagram Substrings',
      rating: 1300,
      tags: ['strings', 'two-pointers'],
      legend: [md`You are given a string $s$ and a word $p$. Count the substrings of $s$ that are anagrams of $p$. Substrings at different positions are counted separately.`],
      input: [md`The first line contains the string $s$. The second line contains the word $p$.`],
      output: [md`Print one integer — the number of such substrings.`],
      constraints: [md`$1 \le |p| \le |s| \le 2 \cdot 10^5$`, md`Both strings contain only lowercase English letters.`],
      examples: samples([(r) => [r.word(12, 'abc'), 'abc'] as [string, string], () => ['abab', 'ab'] as [string, string]], windows),
    },
  ];
};

export const distinctSubstrings: Family = () => {
  const distinct: IO<string> = { fmt: (s) => s, solve: (s) => String(new Set(substrings(s)).size) };
  const repeated: IO<string> = {
    fmt: (s) => `${s.length}\n${s}`,
    solve: (s) => {
      const seen = new Map<string, number>();
      for (const sub of substrings(s)) seen.set(sub, (seen.get(sub) ?? 0) + 1);
      return String(Math.max(0, ...[...seen].filter(([, c]) => c >= 2).map(([sub]) => sub.length)));
    },
  };
  return [
    {
      title: 'Distinct Substrings (Easy Version)',
      rating: 1900,
      tags: ['strings', 'data-structures'],
      legend: [
        md`The only difference between the easy and the hard version is the length of the string.`,
        md`You are given a string $s$. Count the number of different non-empty substrings of $s$. For example, the string \`aba\` has $5$ different substrings: \`a\`, \`b\`, \`ab\`, \`ba\` and \`aba\`.`,
      ],
      input: [md`The only line contains the string $s$ of lowercase English letters.`],
      output: [md`Print one integer — the number of different substrings.`],
      constraints: [md`$1 \le |s| \le 5000$`],
      examples: samples([() => 'aba', (r) => r.word(6, 'ab')], distinct),
    },
    {
      title: 'Longest Repeated Substring',
      rating: 2000,
      tags: ['strings', 'binary-search'],
      legend: [
        md`You are given a string $s$ of length $n$. Find the length of the longest substring that occurs in $s$ at least twice. The two occurrences may overlap.`,
        md`If every substring occurs only once, print $0$.`,
      ],
      input: [md`The first line contains one integer $n$. The second line contains the string $s$.`],
      output: [md`Print one integer — the answer.`],
      constraints: [md`$1 \le n \le 2 \cdot 10^5$`],
      examples: samples([(r) => r.word(10, 'ab'), () => 'abc', () => 'aaaa'], repeated),
    },
    {
      title: 'Distinct Substrings (Hard Version)',
      rating: 2700,
      tags: ['strings', 'data-structures'],
      legend: [
        md`The only difference between the easy and the hard version is the length of the string.`,
        md`You are given a string $s$. Count the number of different non-empty substrings of $s$. The answer can be large: for a string of length $n$ it can be close to $$\frac{n(n+1)}{2}.$$`,
      ],
      input: [md`The only line contains the string $s$ of lowercase English letters.`],
      output: [md`Print one integer — the number of different substrings.`],
      constraints: [md`$1 \le |s| \le 10^6$`],
      memoryLimitMb: 512,
      examples: samples([() => 'aba', (r) => r.word(8, 'abc')], distinct),
    },
  ];
};

export const palindromicPartitions: Family = () => {
  const distinctPal: IO<string> = { fmt: (s) => s, solve: (s) => String(new Set(substrings(s).filter(isPalindrome)).size) };
  const minCut: IO<string> = {
    fmt: (s) => s,
    solve: (s) => {
      const best = new Array<number>(s.length + 1).fill(Infinity);
      best[0] = 0;
      for (let j = 1; j <= s.length; j++) for (let i = 0; i < j; i++) if (isPalindrome(s.slice(i, j))) best[j] = Math.min(best[j], best[i] + 1);
      return String(best[s.length]);
    },
    explain: (s, out) => (s.length <= 8 ? `The string cannot be split into fewer than ${out} palindromes.` : undefined),
  };
  type Q = { s: string; qs: Array<[number, number]> };
  const queries: IO<Q> = {
    fmt: ({ s, qs }) => `${s}\n${qs.length}\n${qs.map((q) => q.join(' ')).join('\n')}`,
    solve: ({ s, qs }) => qs.map(([l, r]) => substrings(s.slice(l - 1, r)).filter(isPalindrome).length).join('\n'),
  };
  return [
    {
      title: 'Different Palindromes',
      rating: 2800,
      tags: ['strings', 'data-structures'],
      legend: [
        md`You are given a string $s$. Count the number of different non-empty substrings of $s$ that are palindromes.`,
        md`Equal substrings at different positions are counted once. A string of length $n$ has at most $n$ different palindromic substrings.`,
      ],
      input: [md`The only line contains the string $s$ of lowercase English letters.`],
      output: [md`Print one integer — the number of different palindromic substrings.`],
      constraints: [md`$1 \le |s| \le 10^6$`],
      examples: samples([() => 'abacaba', (r) => r.word(9, 'ab')], distinctPal),
    },
    {
      title: 'Fewest Palindromes',
      rating: 3100,
      tags: ['strings', 'dp'],
      legend: [
        md`You are given a string $s$. Split it into the minimum number of parts so that each part is a palindrome. Each part must be non-empty, and the parts must cover the whole string in order.`,
        md`Print the minimum number of parts. Note that a simple $O(n^2)$ solution is too slow for the given limits.`,
      ],
      input: [md`The only line contains the string $s$ of lowercase English letters.`],
      output: [md`Print one integer — the minimum number of palindromes.`],
      constraints: [md`$1 \le |s| \le 10^6$`],
      timeLimitMs: 3000,
      memoryLimitMb: 512,
      examples: samples([() => 'abaab', (r) => r.word(9, 'ab')], minCut),
    },
    {
      title: 'Palindromes in Segments',
      rating: 3400,
      tags: ['strings', 'data-structures'],
      legend: [
        md`You are given a string $s$ of length $n$ and $q$ queries. Each query is a segment $[l, r]$.`,
        md`For each query, count the pairs $(i, j)$ with $l \le i \le j \le r$ such that the substring $s_i s_{i+1} \ldots s_j$ is a palindrome.`,
      ],
      input: [
        md`The first line contains the string $s$. The second line contains one integer $q$.`,
        md`Each of the next $q$ lines contains two integers $l$ and $r$.`,
      ],
      output: [md`For each query print one integer — the number of palindromic substrings of $s_l \ldots s_r$.`],
      constraints: [md`$1 \le n, q \le 10^5$`, md`$1 \le l \le r \le n$`],
      timeLimitMs: 4000,
      memoryLimitMb: 512,
      examples: samples(
        [
          (r) => {
            const s = r.word(8, 'ab');
            return { s, qs: [[1, 8], [2, 5], [r.int(1, 4), r.int(5, 8)]] as Array<[number, number]> };
          },
        ],
        queries,
      ),
    },
  ];
};
