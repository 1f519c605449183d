import type { Nodes, Root } from 'mdast';
import { statementFailure, type StatementFailure } from './statement-failure.ts';

/**
 * Bounds on the Markdown a statement may hold, so the work on one statement is bounded in time and
 * memory: the parser's cost grows faster than the text with nesting (a 162 KB list nested 400 deep
 * took seconds, 10,000 nested quotes overflow its stack), and its tree takes about 60 bytes of heap
 * per character of text.
 */
export interface StatementLimits {
  /** Characters in the statement. @default 65536 */
  maxLength: number;
  /** Levels of nesting: quotes, list items, footnotes, emphasis, strong, strikethrough and links inside each other. @default 32 */
  maxNesting: number;
}

export const DEFAULT_STATEMENT_LIMITS: StatementLimits = { maxLength: 65_536, maxNesting: 32 };

/** How much longer than its statement's limit a translation may be (languages differ in length). */
export const MAX_TRANSLATION_GROWTH = 4;

const NESTING_TYPES = new Set(['blockquote', 'listItem', 'footnoteDefinition', 'emphasis', 'strong', 'delete', 'link', 'linkReference']);
// The parser copes with a few hundred levels; the pre-check only has to stop what is far worse (10,000
// quotes), and its estimate counts indentation too (a deep code line starting with `- `).
const PRE_CHECK_FACTOR = 8;

/** Before parsing: the length, and a cheap over-estimate of the nesting, refused only far above the limit. */
export function checkStatementText(markdown: string, { maxLength, maxNesting }: StatementLimits): void {
  if (markdown.length > maxLength) throw statementFailure(tooLong(markdown.length, maxLength));
  const estimate = nestingEstimate(markdown);
  if (estimate > PRE_CHECK_FACTOR * maxNesting) throw tooDeep(estimate, maxNesting);
}

/** After parsing: the nesting, exactly, before any code walks the tree recursively. */
export function checkStatementTree(tree: Root, { maxNesting }: StatementLimits): void {
  let deepest = 0;
  const stack: [Nodes, number][] = [[tree, 0]];
  while (stack.length > 0) {
    const [node, outer] = stack.pop()!;
    const depth = outer + (NESTING_TYPES.has(node.type) ? 1 : 0);
    deepest = Math.max(deepest, depth);
    if ('children' in node) for (const child of node.children) stack.push([child, depth]);
  }
  if (deepest > maxNesting) throw tooDeep(deepest, maxNesting);
}

export const tooLong = (actual: number, limit: number): StatementFailure => ({
  message: `This statement is ${actual} characters long; the gateway translates statements of up to ${limit}.`,
  limit,
  actual,
});

const tooDeep = (actual: number, limit: number) =>
  statementFailure({ message: `This statement's Markdown is nested ${actual} levels deep; the gateway translates statements nested up to ${limit} levels.`, limit, actual });

// A line's container prefix: indentation, `>` and list markers, as long as one more marker follows.
const LINE_PREFIX = /^(?:[ \t]*(?:>|[-+*](?=[ \t]|$)|\d{1,9}[.)](?=[ \t]|$)))+/gm;

/**
 * The widest container prefix of any line, in characters (every level of quote or list needs at least
 * one), and the deepest nesting of square brackets (each can open a link); the larger of the two.
 */
export function nestingEstimate(markdown: string): number {
  let deepest = 0;
  for (const [prefix] of markdown.matchAll(LINE_PREFIX)) deepest = Math.max(deepest, prefix.length);
  let brackets = 0;
  for (let index = 0; index < markdown.length; index++) {
    const char = markdown[index];
    if (char === '\\') index++;
    else if (char === '[') deepest = Math.max(deepest, ++brackets);
    else if (char === ']' && brackets > 0) brackets--;
  }
  return deepest;
}
