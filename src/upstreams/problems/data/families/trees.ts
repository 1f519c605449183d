import { adjacency, bfs, edgeLines, md, MOD, MOD_998, powMod, samples, type Family, type IO, type Rng } from '../kit.ts';

type Edge = [number, number];
type WEdge = [number, number, number];
type Tree = { n: number; edges: Edge[] };
type WTree = { n: number; edges: WEdge[] };

const treeText = ({ n, edges }: { n: number; edges: ReadonlyArray<ReadonlyArray<number>> }) => (edges.length ? `${n}\n${edgeLines(edges)}` : String(n));
const randomTree = (r: Rng, n: number): Tree => ({ n, edges: r.tree(n) });
const weighted = (r: Rng, n: number, maxW: number): WTree => ({ n, edges: r.tree(n).map(([u, v]) => [u, v, r.int(1, maxW)]) });

/** Distances from `s` in a weighted tree. */
function treeDist(n: number, edges: ReadonlyArray<WEdge>, s: number): number[] {
  const dist = new Array<number>(n + 1).fill(-1);
  dist[s] = 0;
  const stack = [s];
  while (stack.length) {
    const u = stack.pop()!;
    for (const [a, b, w] of edges) {
      const v = a === u ? b : b === u ? a : 0;
      if (v && dist[v] === -1) ((dist[v] = dist[u] + w), stack.push(v));
    }
  }
  return dist;
}
const unit = (edges: ReadonlyArray<Edge>): WEdge[] => edges.map(([u, v]) => [u, v, 1]);

/** Parent of each vertex when the tree hangs from vertex 1 (parent[1] = 0). */
function parents(n: number, edges: ReadonlyArray<Edge>): number[] {
  const adj = adjacency(n, edges);
  const parent = new Array<number>(n + 1).fill(-1);
  parent[1] = 0;
  const stack = [1];
  while (stack.length) {
    const u = stack.pop()!;
    for (const v of adj[u]) if (parent[v] === -1) ((parent[v] = u), stack.push(v));
  }
  return parent;
}

export const treeDiameters: Family = () => {
  const ecc = (t: WTree) => Array.from({ length: t.n }, (_, i) => Math.max(...treeDist(t.n, t.edges, i + 1).slice(1)));
  const diameter: IO<Tree> = { fmt: treeText, solve: (t) => String(Math.max(...ecc({ n: t.n, edges: unit(t.edges) }))) };
  const farthest: IO<Tree> = { fmt: treeText, solve: (t) => ecc({ n: t.n, edges: unit(t.edges) }).join(' ') };
  const weightedDiameter: IO<WTree> = { fmt: treeText, solve: (t) => String(Math.max(...ecc(t))) };
  return [
    {
      title: 'Tree Diameter',
      rating: 1400,
      tags: ['trees', 'graphs'],
      legend: [
        md`You are given a tree with $n$ vertices. A tree is a connected graph without cycles. The *diameter* of a tree is the number of edges on the longest simple path between two vertices.`,
        md`Find the diameter of the tree.`,
      ],
      input: [md`The first line contains one integer $n$. Each of the next $n - 1$ lines contains two integers $u$ and $v$ — an edge of the tree.`],
      output: [md`Print one integer — the diameter.`],
      constraints: [md`$1 \le n \le 2 \cdot 10^5$`],
      examples: samples([(r) => randomTree(r, 7), () => ({ n: 1, edges: [] })], diameter),
    },
    {
      title: 'Farthest Vertex',
      rating: 1800,
      tags: ['trees', 'dp'],
      legend: [
        md`You are given a tree with $n$ vertices. For each vertex $v$, find the distance from $v$ to the vertex that is farthest from it.`,
        md`The distance between two vertices is the number of edges on the path between them.`,
      ],
      input: [md`The first line contains one integer $n$. Each of the next $n - 1$ lines contains two integers $u$ and $v$.`],
      output: [md`Print $n$ integers: the answer for vertices $1, 2, \ldots, n$.`],
      constraints: [md`$1 \le n \le 2 \cdot 10^5$`],
      examples: samples([(r) => randomTree(r, 6), (r) => randomTree(r, 4)], farthest),
    },
    {
      title: 'Weighted Tree Diameter',
      rating: 1500,
      tags: ['trees', 'graphs'],
      legend: [
        md`A country has $n$ villages connected by $n - 1$ roads, and every village can be reached from every other village. The $i$-th road has length $w_i$.`,
        md`Find the largest distance between two villages.`,
      ],
      input: [md`The first line contains one integer $n$. Each of the next $n - 1$ lines contains three integers $u$, $v$ and $w$ — a road of length $w$.`],
      output: [md`Print one integer — the largest distance.`],
      constraints: [md`$2 \le n \le 2 \cdot 10^5$`, md`$1 \le w \le 10^9$`],
      examples: samples([(r) => weighted(r, 6, 10)], weightedDiameter),
    },
  ];
};

