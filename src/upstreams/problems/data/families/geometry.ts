import { gcd, many, md, multi, samples, type Family, type IO, type Rng } from '../kit.ts';

type P = [number, number];
const cross = (o: P, a: P, b: P) => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
const pointsText = (ps: readonly P[]) => `${ps.length}\n${ps.map((p) => p.join(' ')).join('\n')}`;
const randomPoints = (r: Rng, n: number, max: number): P[] => {
  const seen = new Set<string>();
  const out: P[] = [];
  while (out.length < n) {
    const p: P = [r.int(0, max), r.int(0, max)];
    if (!seen.has(p.join())) (seen.add(p.join()), out.push(p));
  }
  return out;
};
const onSegment = (p: P, a: P, b: P) =>
  cross(a, b, p) === 0 && Math.min(a[0], b[0]) <= p[0] && p[0] <= Math.max(a[0], b[0]) && Math.min(a[1], b[1]) <= p[1] && p[1] <= Math.max(a[1], b[1]);

export const polygons: Family = () => {
  const triangle: IO<[P, P, P]> = { fmt: (t) => t.map((p) => p.join(' ')).join(' '), solve: ([a, b, c]) => String(Math.abs(cross(a, b, c))) };
  type Poly = { poly: P[]; qs: P[] };
  const inside: IO<Poly> = {
    fmt: ({ poly, qs }) => `${poly.length} ${qs.length}\n${poly.map((p) => p.join(' ')).join('\n')}\n${qs.map((p) => p.join(' ')).join('\n')}`,
    solve: ({ poly, qs }) =>
      qs
        .map((q) => {
          let crossings = 0;
          for (let i = 0; i < poly.length; i++) {
            const a = poly[i];
            const b = poly[(i + 1) % poly.length];
            if (onSegment(q, a, b)) return 'BOUNDARY';
            // Half-open rule on y so vertices are not counted twice.
            if (a[1] > q[1] !== b[1] > q[1]) {
              const x = a[0] + ((q[1] - a[1]) * (b[0] - a[0])) / (b[1] - a[1]);
              if (x > q[0]) crossings++;
            }
          }
          return crossings % 2 ? 'INSIDE' : 'OUTSIDE';
        })
        .join('\n'),
  };
  const hull: IO<P[]> = {
    fmt: pointsText,
    solve: (ps) => {
      const sorted = [...ps].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
      if (sorted.length < 3) return String(sorted.length);
      const half = (pts: P[]) => {
        const h: P[] = [];
        for (const p of pts) {
          while (h.length >= 2 && cross(h[h.length - 2], h[h.length - 1], p) <= 0) h.pop();
          h.push(p);
        }
        return h.slice(0, -1);
      };
      return String(half(sorted).length + half([...sorted].reverse()).length);
    },
  };
  return [
    {
      title: 'Triangle Area',
      rating: 1000,
      tags: ['geometry', 'math'],
      legend: [
        md`You are given the three corners of a triangle. All coordinates are integers, so twice the area of the triangle is always an integer.`,
        md`For each test case print twice the area. The area of a triangle with corners $A$, $B$, $C$ is $$S = \frac{1}{2} \left| (B - A) \times (C - A) \right|.$$`,
      ],
      input: [md`The first line contains one integer $t$. Each of the next $t$ lines contains six integers $x_1, y_1, x_2, y_2, x_3, y_3$.`],
      output: [md`For each test case print one integer — the value of $2S$.`],
      constraints: [md`$1 \le t \le 10^4$`, md`$|x_i|, |y_i| \le 10^9$`],
      examples: samples([many(3, (r) => randomPoints(r, 3, 10) as [P, P, P])], multi(triangle)),
    },
    {
      title: 'Point in Polygon',
      rating: 1900,
      tags: ['geometry'],
      legend: [
        md`You are given a simple polygon with $n$ vertices (its sides do not cross each other) and $m$ points.`,
        md`For each point, find out if it is inside the polygon, outside the polygon or on its boundary.`,
      ],
      input: [
        md`The first line contains two integers $n$ and $m$. Each of the next $n$ lines contains the coordinates of a vertex, in order along the boundary.`,
        md`Each of the next $m$ lines contains the coordinates of a point.`,
      ],
      output: [md`For each point print \`INSIDE\`, \`OUTSIDE\` or \`BOUNDARY\`.`],
      constraints: [md`$3 \le n, m \le 1000$`, md`$|x|, |y| \le 10^9$`],
      examples: samples(
        [
          (r) => ({
            poly: [[0, 0], [6, 0], [6, 6], [3, 3], [0, 6]] as P[],
            qs: [[3, 1], [3, 5], [6, 2], [r.int(0, 7), r.int(0, 7)]] as P[],
          }),
        ],
        inside,
      ),
    },
    {
      title: 'Convex Hull Size',
      rating: 2000,
      tags: ['geometry', 'sorting'],
      legend: [
        md`You are given $n$ different points on a plane. The *convex hull* is the smallest convex polygon that contains all points.`,
        md`Count the vertices of the convex hull. Points that lie on a side of the hull but are not corners are not counted.`,
      ],
      input: [md`The first line contains one integer $n$. Each of the next $n$ lines contains two integers $x$ and $y$.`],
      output: [md`Print one integer — the number of vertices of the convex hull.`],
      constraints: [md`$1 \le n \le 2 \cdot 10^5$`, md`$|x|, |y| \le 10^9$`],
      examples: samples([(r) => randomPoints(r, 8, 8), () => [[0, 0], [1, 1], [2, 2]] as P[]], hull),
    },
  ];
};

