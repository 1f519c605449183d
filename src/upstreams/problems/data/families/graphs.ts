import { adjacency, bfs, edgeLines, grid, many, md, multi, MOD, samples, table, type Family, type IO, type Rng } from '../kit.ts';

type Edge = [number, number];
type WEdge = [number, number, number];
type Graph = { n: number; edges: Edge[] };
type WGraph = { n: number; edges: WEdge[] };

const graphText = ({ n, edges }: { n: number; edges: ReadonlyArray<ReadonlyArray<number>> }) => `${n} ${edges.length}\n${edgeLines(edges)}`;

/** `m` different undirected edges without loops. */
function randomEdges(r: Rng, n: number, m: number, directed = false): Edge[] {
  const seen = new Set<string>();
  const edges: Edge[] = [];
  while (edges.length < m) {
    const u = r.int(1, n);
    const v = r.int(1, n);
    const id = directed || u < v ? `${u}-${v}` : `${v}-${u}`;
    if (u === v || seen.has(id)) continue;
    seen.add(id);
    edges.push([u, v]);
  }
  return edges;
}

const connectedWeighted = (r: Rng, n: number, extra: number, maxW: number): WGraph => {
  const tree = r.tree(n);
  const more = randomEdges(r, n, extra).filter(([u, v]) => !tree.some(([a, b]) => (a === u && b === v) || (a === v && b === u)));
  return { n, edges: r.shuffle([...tree, ...more]).map(([u, v]) => [u, v, r.int(1, maxW)]) };
};

function components(n: number, edges: ReadonlyArray<readonly number[]>): number[] {
  const parent = Array.from({ length: n + 1 }, (_, i) => i);
  const find = (x: number): number => (parent[x] === x ? x : (parent[x] = find(parent[x])));
  for (const [u, v] of edges) parent[find(u)] = find(v);
  return parent.map((_, i) => find(i));
}
const componentCount = (n: number, edges: ReadonlyArray<readonly number[]>) => new Set(components(n, edges).slice(1)).size;

function gridBfs(rows: string[], moves: ReadonlyArray<readonly [number, number]>, wallCost: number | null): number {
  const h = rows.length;
  const w = rows[0].length;
  const find = (ch: string) => {
    const r = rows.findIndex((row) => row.includes(ch));
    return [r, rows[r].indexOf(ch)];
  };
  const [sr, sc] = find('S');
  const [er, ec] = find('E');
  const dist = rows.map((row) => [...row].map(() => Infinity));
  dist[sr][sc] = 0;
  // Plain relaxation until nothing changes: tiny grids only, so clarity beats speed here.
  for (let changed = true; changed; ) {
    changed = false;
    for (let r = 0; r < h; r++)
      for (let c = 0; c < w; c++) {
        if (dist[r][c] === Infinity) continue;
        for (const [dr, dc] of moves) {
          const nr = r + dr;
          const nc = c + dc;
          if (nr < 0 || nc < 0 || nr >= h || nc >= w) continue;
          const wall = rows[nr][nc] === '#';
          if (wall && wallCost === null) continue;
          const d = dist[r][c] + (wallCost === null ? 1 : wall ? wallCost : 0);
          if (d < dist[nr][nc]) ((dist[nr][nc] = d), (changed = true));
        }
      }
  }
  return dist[er][ec] === Infinity ? -1 : dist[er][ec];
}
const STEPS = [[1, 0], [-1, 0], [0, 1], [0, -1]] as const;
const KNIGHT = [[1, 2], [2, 1], [-1, 2], [-2, 1], [1, -2], [2, -1], [-1, -2], [-2, -1]] as const;

const randomMaze = (r: Rng, h: number, w: number, walls: number): string[] => {
  const cells = Array.from({ length: h }, () => Array.from({ length: w }, (): string => (r.next() < walls ? '#' : '.')));
  const [s, e] = r.distinct(2, 0, h * w - 1);
  cells[Math.floor(s / w)][s % w] = 'S';
  cells[Math.floor(e / w)][e % w] = 'E';
  return cells.map((row) => row.join(''));
};