export const treeQueries: Family = () => {
  type Valued = Tree & { a: number[] };
  const subtree: IO<Valued> = {
    fmt: (t) => `${t.n}\n${t.a.join(' ')}${t.edges.length ? `\n${edgeLines(t.edges)}` : ''}`,
    solve: ({ n, edges, a }) => {
      const parent = parents(n, edges);
      const total = [0, ...a];
      const order = bfs(adjacency(n, edges), 1)
        .map((d, v) => [d, v])
        .slice(1)
        .sort((x, y) => y[0] - x[0]);
      for (const [, v] of order) if (parent[v] > 0) total[parent[v]] += total[v];
      return total.slice(1).join(' ');
    },
  };
  type Q = Tree & { qs: Edge[] };
  const distance: IO<Q> = {
    fmt: (t) => `${treeText(t)}\n${t.qs.length}\n${edgeLines(t.qs)}`,
    solve: ({ n, edges, qs }) => qs.map(([u, v]) => treeDist(n, unit(edges), u)[v]).join('\n'),
  };
  type Anc = { parent: number[]; qs: Edge[] };
  const ancestor: IO<Anc> = {
    fmt: ({ parent, qs }) => `${parent.length + 1} ${qs.length}\n${parent.join(' ')}\n${edgeLines(qs)}`,
    solve: ({ parent, qs }) =>
      qs
        .map(([v, k]) => {
          let x = v;
          for (let i = 0; i < k && x !== -1; i++) x = x === 1 ? -1 : parent[x - 2];
          return x;
        })
        .join('\n'),
  };
  return [
    {
      title: 'Subtree Sums',
      rating: 1200,
      tags: ['trees', 'dp'],
      legend: [
        md`You are given a tree with $n$ vertices. The root of the tree is vertex $1$. Each vertex $v$ has a value $a_v$.`,
        md`The subtree of $v$ contains $v$ and all vertices below it. For each vertex, find the sum of the values in its subtree.`,
      ],
      input: [
        md`The first line contains one integer $n$. The second line contains $n$ integers $a_1, a_2, \ldots, a_n$.`,
        md`Each of the next $n - 1$ lines contains two integers $u$ and $v$ — an edge of the tree.`,
      ],
      output: [md`Print $n$ integers — the subtree sums for vertices $1, 2, \ldots, n$.`],
      constraints: [md`$1 \le n \le 2 \cdot 10^5$`, md`$-10^9 \le a_v \le 10^9$`],
      examples: samples([(r) => ({ ...randomTree(r, 6), a: r.ints(6, 1, 9) })], subtree),
    },
    {
      title: 'Distance in a Tree',
      rating: 1700,
      tags: ['trees', 'data-structures'],
      legend: [
        md`You are given a tree with $n$ vertices and $q$ queries. Each query is a pair of vertices $u$ and $v$.`,
        md`For each query, print the number of edges on the path between $u$ and $v$.`,
      ],
      input: [
        md`The first line contains one integer $n$. Each of the next $n - 1$ lines contains an edge of the tree.`,
        md`The next line contains one integer $q$. Each of the next $q$ lines contains two integers $u$ and $v$.`,
      ],
      output: [md`For each query print one integer — the distance.`],
      constraints: [md`$1 \le n, q \le 2 \cdot 10^5$`],
      examples: samples([(r) => ({ ...randomTree(r, 7), qs: [[1, 7], [r.int(1, 7), r.int(1, 7)], [3, 3]] as Edge[] })], distance),
    },
    {
      title: 'K-th Ancestor',
      rating: 1600,
      tags: ['trees', 'data-structures', 'binary-search'],
      legend: [
        md`A company has $n$ employees. Employee $1$ is the director. Every other employee $i$ has a boss $p_i$. The boss of the boss is the 2nd boss, and so on.`,
        md`Answer $q$ queries: who is the $k$-th boss of employee $v$? If there is no such person, print $-1$.`,
      ],
      input: [
        md`The first line contains two integers $n$ and $q$. The second line contains $n - 1$ integers $p_2, p_3, \ldots, p_n$.`,
        md`Each of the next $q$ lines contains two integers $v$ and $k$.`,
      ],
      output: [md`For each query print one integer — the answer.`],
      constraints: [md`$2 \le n, q \le 2 \cdot 10^5$`, md`$1 \le p_i < i$`, md`$1 \le k \le n$`],
      examples: samples(
        [(r) => ({ parent: Array.from({ length: 6 }, (_, i) => r.int(1, i + 1)), qs: [[7, 1], [7, 2], [r.int(2, 7), r.int(1, 3)], [4, 7]] as Edge[] })],
        ancestor,
      ),
    },
  ];
};