export const lines: Family = () => {
  type Seg = [number, number, number, number];
  const lattice: IO<Seg> = { fmt: (s) => s.join(' '), solve: ([x1, y1, x2, y2]) => String(gcd(Math.abs(x2 - x1), Math.abs(y2 - y1)) + 1) };
  type Pair = [Seg, Seg];
  const crossing: IO<Pair> = {
    fmt: ([a, b]) => `${a.join(' ')}\n${b.join(' ')}`,
    solve: ([[a1, a2, a3, a4], [b1, b2, b3, b4]]) => {
      const p1: P = [a1, a2];
      const p2: P = [a3, a4];
      const q1: P = [b1, b2];
      const q2: P = [b3, b4];
      const d1 = Math.sign(cross(p1, p2, q1));
      const d2 = Math.sign(cross(p1, p2, q2));
      const d3 = Math.sign(cross(q1, q2, p1));
      const d4 = Math.sign(cross(q1, q2, p2));
      const touch = onSegment(q1, p1, p2) || onSegment(q2, p1, p2) || onSegment(p1, q1, q2) || onSegment(p2, q1, q2);
      return touch || (d1 * d2 < 0 && d3 * d4 < 0) ? 'YES' : 'NO';
    },
  };
  const collinear: IO<P[]> = {
    fmt: pointsText,
    solve: (ps) => {
      let best = Math.min(ps.length, 2);
      for (let i = 0; i < ps.length; i++)
        for (let j = i + 1; j < ps.length; j++) best = Math.max(best, ps.filter((p) => cross(ps[i], ps[j], p) === 0).length);
      return String(best);
    },
  };
  const seg = (r: Rng, max: number): Seg => [r.int(0, max), r.int(0, max), r.int(0, max), r.int(0, max)];
  return [
    {
      title: 'Lattice Points on a Segment',
      rating: 1300,
      tags: ['geometry', 'number-theory'],
      legend: [
        md`A *lattice point* is a point with integer coordinates. You are given a segment with ends $(x_1, y_1)$ and $(x_2, y_2)$, which are lattice points.`,
        md`Count the lattice points on the segment, including its ends.`,
      ],
      input: [md`The only line contains four integers $x_1$, $y_1$, $x_2$ and $y_2$.`],
      output: [md`Print one integer — the number of lattice points.`],
      constraints: [md`$|x_i|, |y_i| \le 10^9$`],
      examples: samples([() => [0, 0, 4, 6] as Seg, (r) => seg(r, 20), () => [1, 1, 1, 1] as Seg], lattice),
    },
    {
      title: 'Do the Segments Cross',
      rating: 1700,
      tags: ['geometry'],
      legend: [
        md`You are given two segments on a plane. Check if they have at least one common point.`,
        md`Segments that only touch at an end also have a common point. Work with integers only: floating point numbers can give a wrong answer here.`,
      ],
      input: [md`The first line contains four integers — the ends of the first segment. The second line contains four integers — the ends of the second segment.`],
      output: [md`Print \`YES\` or \`NO\`.`],
      constraints: [md`$|x|, |y| \le 10^9$`, md`The segments can have zero length.`],
      examples: samples(
        [(r) => [seg(r, 6), seg(r, 6)] as Pair, () => [[0, 0, 2, 2], [2, 2, 3, 0]] as Pair, () => [[0, 0, 1, 0], [2, 0, 3, 0]] as Pair],
        crossing,
      ),
    },
    {
      title: 'Points on One Line',
      rating: 1900,
      tags: ['geometry', 'number-theory', 'data-structures'],
      legend: [md`You are given $n$ different points on a plane. Find the maximum number of them that lie on one straight line.`],
      input: [md`The first line contains one integer $n$. Each of the next $n$ lines contains two integers $x$ and $y$.`],
      output: [md`Print one integer — the answer.`],
      constraints: [md`$1 \le n \le 3000$`, md`$|x|, |y| \le 10^9$`],
      examples: samples([(r) => randomPoints(r, 7, 4), () => [[5, 5]] as P[]], collinear),
    },
  ];
};