export const gridPaths: Family = () => {
  const maze: IO<string[]> = { fmt: (rows) => `${rows.length} ${rows[0].length}\n${grid(rows)}`, solve: (rows) => String(gridBfs(rows, STEPS, null)) };
  const walls: IO<string[]> = { fmt: maze.fmt, solve: (rows) => String(gridBfs(rows, STEPS, 1)) };
  type Knight = { n: number; from: [number, number]; to: [number, number] };
  const knight: IO<Knight> = {
    fmt: ({ n, from, to }) => `${n} ${from.join(' ')} ${to.join(' ')}`,
    solve: ({ n, from, to }) => {
      const rows = Array.from({ length: n }, (_, r) => Array.from({ length: n }, (_, c): string => (r === from[0] - 1 && c === from[1] - 1 ? 'S' : '.')));
      if (from[0] === to[0] && from[1] === to[1]) return '0';
      rows[to[0] - 1][to[1] - 1] = 'E';
      return String(gridBfs(rows.map((row) => row.join('')), KNIGHT, null));
    },
  };
  const knightCase = (r: Rng): Knight => {
    const n = r.int(1, 8);
    return { n, from: [r.int(1, n), r.int(1, n)], to: [r.int(1, n), r.int(1, n)] };
  };
  return [
    {
      title: 'Shortest Path in a Grid',
      rating: 1300,
      tags: ['graphs', 'shortest-paths'],
      legend: [
        md`A robot is in a grid of $n$ rows and $m$ columns. Each cell is empty (\`.\`) or a wall (\`#\`). The robot starts in the cell \`S\` and wants to reach the cell \`E\`.`,
        md`In one move the robot goes to a neighbouring empty cell: up, down, left or right. It cannot leave the grid. Find the minimum number of moves, or print $-1$ if the robot cannot reach \`E\`.`,
      ],
      input: [
        md`The first line contains two integers $n$ and $m$.`,
        md`Each of the next $n$ lines contains a string of $m$ characters. There is exactly one \`S\` and exactly one \`E\`.`,
      ],
      output: [md`Print one integer — the minimum number of moves, or $-1$.`],
      constraints: [md`$1 \le n, m \le 1000$`, md`$n \cdot m \ge 2$`],
      examples: samples([(r) => randomMaze(r, 4, 6, 0.25), (r) => randomMaze(r, 3, 5, 0.3), () => ['S#.', '##.', '..E']], maze),
    },
    {
      title: 'Knight on a Board',
      rating: 1400,
      tags: ['graphs', 'shortest-paths'],
      legend: [
        md`A chess knight stands on an $n \times n$ board. In one move the knight goes two cells in one direction and one cell in a perpendicular direction. It must stay on the board.`,
        md`For each test case find the minimum number of moves to go from cell $(r_1, c_1)$ to cell $(r_2, c_2)$. If it is not possible, print $-1$.`,
      ],
      input: [
        md`The first line contains one integer $t$ — the number of test cases.`,
        md`Each test case is one line with five integers $n$, $r_1$, $c_1$, $r_2$, $c_2$.`,
      ],
      output: [md`For each test case print one integer — the answer.`],
      constraints: [md`$1 \le t \le 100$`, md`$1 \le n \le 1000$`, md`$1 \le r_1, c_1, r_2, c_2 \le n$`],
      examples: samples([many(4, knightCase)], multi(knight)),
    },
    {
      title: 'Breaking Walls',
      rating: 1700,
      tags: ['graphs', 'shortest-paths'],
      legend: [
        md`You are in a grid of $n$ rows and $m$ columns. Each cell is empty (\`.\`) or a wall (\`#\`). You start in the cell \`S\` and need to reach the cell \`E\`. You can move up, down, left or right.`,
        md`You have a hammer. You can break a wall and then walk into its cell. Moving through empty cells is free. Find the minimum number of walls you need to break.`,
      ],
      input: [md`The first line contains two integers $n$ and $m$. Each of the next $n$ lines contains a string of $m$ characters.`],
      output: [md`Print one integer — the minimum number of broken walls.`],
      constraints: [md`$1 \le n, m \le 1000$`, md`There is exactly one \`S\` and one \`E\` in the grid.`],
      timeLimitMs: 2000,
      examples: samples([(r) => randomMaze(r, 5, 6, 0.5), () => ['S#.', '###', '.#E']], walls),
    },
  ];
};

