import type { Nodes, Parents, Root, Text } from 'mdast';
import remarkGfm from 'remark-gfm';
import remarkMath from 'remark-math';
import remarkParse from 'remark-parse';
import { unified, type Processor } from 'unified';
import { decodeHtmlText } from './html-placeholders.ts';

/**
 * The one Markdown dialect of problem statements, for segmenting, checking and rendering alike:
 * CommonMark + GFM (tables, strikethrough, autolink literals, footnotes) + `$…$` / `$$…$$` math.
 * Frozen once: a processor holds no per-call state.
 */
export const statementParser = unified().use(remarkParse).use(remarkGfm).use(remarkMath).use(keepReplacedText).freeze();

/**
 * The statement's mdast tree, every node with source offsets (`position.start.offset`): also the
 * links that remark-gfm finds in text after parsing (`“www.example.com”`), which it leaves without.
 */
export function parseStatement(markdown: string): Root {
  // remark-gfm and remark-math only extend the parser: there are no transforms to run.
  const tree = statementParser.parse(markdown);
  placeReplacedText(tree, markdown);
  return tree;
}

/**
 * The tree's shape: node types, structure and every attribute (math, code, URLs, heading depth, table
 * alignment…), without positions and without text nodes. Two statements with the same shape differ
 * only in their prose: text never sits next to text, so where a translation adds or removes a run of
 * it (after an emphasis, say), the markup around is unchanged.
 */
export function shapeOfTree(tree: Nodes): string {
  return JSON.stringify(tree, (key, value) => {
    if (key === 'position') return undefined;
    if (key === 'children') return markupOf(value);
    return value;
  });
}

/** What a node is apart from its children's content, its position and its prose: equal for the same markup. */
export function ownShapeOf(node: Nodes): string {
  return JSON.stringify(node, (key, value) => {
    if (key === 'position' || (key === 'value' && node.type === 'text')) return undefined;
    if (key === 'children') return markupOf(value).map((child) => child.type);
    return value;
  });
}

/** The children that are markup, not prose. */
export const markupOf = (children: Nodes[]): Nodes[] => children.filter((child) => child.type !== 'text');

const REPLACED = Symbol('textBeforeAutolinkLiterals');
type WithReplaced = Parents & { [REPLACED]?: Nodes[] };
// What remark-gfm's autolink-literal transform can turn into links.
const MAY_LINK = /www|:\/\/|@/i;

/**
 * remark-gfm links `www.…`, `http(s)://…` and e-mail addresses in text nodes after parsing, with new
 * nodes that have no position. Before it runs, remember the children of every parent that holds such
 * text, so that the nodes replacing a text can be placed in that text's source range. A symbol, so
 * neither JSON (the shape) nor mdast utilities see it.
 */
function keepReplacedText(this: Processor) {
  const extensions = (this.data().fromMarkdownExtensions ??= []);
  // Transforms run in the order of their extensions: first, before remark-gfm's.
  extensions.unshift({
    transforms: [
      (tree: Root) => {
        const stack: Nodes[] = [tree];
        while (stack.length > 0) {
          const node = stack.pop()!;
          if (!('children' in node)) continue;
          if (node.children.some((child) => child.type === 'text' && MAY_LINK.test(child.value))) (node as WithReplaced)[REPLACED] = [...node.children];
          stack.push(...node.children);
        }
      },
    ],
  });
}

function placeReplacedText(tree: Root, source: string): void {
  const stack: Nodes[] = [tree];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (!('children' in node)) continue;
    const originals = (node as WithReplaced)[REPLACED];
    if (originals) {
      delete (node as WithReplaced)[REPLACED];
      placeRuns(node.children, originals, source);
    }
    stack.push(...node.children);
  }
}

/** Each run of unplaced nodes stands for the original text at that place: spread it over that text's bytes. */
function placeRuns(children: Nodes[], originals: Nodes[], source: string): void {
  let index = 0;
  for (const original of originals) {
    if (children[index] === original) {
      index++;
      continue;
    }
    let end = index;
    while (end < children.length && !children[end].position) end++;
    if (original.type === 'text' && original.position) placeRun(children.slice(index, end), original, source);
    index = end;
  }
}

const plainText = (node: Nodes): string => (node.type === 'text' ? node.value : 'children' in node ? node.children.map(plainText).join('') : '');

function placeRun(run: Nodes[], original: Text, source: string): void {
  const origin = original.position!.start;
  const start = origin.offset!;
  const offsets = sourceOffsets(original.value, source.slice(start, original.position!.end.offset));
  // A run the alignment cannot follow stays unplaced; the segmenter leaves its paragraph in the source.
  if (!offsets || run.map(plainText).join('') !== original.value) return;
  let at = 0;
  const place = (node: Nodes, from: number, to: number) => {
    node.position = { start: pointAt(source, origin, start + offsets[from]), end: pointAt(source, origin, start + offsets[to]) };
    if ('children' in node) for (const child of node.children) place(child, from, to);
  };
  for (const node of run) {
    const length = plainText(node).length;
    place(node, at, at + length);
    at += length;
  }
}

/** A point inside the original text, counted from its start (not from the top: linear in the text). */
function pointAt(source: string, origin: { line: number; column: number; offset?: number }, offset: number) {
  let line = origin.line;
  let lineStart = origin.offset! - origin.column + 1;
  for (let index = source.indexOf('\n', origin.offset); index >= 0 && index < offset; index = source.indexOf('\n', index + 1)) {
    line++;
    lineStart = index + 1;
  }
  return { line, column: offset - lineStart + 1, offset };
}

const ESCAPABLE = /[!-/:-@[-`{-~]/;
const REFERENCE = /&(?:#\d{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});/y;

/** A character reference the parser decodes (an unknown name stays text), with what it decodes to. */
function referenceAt(bytes: string, at: number): [string, string] | undefined {
  REFERENCE.lastIndex = at;
  const reference = REFERENCE.exec(bytes)?.[0];
  const decoded = reference && decodeHtmlText(reference);
  return reference && decoded && decoded !== reference ? [reference, decoded] : undefined;
}

/**
 * Where each character of a text node's value starts in its source bytes (one more entry for the
 * end), following backslash escapes, character references and line prefixes; undefined when the
 * bytes do not spell the value.
 */
export function sourceOffsets(value: string, bytes: string): number[] | undefined {
  const offsets: number[] = [];
  let at = 0;
  for (let index = 0; index < value.length; index++) {
    const char = value[index];
    offsets.push(at);
    if (char === '\n') {
      while (bytes[at] === ' ' || bytes[at] === '\t') at++;
      if (bytes[at] === '\r') at++;
      if (bytes[at] !== '\n') return undefined;
      at++;
      // The next line's container prefix (`> `, indentation) is not part of the value.
      while (at < bytes.length && bytes[at] !== value[index + 1] && /[ \t>]/.test(bytes[at])) at++;
      continue;
    }
    const reference = bytes[at] === '&' ? referenceAt(bytes, at) : undefined;
    if (reference) {
      const [text, decoded] = reference;
      if (!value.startsWith(decoded, index)) return undefined;
      // A reference that decodes to two characters (`&ngE;`) starts both.
      for (let extra = 1; extra < decoded.length; extra++) offsets.push(at);
      index += decoded.length - 1;
      at += text.length;
    } else if (bytes[at] === char) at++;
    else if (bytes[at] === '\\' && bytes[at + 1] === char && ESCAPABLE.test(char)) at += 2;
    else return undefined;
  }
  if (bytes.slice(at).trim()) return undefined;
  offsets.push(at);
  return offsets;
}