export const planeSweeps: Family = () => {
  const closest: IO<P[]> = {
    fmt: pointsText,
    solve: (ps) => String(Math.min(...ps.flatMap((p, i) => ps.slice(i + 1).map((q) => (p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2)))),
  };
  const largest: IO<P[]> = {
    fmt: pointsText,
    solve: (ps) => {
      let best = 0;
      for (let i = 0; i < ps.length; i++)
        for (let j = i + 1; j < ps.length; j++) for (let k = j + 1; k < ps.length; k++) best = Math.max(best, Math.abs(cross(ps[i], ps[j], ps[k])));
      return String(best);
    },
  };
  type Rect = [number, number, number, number];
  const union: IO<Rect[]> = {
    fmt: (rs) => `${rs.length}\n${rs.map((x) => x.join(' ')).join('\n')}`,
    solve: (rs) => {
      const xs = [...new Set(rs.flatMap(([x1, , x2]) => [x1, x2]))].sort((a, b) => a - b);
      const ys = [...new Set(rs.flatMap(([, y1, , y2]) => [y1, y2]))].sort((a, b) => a - b);
      let area = 0;
      for (let i = 0; i + 1 < xs.length; i++)
        for (let j = 0; j + 1 < ys.length; j++)
          if (rs.some(([x1, y1, x2, y2]) => x1 <= xs[i] && xs[i + 1] <= x2 && y1 <= ys[j] && ys[j + 1] <= y2)) area += (xs[i + 1] - xs[i]) * (ys[j + 1] - ys[j]);
      return String(area);
    },
  };
  const rect = (r: Rng): Rect => {
    const x = r.int(0, 8);
    const y = r.int(0, 8);
    return [x, y, x + r.int(1, 5), y + r.int(1, 5)];
  };
  return [
    {
      title: 'Closest Pair of Points',
      rating: 2000,
      tags: ['geometry', 'sorting', 'data-structures'],
      legend: [
        md`You are given $n$ points on a plane. Find the smallest distance between two of them.`,
        md`To avoid real numbers, print the square of the distance: $$(x_i - x_j)^2 + (y_i - y_j)^2.$$`,
      ],
      input: [md`The first line contains one integer $n$. Each of the next $n$ lines contains two integers $x$ and $y$. Points can coincide.`],
      output: [md`Print one integer — the smallest squared distance.`],
      constraints: [md`$2 \le n \le 2 \cdot 10^5$`, md`$|x|, |y| \le 10^9$`],
      examples: samples([(r) => randomPoints(r, 6, 20), () => [[1, 1], [1, 1], [5, 5]] as P[]], closest),
    },
    {
      title: 'Largest Triangle',
      rating: 2300,
      tags: ['geometry', 'two-pointers'],
      legend: [
        md`You are given $n$ different points. Choose three of them so that the triangle with these corners has the largest area.`,
        md`Print twice the largest area; it is always an integer. If all points lie on one line, the answer is $0$.`,
      ],
      input: [md`The first line contains one integer $n$. Each of the next $n$ lines contains two integers $x$ and $y$.`],
      output: [md`Print one integer — twice the largest area.`],
      constraints: [md`$3 \le n \le 5 \cdot 10^4$`, md`$|x|, |y| \le 10^8$`],
      examples: samples([(r) => randomPoints(r, 6, 10), () => [[0, 0], [1, 1], [2, 2]] as P[]], largest),
    },
    {
      title: 'Union of Rectangles',
      rating: 2400,
      tags: ['geometry', 'data-structures', 'sorting'],
      legend: [
        md`There are $n$ rectangles on a plane. Their sides are parallel to the axes. The $i$-th rectangle has the bottom left corner $(x_1, y_1)$ and the top right corner $(x_2, y_2)$.`,
        md`Find the total area covered by at least one rectangle.`,
      ],
      input: [md`The first line contains one integer $n$. Each of the next $n$ lines contains four integers $x_1$, $y_1$, $x_2$ and $y_2$.`],
      output: [md`Print one integer — the area of the union.`],
      constraints: [md`$1 \le n \le 10^5$`, md`$0 \le x_1 < x_2 \le 10^9$`, md`$0 \le y_1 < y_2 \le 10^9$`],
      timeLimitMs: 2000,
      examples: samples([(r) => Array.from({ length: 3 }, () => rect(r)), () => [[0, 0, 2, 2], [1, 1, 3, 3]] as Rect[]], union),
    },
  ];
};