export const connectivity: Family = () => {
  const islands: IO<string[]> = {
    fmt: (rows) => `${rows.length} ${rows[0].length}\n${grid(rows)}`,
    solve: (rows) => {
      const w = rows[0].length;
      const id = (r: number, c: number) => r * w + c + 1;
      const edges: Edge[] = [];
      const land: number[] = [];
      rows.forEach((row, r) =>
        [...row].forEach((ch, c) => {
          if (ch !== '#') return;
          land.push(id(r, c));
          if (rows[r + 1]?.[c] === '#') edges.push([id(r, c), id(r + 1, c)]);
          if (row[c + 1] === '#') edges.push([id(r, c), id(r, c + 1)]);
        }),
      );
      const root = components(rows.length * w, edges);
      return String(new Set(land.map((x) => root[x])).size);
    },
  };
  const roads: IO<Graph> = { fmt: graphText, solve: ({ n, edges }) => String(componentCount(n, edges) - 1) };
  type Online = { n: number; qs: Array<['union' | 'ask', number, number]> };
  const online: IO<Online> = {
    fmt: ({ n, qs }) => `${n} ${qs.length}\n${qs.map((q) => q.join(' ')).join('\n')}`,
    solve: ({ n, qs }) => {
      const edges: Edge[] = [];
      const out: string[] = [];
      for (const [kind, u, v] of qs) {
        if (kind === 'union') edges.push([u, v]);
        else {
          const root = components(n, edges);
          out.push(root[u] === root[v] ? 'YES' : 'NO');
        }
      }
      return out.join('\n');
    },
  };
  return [
    {
      title: 'Count the Islands',
      rating: 1000,
      tags: ['graphs', 'implementation'],
      legend: [
        md`A map is a grid of $n$ rows and $m$ columns. Each cell is land (\`#\`) or water (\`.\`). Two land cells belong to the same island if you can walk from one to the other over land, moving up, down, left or right.`,
        md`Count the islands on the map.`,
      ],
      input: [md`The first line contains two integers $n$ and $m$. Each of the next $n$ lines contains a string of $m$ characters.`],
      output: [md`Print one integer — the number of islands.`],
      constraints: [md`$1 \le n, m \le 1000$`],
      examples: samples(
        [(r) => Array.from({ length: 4 }, () => r.word(7, '#..')), () => ['#.#', '.#.', '#.#']],
        islands,
      ),
    },
    {
      title: 'Roads Between Cities',
      rating: 1100,
      tags: ['graphs', 'data-structures'],
      legend: [
        md`A country has $n$ cities and $m$ two-way roads. Some cities cannot be reached from others.`,
        md`The government wants to build new roads so that you can travel from any city to any other city. Find the minimum number of new roads.`,
      ],
      input: [md`The first line contains two integers $n$ and $m$. Each of the next $m$ lines contains two integers $u$ and $v$: there is a road between cities $u$ and $v$.`],
      output: [md`Print one integer — the minimum number of new roads.`],
      constraints: [md`$1 \le n \le 10^5$`, md`$0 \le m \le 2 \cdot 10^5$`, md`$1 \le u, v \le n$, $u \ne v$`],
      examples: samples([(r) => ({ n: 7, edges: randomEdges(r, 7, 4) }), () => ({ n: 3, edges: [] })], roads),
    },
    {
      title: 'Online Connectivity',
      rating: 1400,
      tags: ['data-structures', 'graphs'],
      legend: [
        md`There are $n$ computers and no cables between them. You need to process $q$ queries of two kinds:`,
        table(
          ['Query', 'Meaning'],
          [
            [md`\`union u v\``, md`connect computers $u$ and $v$ with a cable`],
            [md`\`ask u v\``, md`check if $u$ and $v$ are connected directly or through other computers`],
          ],
        ),
      ],
      input: [md`The first line contains two integers $n$ and $q$. Each of the next $q$ lines contains one query.`],
      output: [md`For each \`ask\` query print \`YES\` or \`NO\` on a separate line.`],
      constraints: [md`$1 \le n, q \le 2 \cdot 10^5$`, md`$1 \le u, v \le n$`, md`There is at least one \`ask\` query.`],
      examples: samples(
        [
          (r) => ({
            n: 5,
            qs: [
              ...Array.from({ length: 5 }, (_, i) => [i % 2 ? 'ask' : 'union', r.int(1, 5), r.int(1, 5)] as ['union' | 'ask', number, number]),
              ['ask', 1, 5] as ['ask', number, number],
            ],
          }),
        ],
        online,
      ),
    },
  ];
};

/** Shortest distances from vertex 1 by Bellman-Ford; fine for sample sizes. */
function distances(n: number, edges: ReadonlyArray<WEdge>, directed: boolean): number[] {
  const dist = new Array<number>(n + 1).fill(Infinity);
  dist[1] = 0;
  for (let round = 0; round < n; round++)
    for (const [u, v, w] of edges) {
      dist[v] = Math.min(dist[v], dist[u] + w);
      if (!directed) dist[u] = Math.min(dist[u], dist[v] + w);
    }
  return dist;
}

