import type { Nodes, Root } from 'mdast';
import remarkGfm from 'remark-gfm';
import remarkMath from 'remark-math';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { threadCpuMs } from '../helpers/thread-cpu.ts';

/**
 * Test helpers for statements, written apart from src/gateway/statement/ so the tests do not check
 * the code with itself: the same Markdown dialect, read with the same libraries.
 */
export const parseMarkdown = (markdown: string): Root => {
  // The helpers below only read trees, and the dataset's statements are read again for every target
  // language and check: each text is parsed once (a bounded memo, as test files share a worker).
  let tree = parsedTrees.get(markdown);
  if (!tree) {
    if (parsedTrees.size >= 512) parsedTrees.clear();
    tree = unified().use(remarkParse).use(remarkGfm).use(remarkMath).parse(markdown);
    parsedTrees.set(markdown, tree);
  }
  return tree;
};
const parsedTrees = new Map<string, Root>();

const WHOLE = new Set(['inlineMath', 'math', 'inlineCode', 'code', 'html']);

/**
 * What translation must not touch, in document order: the source bytes of math (inline and display),
 * inline code, fenced code with its fences and info string, raw HTML, autolinks and bare URLs; and the
 * destination and title of every other link or image.
 */
export function protectedSpans(markdown: string): string[] {
  const spans: string[] = [];
  const visit = (node: Nodes) => {
    // remark-gfm links `www.…`, URLs and e-mail addresses it finds in text after parsing, without a position.
    if (!node.position && node.type === 'link') return spans.push(`link:${node.url}`);
    const slice = markdown.slice(node.position?.start.offset, node.position?.end.offset);
    if (WHOLE.has(node.type) || (node.type === 'link' && !slice.startsWith('['))) spans.push(`${node.type}:${slice}`);
    else if (node.type === 'link' || node.type === 'image') spans.push(`${node.type}:${node.url} ${node.title ?? ''}`);
    if ('children' in node) node.children.forEach(visit);
  };
  visit(parseMarkdown(markdown));
  return spans;
}

/**
 * The mdast tree without positions and without text nodes: its markup. (Text never sits next to text,
 * so a translation may add or drop a run of it next to markup without changing any.)
 */
export function shapeWithoutText(markdown: string): unknown {
  const strip = (node: Nodes): unknown => {
    const { position: _position, ...rest } = node as Nodes & { children?: Nodes[] };
    if ('children' in rest) return { ...rest, children: (rest.children as Nodes[]).filter((child) => child.type !== 'text').map(strip) };
    return rest;
  };
  return strip(parseMarkdown(markdown));
}

export const countNodes = (markdown: string, test: (node: Nodes, source: string) => boolean): number => {
  let count = 0;
  const visit = (node: Nodes) => {
    if (test(node, markdown.slice(node.position?.start.offset, node.position?.end.offset))) count++;
    if ('children' in node) node.children.forEach(visit);
  };
  visit(parseMarkdown(markdown));
  return count;
};

/**
 * How much more work 4n takes than n, in this thread's CPU time (which other work on the machine
 * does not lengthen): the least of several runs of each, taken in turns, so that a collection or a
 * core shared with another thread weighs on both sizes alike.
 */
export function growthFrom(n: number, prepare: (size: number) => () => void, rounds = 5): number {
  const small = prepare(n);
  const large = prepare(4 * n);
  const time = (run: () => void) => {
    const start = threadCpuMs();
    run();
    return threadCpuMs() - start;
  };
  // Warm-up, for the JIT.
  small();
  large();
  let fastestSmall = Infinity;
  let fastestLarge = Infinity;
  for (let round = 0; round < rounds; round++) {
    fastestSmall = Math.min(fastestSmall, time(small));
    fastestLarge = Math.min(fastestLarge, time(large));
  }
  return fastestLarge / fastestSmall;
}
