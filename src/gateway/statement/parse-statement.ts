import type { Root } from 'mdast';
import remarkGfm from 'remark-gfm';
import remarkMath from 'remark-math';
import remarkParse from 'remark-parse';
import { unified } from 'unified';

/**
 * The one Markdown dialect of problem statements, for segmenting, checking and rendering alike:
 * CommonMark + GFM (tables, strikethrough, autolink literals, footnotes) + `$…$` / `$$…$$` math.
 * Frozen once: a processor holds no per-call state.
 */
export const statementParser = unified().use(remarkParse).use(remarkGfm).use(remarkMath).freeze();

/** The statement's mdast tree, every node with source offsets (`position.start.offset`). */
export function parseStatement(markdown: string): Root {
  // remark-gfm and remark-math only extend the parser: there are no transforms to run.
  return statementParser.parse(markdown);
}

/**
 * The tree's shape: node types, structure and every attribute (math, code, URLs, heading depth, table
 * alignment…), without positions and without the values of text nodes. Two statements with the same
 * shape differ only in their prose.
 */
export function statementShape(markdown: string): string {
  return shapeOfTree(parseStatement(markdown));
}

export function shapeOfTree(tree: Root): string {
  return JSON.stringify(tree, (key, value) => {
    if (key === 'position') return undefined;
    if (value && typeof value === 'object' && value.type === 'text' && 'value' in value) return { ...value, value: undefined };
    return value;
  });
}