export const weightedPaths: Family = () => {
  const flight: IO<WGraph> = {
    fmt: graphText,
    solve: ({ n, edges }) => {
      const d = distances(n, edges, true)[n];
      return String(d === Infinity ? -1 : d);
    },
  };
  const coupon: IO<WGraph> = {
    fmt: graphText,
    solve: ({ n, edges }) => {
      // Two layers: before and after using the coupon.
      const layered: WEdge[] = edges.flatMap(([u, v, w]) => [[u, v, w], [u + n, v + n, w], [u, v + n, Math.floor(w / 2)]] as WEdge[]);
      const d = distances(2 * n, layered, true);
      const best = Math.min(d[n], d[2 * n]);
      return String(best === Infinity ? -1 : best);
    },
  };
  const counting: IO<WGraph> = {
    fmt: graphText,
    solve: ({ n, edges }) => {
      const dist = distances(n, edges, false);
      const ways = new Array<number>(n + 1).fill(0);
      ways[1] = 1;
      const order = Array.from({ length: n }, (_, i) => i + 1).sort((a, b) => dist[a] - dist[b]);
      for (const u of order)
        for (const [a, b, w] of edges) {
          if (a === u && dist[b] === dist[u] + w) ways[b] = (ways[b] + ways[u]) % MOD;
          if (b === u && dist[a] === dist[u] + w) ways[a] = (ways[a] + ways[u]) % MOD;
        }
      return `${dist[n]} ${ways[n]}`;
    },
  };
  const directedGraph = (r: Rng, n: number, m: number): WGraph => ({ n, edges: randomEdges(r, n, m, true).map(([u, v]) => [u, v, r.int(1, 20)]) });
  return [
    {
      title: 'Cheapest Flight',
      rating: 1500,
      tags: ['graphs', 'shortest-paths'],
      legend: [
        md`There are $n$ airports and $m$ one-way flights. The $i$-th flight goes from airport $a_i$ to airport $b_i$ and costs $c_i$ coins.`,
        md`Find the minimum cost to travel from airport $1$ to airport $n$. If there is no way, print $-1$.`,
      ],
      input: [md`The first line contains two integers $n$ and $m$. Each of the next $m$ lines contains three integers $a_i$, $b_i$ and $c_i$.`],
      output: [md`Print one integer — the minimum cost, or $-1$.`],
      constraints: [md`$2 \le n \le 10^5$`, md`$1 \le m \le 2 \cdot 10^5$`, md`$1 \le c_i \le 10^9$`],
      examples: samples([(r) => directedGraph(r, 5, 9), (r) => directedGraph(r, 4, 3)], flight),
    },
    {
      title: 'Flight With a Coupon',
      rating: 1900,
      tags: ['graphs', 'shortest-paths'],
      legend: [
        md`There are $n$ cities and $m$ one-way flights. The $i$-th flight goes from city $a_i$ to city $b_i$ and costs $c_i$ coins.`,
        md`You have one coupon. You can use it for one flight, and then this flight costs $$\left\lfloor \frac{c_i}{2} \right\rfloor$$ coins. Find the minimum cost of a trip from city $1$ to city $n$.`,
      ],
      input: [md`The first line contains two integers $n$ and $m$. Each of the next $m$ lines contains three integers $a_i$, $b_i$ and $c_i$.`],
      output: [md`Print one integer — the minimum cost. If city $n$ cannot be reached, print $-1$.`],
      constraints: [md`$2 \le n \le 10^5$`, md`$1 \le m \le 2 \cdot 10^5$`, md`$1 \le c_i \le 10^9$`],
      examples: samples([(r) => directedGraph(r, 5, 10), () => ({ n: 3, edges: [[1, 2, 3], [2, 3, 1], [1, 3, 7]] as WEdge[] })], coupon),
    },
    {
      title: 'Number of Shortest Paths',
      rating: 1800,
      tags: ['graphs', 'shortest-paths', 'combinatorics'],
      legend: [
        md`You are given a connected undirected graph with $n$ vertices and $m$ weighted edges.`,
        md`Find the length of the shortest path from vertex $1$ to vertex $n$ and the number of different shortest paths. Two paths are different if they use different sequences of edges.`,
      ],
      input: [md`The first line contains two integers $n$ and $m$. Each of the next $m$ lines contains three integers $u$, $v$ and $w$ — an edge of weight $w$.`],
      output: [md`Print two integers: the length of the shortest path and the number of shortest paths modulo $10^9 + 7$.`],
      constraints: [md`$2 \le n \le 10^5$`, md`$n - 1 \le m \le 2 \cdot 10^5$`, md`$1 \le w \le 10^9$`],
      examples: samples([(r) => connectedWeighted(r, 6, 5, 3), () => ({ n: 4, edges: [[1, 2, 1], [2, 4, 1], [1, 3, 1], [3, 4, 1]] as WEdge[] })], counting),
    },
  ];
};

export const dependencyOrders: Family = () => {
  const topo = ({ n, edges }: Graph): number[] | null => {
    const indeg = new Array<number>(n + 1).fill(0);
    for (const [, v] of edges) indeg[v]++;
    const order: number[] = [];
    const ready = new Set(Array.from({ length: n }, (_, i) => i + 1).filter((v) => indeg[v] === 0));
    while (ready.size) {
      const u = Math.min(...ready);
      ready.delete(u);
      order.push(u);
      for (const [a, b] of edges) if (a === u && --indeg[b] === 0) ready.add(b);
    }
    return order.length === n ? order : null;
  };
  const cycle: IO<Graph> = { fmt: graphText, solve: (g) => (topo(g) ? 'YES' : 'NO') };
  const order: IO<Graph> = { fmt: graphText, solve: (g) => topo(g)?.join(' ') ?? 'IMPOSSIBLE' };
  const longest: IO<Graph> = {
    fmt: graphText,
    solve: (g) => {
      const best = new Array<number>(g.n + 1).fill(0);
      for (const u of topo(g) ?? []) for (const [a, b] of g.edges) if (a === u) best[b] = Math.max(best[b], best[u] + 1);
      return String(Math.max(...best));
    },
  };
  const dag = (r: Rng, n: number, m: number): Graph => {
    const rank = r.permutation(n);
    return { n, edges: randomEdges(r, n, m).map(([u, v]) => (rank[u - 1] < rank[v - 1] ? [u, v] : [v, u])) };
  };
  return [
    {
      title: 'Can Finish All Courses',
      rating: 1200,
      tags: ['graphs'],
      legend: [
        md`A student must take $n$ courses. Some courses need other courses first: a rule $(a, b)$ means that course $a$ must be finished before course $b$ starts.`,
        md`Check if the student can finish all courses.`,
      ],
      input: [md`The first line contains two integers $n$ and $m$ — the number of courses and rules. Each of the next $m$ lines contains two integers $a$ and $b$.`],
      output: [md`Print \`YES\` if it is possible to finish all courses, and \`NO\` otherwise.`],
      constraints: [md`$1 \le n \le 10^5$`, md`$0 \le m \le 2 \cdot 10^5$`, md`$a \ne b$`],
      examples: samples([(r) => dag(r, 5, 5), () => ({ n: 3, edges: [[1, 2], [2, 3], [3, 1]] as Edge[] })], cycle),
    },
    {
      title: 'Course Order',
      rating: 1500,
      tags: ['graphs', 'data-structures'],
      legend: [
        md`There are $n$ courses and $m$ rules. A rule $(a, b)$ means that course $a$ must be taken before course $b$.`,
        md`Find an order of all courses that follows all rules. If there are many such orders, print the lexicographically smallest one. If there is no such order, print \`IMPOSSIBLE\`.`,
      ],
      input: [md`The first line contains two integers $n$ and $m$. Each of the next $m$ lines contains two integers $a$ and $b$.`],
      output: [md`Print $n$ integers — the order of the courses, or the word \`IMPOSSIBLE\`.`],
      constraints: [md`$1 \le n \le 10^5$`, md`$0 \le m \le 2 \cdot 10^5$`],
      examples: samples([(r) => dag(r, 6, 6), () => ({ n: 2, edges: [[1, 2], [2, 1]] as Edge[] })], order),
    },
    {
      title: 'Longest Path in a DAG',
      rating: 1600,
      tags: ['graphs', 'dp'],
      legend: [
        md`You are given a directed graph with $n$ vertices and $m$ edges. The graph has no cycles.`,
        md`Find the number of edges in the longest path of the graph. A path can start at any vertex.`,
      ],
      input: [md`The first line contains two integers $n$ and $m$. Each of the next $m$ lines contains two integers $u$ and $v$ — an edge from $u$ to $v$.`],
      output: [md`Print one integer — the length of the longest path.`],
      constraints: [md`$2 \le n \le 10^5$`, md`$1 \le m \le 10^5$`],
      examples: samples([(r) => dag(r, 6, 7), (r) => dag(r, 4, 2)], longest),
    },
  ];
};