export const treeCounting: Family = () => {
  type Coloring = Tree & { k: number };
  const colorings: IO<Coloring> = {
    fmt: (t) => `${t.n} ${t.k}${t.edges.length ? `\n${edgeLines(t.edges)}` : ''}`,
    solve: ({ n, k }) => String((BigInt(k) * powMod(BigInt(k - 1), BigInt(n - 1), BigInt(MOD))) % BigInt(MOD)),
  };
  const allDistances: IO<Tree> = {
    fmt: treeText,
    solve: ({ n, edges }) => {
      let total = 0;
      for (let u = 1; u <= n; u++) total += treeDist(n, unit(edges), u).slice(u + 1).reduce((s, d) => s + d, 0);
      return String(total);
    },
  };
  type Graph = { n: number; edges: Edge[] };
  const spanning: IO<Graph> = {
    fmt: (g) => `${g.n} ${g.edges.length}\n${edgeLines(g.edges)}`,
    solve: ({ n, edges }) => {
      let count = 0;
      const pick = (from: number, chosen: Edge[]) => {
        if (chosen.length === n - 1) {
          const seen = bfs(adjacency(n, chosen), 1);
          if (seen.slice(1).every((d) => d !== -1)) count++;
          return;
        }
        for (let i = from; i < edges.length; i++) pick(i + 1, [...chosen, edges[i]]);
      };
      pick(0, []);
      return String(count % MOD_998);
    },
  };
  return [
    {
      title: 'Tree Colorings',
      rating: 1300,
      tags: ['trees', 'combinatorics', 'math'],
      legend: [
        md`You are given a tree with $n$ vertices and $k$ colors. Each vertex must get one color, and the two ends of every edge must have different colors.`,
        md`Count the number of ways to color the tree. Print the answer modulo $10^9 + 7$.`,
      ],
      input: [md`The first line contains two integers $n$ and $k$. Each of the next $n - 1$ lines contains an edge of the tree.`],
      output: [md`Print one integer — the number of colorings modulo $10^9 + 7$.`],
      constraints: [md`$1 \le n \le 10^5$`, md`$1 \le k \le 10^9$`],
      examples: samples([(r) => ({ ...randomTree(r, 3), k: 3 }), (r) => ({ ...randomTree(r, 5), k: 2 })], colorings),
    },
    {
      title: 'Sum of All Distances',
      rating: 1900,
      tags: ['trees', 'dp', 'combinatorics'],
      legend: [
        md`You are given a tree with $n$ vertices. Let $d(u, v)$ be the number of edges on the path between $u$ and $v$. Find $$\sum_{1 \le u < v \le n} d(u, v).$$`,
      ],
      input: [md`The first line contains one integer $n$. Each of the next $n - 1$ lines contains two integers $u$ and $v$.`],
      output: [md`Print one integer — the sum. It fits into a signed 64-bit integer.`],
      constraints: [md`$1 \le n \le 2 \cdot 10^5$`],
      examples: samples([(r) => randomTree(r, 5), (r) => randomTree(r, 8)], allDistances),
    },
    {
      title: 'Counting Spanning Trees',
      rating: 2600,
      tags: ['graphs', 'math', 'trees'],
      legend: [
        md`You are given a connected undirected graph with $n$ vertices and $m$ edges. A *spanning tree* is a set of $n - 1$ edges that connects all vertices.`,
        md`Count the spanning trees of the graph modulo $998244353$. The graph can have multiple edges between the same pair of vertices; such edges are different.`,
      ],
      input: [md`The first line contains two integers $n$ and $m$. Each of the next $m$ lines contains two integers $u$ and $v$ ($u \ne v$).`],
      output: [md`Print one integer — the number of spanning trees modulo $998244353$.`],
      constraints: [md`$1 \le n \le 500$`, md`$n - 1 \le m \le 10^5$`],
      timeLimitMs: 2000,
      examples: samples(
        [() => ({ n: 4, edges: [[1, 2], [2, 3], [3, 4], [4, 1], [1, 3]] as Edge[] }), () => ({ n: 3, edges: [[1, 2], [1, 2], [2, 3]] as Edge[] })],
        spanning,
      ),
    },
  ];
};