export const spanningTrees: Family = () => {
  const mst = (n: number, edges: ReadonlyArray<WEdge>) => {
    let total = 0;
    const used: WEdge[] = [];
    for (const e of [...edges].sort((a, b) => a[2] - b[2])) {
      const root = components(n, used);
      if (root[e[0]] !== root[e[1]]) ((total += e[2]), used.push(e));
    }
    return used.length === n - 1 ? total : null;
  };
  const cheapest: IO<WGraph> = { fmt: graphText, solve: ({ n, edges }) => String(mst(n, edges) ?? 'IMPOSSIBLE') };
  type Q = WGraph & { qs: Edge[] };
  const bottleneck: IO<Q> = {
    fmt: (g) => `${graphText(g)}\n${g.qs.length}\n${edgeLines(g.qs)}`,
    solve: ({ n, edges, qs }) =>
      qs
        .map(([u, v]) => {
          const sorted = [...edges].sort((a, b) => a[2] - b[2]);
          for (let k = 0; k <= sorted.length; k++) {
            const root = components(n, sorted.slice(0, k));
            if (root[u] === root[v]) return k === 0 ? 0 : sorted[k - 1][2];
          }
          return -1;
        })
        .join('\n'),
  };
  const countMst: IO<WGraph> = {
    fmt: graphText,
    solve: ({ n, edges }) => {
      let best = Infinity;
      let count = 0;
      const pick = (from: number, chosen: WEdge[]) => {
        if (chosen.length === n - 1) {
          if (componentCount(n, chosen) !== 1) return;
          const w = chosen.reduce((s, e) => s + e[2], 0);
          if (w < best) ((best = w), (count = 1));
          else if (w === best) count++;
          return;
        }
        for (let i = from; i < edges.length; i++) pick(i + 1, [...chosen, edges[i]]);
      };
      pick(0, []);
      return String(count % MOD);
    },
  };
  return [
    {
      title: 'Cheapest Network',
      rating: 1500,
      tags: ['graphs', 'trees', 'greedy'],
      legend: [
        md`A company wants to connect $n$ offices with cables. There are $m$ possible cables. The $i$-th cable connects offices $u_i$ and $v_i$ and costs $w_i$.`,
        md`Choose some cables so that every office is connected to every other office, directly or through other offices, and the total cost is minimum. Print the total cost. If it is not possible, print \`IMPOSSIBLE\`.`,
      ],
      input: [md`The first line contains two integers $n$ and $m$. Each of the next $m$ lines contains three integers $u_i$, $v_i$ and $w_i$.`],
      output: [md`Print the minimum total cost or \`IMPOSSIBLE\`.`],
      constraints: [md`$1 \le n \le 10^5$`, md`$0 \le m \le 2 \cdot 10^5$`, md`$1 \le w_i \le 10^9$`],
      examples: samples([(r) => connectedWeighted(r, 5, 3, 9), () => ({ n: 3, edges: [[1, 2, 4]] as WEdge[] })], cheapest),
    },
    {
      title: 'Minimum Bottleneck Path',
      rating: 2000,
      tags: ['graphs', 'trees', 'data-structures'],
      legend: [
        md`A truck driver travels on a network of $n$ cities and $m$ two-way roads. The $i$-th road has difficulty $w_i$. The difficulty of a route is the **maximum** difficulty of a road on it.`,
        md`Answer $q$ queries: for cities $u$ and $v$, find the minimum difficulty of a route from $u$ to $v$. If there is no route, print $-1$. If $u = v$, the answer is $0$.`,
      ],
      input: [
        md`The first line contains $n$ and $m$. Each of the next $m$ lines contains $u_i$, $v_i$ and $w_i$.`,
        md`The next line contains $q$. Each of the next $q$ lines contains two integers $u$ and $v$.`,
      ],
      output: [md`For each query print one integer — the answer.`],
      constraints: [md`$1 \le n, q \le 10^5$`, md`$0 \le m \le 2 \cdot 10^5$`, md`$1 \le w_i \le 10^9$`],
      examples: samples(
        [
          (r) => ({ n: 6, edges: randomEdges(r, 6, 6).map(([u, v]) => [u, v, r.int(1, 9)] as WEdge), qs: randomEdges(r, 6, 3) }),
        ],
        bottleneck,
      ),
    },
    {
      title: 'Counting Cheapest Networks',
      rating: 2400,
      tags: ['graphs', 'trees', 'math', 'combinatorics'],
      legend: [
        md`You are given a connected undirected graph with $n$ vertices and $m$ weighted edges. A *minimum spanning tree* is a set of $n - 1$ edges that connects all vertices and has the minimum total weight.`,
        md`Count the number of different minimum spanning trees. Two trees are different if they have different sets of edges. Print the answer modulo $10^9 + 7$.`,
      ],
      input: [md`The first line contains two integers $n$ and $m$. Each of the next $m$ lines contains three integers $u$, $v$ and $w$.`],
      output: [md`Print one integer — the number of minimum spanning trees modulo $10^9 + 7$.`],
      constraints: [md`$1 \le n \le 100$`, md`$n - 1 \le m \le 1000$`, md`$1 \le w \le 10^9$`, md`Each weight appears at most $10$ times.`],
      examples: samples(
        [
          () => ({ n: 4, edges: [[1, 2, 1], [2, 3, 1], [3, 4, 1], [4, 1, 1]] as WEdge[] }),
          (r) => connectedWeighted(r, 5, 3, 2),
        ],
        countMst,
      ),
    },
  ];
};

export const bipartite: Family = () => {
  const colours = ({ n, edges }: Graph): number[][] | null => {
    const adj = adjacency(n, edges);
    const colour = new Array<number>(n + 1).fill(-1);
    const parts: number[][] = [];
    for (let s = 1; s <= n; s++) {
      if (colour[s] !== -1) continue;
      const count = [0, 0];
      colour[s] = 0;
      const queue = [s];
      for (let head = 0; head < queue.length; head++) {
        const u = queue[head];
        count[colour[u]]++;
        for (const v of adj[u]) {
          if (colour[v] === -1) ((colour[v] = 1 - colour[u]), queue.push(v));
          else if (colour[v] === colour[u]) return null;
        }
      }
      parts.push(count);
    }
    return parts;
  };
  const teams: IO<Graph> = { fmt: graphText, solve: (g) => (colours(g) ? 'YES' : 'NO') };
  const largest: IO<Graph> = {
    fmt: graphText,
    solve: (g) => {
      const parts = colours(g);
      return String(parts ? parts.reduce((s, [a, b]) => s + Math.max(a, b), 0) : -1);
    },
  };
  const oddCycle: IO<Graph> = {
    fmt: graphText,
    solve: ({ n, edges }) => {
      const adj = adjacency(n, edges);
      let best = Infinity;
      for (let s = 1; s <= n; s++) {
        const d = bfs(adj, s);
        for (const [u, v] of edges) if (d[u] !== -1 && d[u] === d[v]) best = Math.min(best, 2 * d[u] + 1);
      }
      return String(best === Infinity ? -1 : best);
    },
  };
  return [
    {
      title: 'Two Teams',
      rating: 1400,
      tags: ['graphs'],
      legend: [
        md`A teacher wants to split $n$ students into two teams. Some pairs of students do not like each other, and such two students must be in different teams.`,
        md`Check if the teacher can do it. A team may be empty.`,
      ],
      input: [md`The first line contains two integers $n$ and $m$. Each of the next $m$ lines contains two integers $a$ and $b$ — two students who must be in different teams.`],
      output: [md`Print \`YES\` or \`NO\`.`],
      constraints: [md`$1 \le n \le 10^5$`, md`$0 \le m \le 2 \cdot 10^5$`],
      examples: samples([(r) => ({ n: 6, edges: randomEdges(r, 6, 5) }), () => ({ n: 3, edges: [[1, 2], [2, 3], [1, 3]] as Edge[] })], teams),
    },
    {
      title: 'Largest Team',
      rating: 1700,
      tags: ['graphs', 'greedy'],
      legend: [
        md`There are $n$ players and $m$ pairs of rivals. The players must be split into the red team and the blue team, and two rivals cannot play in the same team.`,
        md`Find the maximum possible size of the red team. If no split exists, print $-1$.`,
      ],
      input: [md`The first line contains two integers $n$ and $m$. Each of the next $m$ lines contains two rivals $a$ and $b$.`],
      output: [md`Print one integer — the answer.`],
      constraints: [md`$1 \le n \le 10^5$`, md`$0 \le m \le 2 \cdot 10^5$`],
      examples: samples([(r) => ({ n: 7, edges: r.tree(5) as Edge[] }), (r) => ({ n: 5, edges: randomEdges(r, 5, 5) })], largest),
    },
    {
      title: 'Shortest Odd Cycle',
      rating: 2300,
      tags: ['graphs', 'shortest-paths'],
      legend: [
        md`You are given an undirected graph with $n$ vertices and $m$ edges. A cycle is *odd* if it has an odd number of edges.`,
        md`Find the length of the shortest odd cycle, or print $-1$ if the graph has no odd cycles.`,
      ],
      input: [md`The first line contains two integers $n$ and $m$. Each of the next $m$ lines contains two integers $u$ and $v$.`],
      output: [md`Print one integer — the answer.`],
      constraints: [md`$1 \le n \le 3000$`, md`$0 \le m \le 3000$`, md`There are no loops and no multiple edges.`],
      examples: samples([(r) => ({ n: 7, edges: randomEdges(r, 7, 8) }), () => ({ n: 4, edges: [[1, 2], [2, 3], [3, 4], [4, 1]] as Edge[] })], oddCycle),
    },
  ];
};