export const treePaths: Family = () => {
  type Q = WTree & { qs: Edge[] };
  const pathMax: IO<Q> = {
    fmt: (t) => `${treeText(t)}\n${t.qs.length}\n${edgeLines(t.qs)}`,
    solve: ({ n, edges, qs }) =>
      qs
        .map(([u, v]) => {
          // The path is the set of edges whose removal separates u from v.
          const onPath = edges.filter((e) => treeDist(n, edges.filter((x) => x !== e), u)[v] === -1);
          return onPath.length ? Math.max(...onPath.map((e) => e[2])) : 0;
        })
        .join('\n'),
  };
  type K = Tree & { k: number };
  const atDistance: IO<K> = {
    fmt: (t) => `${t.n} ${t.k}\n${edgeLines(t.edges)}`,
    solve: ({ n, edges, k }) => {
      let count = 0;
      for (let u = 1; u <= n; u++) count += treeDist(n, unit(edges), u).slice(u + 1).filter((d) => d === k).length;
      return String(count);
    },
  };
  const shapes: IO<Tree> = {
    fmt: treeText,
    solve: ({ n, edges }) => {
      const parent = parents(n, edges);
      const shape = (v: number): string =>
        `(${Array.from({ length: n }, (_, i) => i + 1)
          .filter((c) => parent[c] === v)
          .map(shape)
          .sort()
          .join('')})`;
      return String(new Set(Array.from({ length: n }, (_, i) => shape(i + 1))).size);
    },
  };
  return [
    {
      title: 'Path Maximum Queries',
      rating: 2200,
      tags: ['trees', 'data-structures'],
      legend: [
        md`You are given a tree with $n$ vertices. Each edge has a weight. Answer $q$ queries: find the maximum weight of an edge on the path between $u$ and $v$.`,
        md`If $u = v$, the path has no edges and the answer is $0$.`,
      ],
      input: [
        md`The first line contains $n$. Each of the next $n - 1$ lines contains three integers $u$, $v$ and $w$.`,
        md`The next line contains $q$. Each of the next $q$ lines contains two integers $u$ and $v$.`,
      ],
      output: [md`For each query print one integer — the answer.`],
      constraints: [md`$2 \le n \le 2 \cdot 10^5$`, md`$1 \le q \le 2 \cdot 10^5$`, md`$1 \le w \le 10^9$`],
      examples: samples([(r) => ({ ...weighted(r, 6, 20), qs: [[1, 6], [r.int(1, 6), r.int(1, 6)], [2, 2]] as Edge[] })], pathMax),
    },
    {
      title: 'Pairs at Distance K',
      rating: 2500,
      tags: ['trees', 'data-structures'],
      legend: [
        md`You are given a tree with $n$ vertices and a number $k$. Count the unordered pairs of different vertices $\{u, v\}$ such that the path between $u$ and $v$ has exactly $k$ edges.`,
        md`The limits are large, so a solution that runs a search from every vertex is too slow.`,
      ],
      input: [md`The first line contains two integers $n$ and $k$. Each of the next $n - 1$ lines contains an edge of the tree.`],
      output: [md`Print one integer — the number of pairs.`],
      constraints: [md`$2 \le n \le 2 \cdot 10^5$`, md`$1 \le k \le n$`],
      timeLimitMs: 3000,
      examples: samples([(r) => ({ ...randomTree(r, 7), k: 2 }), (r) => ({ ...randomTree(r, 6), k: 3 })], atDistance),
    },
    {
      title: 'Tree Shapes',
      rating: 2400,
      tags: ['trees', 'strings', 'data-structures'],
      legend: [
        md`You are given a tree with $n$ vertices, rooted at vertex $1$. The subtrees of two vertices have the same *shape* if one can be turned into the other by changing the order of children in some vertices.`,
        md`Count the number of different shapes among the $n$ subtrees.`,
      ],
      input: [md`The first line contains one integer $n$. Each of the next $n - 1$ lines contains an edge of the tree.`],
      output: [md`Print one integer — the number of different shapes.`],
      constraints: [md`$1 \le n \le 10^5$`],
      examples: samples([(r) => randomTree(r, 8), () => ({ n: 4, edges: [[1, 2], [1, 3], [1, 4]] as Edge[] })], shapes),
    },
  ];
};