export const directedReachability: Family = () => {
  const reach = ({ n, edges }: Graph) => {
    const adj = adjacency(n, edges, true);
    return Array.from({ length: n + 1 }, (_, s) => (s === 0 ? [] : bfs(adj, s)));
  };
  const strong: IO<Graph> = {
    fmt: graphText,
    solve: (g) => {
      const d = reach(g);
      return d.slice(1).every((row) => row.slice(1).every((x) => x !== -1)) ? 'YES' : 'NO';
    },
  };
  const count: IO<Graph> = {
    fmt: graphText,
    solve: (g) => {
      const d = reach(g);
      const key = (u: number) => d.slice(1).map((_, v) => (d[u][v + 1] !== -1 && d[v + 1][u] !== -1 ? 1 : 0)).join('');
      return String(new Set(Array.from({ length: g.n }, (_, i) => key(i + 1))).size);
    },
  };
  const bridges: IO<Graph> = {
    fmt: graphText,
    solve: ({ n, edges }) => {
      const base = componentCount(n, edges);
      return String(edges.filter((_, i) => componentCount(n, edges.filter((__, j) => j !== i)) > base).length);
    },
  };
  return [
    {
      title: 'One-Way Streets',
      rating: 1500,
      tags: ['graphs'],
      legend: [
        md`A town has $n$ crossroads and $m$ one-way streets. The mayor wants to know if a car can drive from any crossroad to any other crossroad.`,
        md`Print \`YES\` if this is true and \`NO\` otherwise.`,
      ],
      input: [md`The first line contains two integers $n$ and $m$. Each of the next $m$ lines contains two integers $a$ and $b$ — a street from $a$ to $b$.`],
      output: [md`Print \`YES\` or \`NO\`.`],
      constraints: [md`$1 \le n \le 10^5$`, md`$1 \le m \le 2 \cdot 10^5$`],
      examples: samples([(r) => ({ n: 4, edges: randomEdges(r, 4, 6, true) }), () => ({ n: 3, edges: [[1, 2], [2, 3], [3, 1]] as Edge[] })], strong),
    },
    {
      title: 'Count Strong Components',
      rating: 1700,
      tags: ['graphs'],
      legend: [
        md`You are given a directed graph with $n$ vertices and $m$ edges. Two vertices $u$ and $v$ are in the same *strong component* if there is a path from $u$ to $v$ and a path from $v$ to $u$.`,
        md`Count the strong components of the graph.`,
      ],
      input: [md`The first line contains two integers $n$ and $m$. Each of the next $m$ lines contains two integers $u$ and $v$ — an edge from $u$ to $v$.`],
      output: [md`Print one integer — the number of strong components.`],
      constraints: [md`$1 \le n \le 10^5$`, md`$0 \le m \le 2 \cdot 10^5$`],
      examples: samples([(r) => ({ n: 6, edges: randomEdges(r, 6, 7, true) }), (r) => ({ n: 5, edges: randomEdges(r, 5, 4, true) })], count),
    },
    {
      title: 'Bridges in a Graph',
      rating: 1900,
      tags: ['graphs', 'trees'],
      legend: [
        md`You are given an undirected graph. An edge is a *bridge* if removing it increases the number of connected components.`,
        md`Count the bridges of the graph.`,
      ],
      input: [md`The first line contains two integers $n$ and $m$. Each of the next $m$ lines contains two integers $u$ and $v$. There are no loops and no multiple edges.`],
      output: [md`Print one integer — the number of bridges.`],
      constraints: [md`$1 \le n \le 10^5$`, md`$0 \le m \le 2 \cdot 10^5$`],
      examples: samples([(r) => ({ n: 7, edges: randomEdges(r, 7, 7) }), (r) => ({ n: 5, edges: r.tree(5) as Edge[] })], bridges),
    },
  ];
};

export const flows: Family = () => {
  type Match = { n: number; m: number; pairs: Edge[] };
  const matching: IO<Match> = {
    fmt: ({ n, m, pairs }) => `${n} ${m} ${pairs.length}\n${edgeLines(pairs)}`,
    solve: ({ n, m, pairs }) => {
      const owner = new Array<number>(m + 1).fill(0);
      const tryWorker = (u: number, seen: Set<number>): boolean => {
        for (const [a, b] of pairs) {
          if (a !== u || seen.has(b)) continue;
          seen.add(b);
          if (owner[b] === 0 || tryWorker(owner[b], seen)) return (owner[b] = u), true;
        }
        return false;
      };
      let result = 0;
      for (let u = 1; u <= n; u++) if (tryWorker(u, new Set())) result++;
      return String(result);
    },
  };
  const maxFlow: IO<WGraph> = {
    fmt: graphText,
    solve: ({ n, edges }) => {
      const cap = Array.from({ length: n + 1 }, () => new Array<number>(n + 1).fill(0));
      for (const [u, v, c] of edges) cap[u][v] += c;
      let flow = 0;
      for (;;) {
        const prev = new Array<number>(n + 1).fill(0);
        prev[1] = -1;
        const queue = [1];
        for (let head = 0; head < queue.length && prev[n] === 0; head++)
          for (let v = 1; v <= n; v++) if (prev[v] === 0 && cap[queue[head]][v] > 0) ((prev[v] = queue[head]), queue.push(v));
        if (prev[n] === 0) return String(flow);
        let push = Infinity;
        for (let v = n; v !== 1; v = prev[v]) push = Math.min(push, cap[prev[v]][v]);
        for (let v = n; v !== 1; v = prev[v]) ((cap[prev[v]][v] -= push), (cap[v][prev[v]] += push));
        flow += push;
      }
    },
  };
  const assignment: IO<number[][]> = {
    fmt: (c) => `${c.length}\n${c.map((row) => row.join(' ')).join('\n')}`,
    solve: (c) => {
      let best = Infinity;
      const go = (i: number, used: Set<number>, acc: number) => {
        if (i === c.length) return void (best = Math.min(best, acc));
        for (let j = 0; j < c.length; j++) if (!used.has(j)) go(i + 1, new Set([...used, j]), acc + c[i][j]);
      };
      go(0, new Set(), 0);
      return String(best);
    },
  };
  return [
    {
      title: 'Job Assignment',
      rating: 2100,
      tags: ['graphs', 'greedy'],
      legend: [
        md`A company has $n$ workers and $m$ jobs. Each worker can do only some of the jobs. Each worker can take at most one job, and each job can be given to at most one worker.`,
        md`Find the maximum number of jobs that can be done.`,
      ],
      input: [
        md`The first line contains three integers $n$, $m$ and $k$. Each of the next $k$ lines contains two integers $a$ and $b$: worker $a$ can do job $b$.`,
      ],
      output: [md`Print one integer — the maximum number of pairs worker–job.`],
      constraints: [md`$1 \le n, m \le 500$`, md`$1 \le k \le 1000$`],
      examples: samples(
        [(r) => ({ n: 4, m: 4, pairs: randomEdges(r, 4, 6, true) }), () => ({ n: 3, m: 2, pairs: [[1, 1], [2, 1], [3, 1]] as Edge[] })],
        matching,
      ),
    },
    {
      title: 'Maximum Water Flow',
      rating: 2300,
      tags: ['graphs'],
      legend: [
        md`A city has $n$ stations and $m$ one-way pipes. The $i$-th pipe goes from station $a_i$ to station $b_i$ and can carry at most $c_i$ liters of water per second.`,
        md`Water enters the system at station $1$ and leaves at station $n$. Find the maximum amount of water per second that can go from station $1$ to station $n$.`,
      ],
      input: [md`The first line contains two integers $n$ and $m$. Each of the next $m$ lines contains three integers $a_i$, $b_i$ and $c_i$.`],
      output: [md`Print one integer — the maximum flow.`],
      constraints: [md`$2 \le n \le 500$`, md`$1 \le m \le 1000$`, md`$1 \le c_i \le 10^9$`],
      examples: samples([(r) => ({ n: 5, edges: randomEdges(r, 5, 8, true).map(([u, v]) => [u, v, r.int(1, 9)] as WEdge) })], maxFlow),
    },
    {
      title: 'Minimum Cost Assignment',
      rating: 2400,
      tags: ['graphs', 'dp'],
      legend: [
        md`There are $n$ workers and $n$ tasks. Worker $i$ needs $c_{i,j}$ hours to do task $j$. Each worker must do exactly one task, and each task must be done by exactly one worker.`,
        md`In other words, find a permutation $p$ of $1, 2, \ldots, n$ with the minimum value of $$\sum_{i=1}^{n} c_{i, p_i}.$$`,
      ],
      input: [md`The first line contains one integer $n$. Each of the next $n$ lines contains $n$ integers — the matrix $c$.`],
      output: [md`Print one integer — the minimum total time.`],
      constraints: [md`$1 \le n \le 300$`, md`$0 \le c_{i,j} \le 10^6$`],
      timeLimitMs: 2000,
      examples: samples([(r) => Array.from({ length: 3 }, () => r.ints(3, 1, 9)), (r) => Array.from({ length: 4 }, () => r.ints(4, 1, 20))], assignment),
    },
  ];
};
