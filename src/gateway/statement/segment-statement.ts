import type { Nodes, PhrasingContent, Root } from 'mdast';
import {
  atomMarkup,
  closeMarkup,
  escapeHtmlText,
  openMarkup,
  readPlaceholders,
  type PairTag,
  type PlaceholderToken,
} from './html-placeholders.ts';
import { parseStatement, shapeOfTree, statementShape } from './parse-statement.ts';

/**
 * Splits a Markdown statement into the prose an MT service should translate, and puts translations
 * back. Each paragraph, heading and table cell is one segment (so the service sees whole sentences);
 * inside it, what must not change (math, code, URLs, raw HTML, link destinations, line prefixes) is a
 * placeholder tag, and emphasis or link text is a pair of tags around translated words (see
 * html-placeholders.ts). Translations are spliced into the original string at the parser's source
 * offsets, so every byte outside the translated prose is copied from the source.
 */
export interface SegmentedStatement {
  /** HTML texts to translate (`format: "html"`), in document order; may repeat, may be empty. */
  segments: string[];
  /**
   * The statement with each segment replaced by its translation (same order as `segments`). A
   * translation whose placeholders are missing, repeated or moved into other markup, or whose text
   * would change the Markdown structure, is dropped: that segment stays in the source language.
   */
  reassemble(translated: string[]): string;
}

interface TextPiece {
  kind: 'text';
  /** The text as the parser reads it (escapes and references decoded, line prefixes left out). */
  value: string;
  /** Its bytes in the source. */
  source: string;
}

interface MarkPiece {
  kind: 'atom' | 'open' | 'close';
  id: number;
  /** Id of the pair around it, -1 at the top of the segment. */
  parent: number;
  /** Source bytes it stands for: the whole span, or the markup before / after a pair's content. */
  source: string;
  tag?: PairTag;
}

type Piece = TextPiece | MarkPiece;

interface Segment {
  start: number;
  end: number;
  pieces: Piece[];
}

/** Containers whose children are one run of prose. List items and quotes hold paragraphs. */
const PROSE_CONTAINERS = new Set(['paragraph', 'heading', 'tableCell']);
const LETTER = /\p{L}/u;

export function segmentStatement(markdown: string): SegmentedStatement {
  const tree = parseStatement(markdown);
  const found: Segment[] = [];
  collectSegments(tree, markdown, found);
  // Prose without a letter ("$1 \le n \le 10^5$", "`1 l r x`") has nothing to translate.
  const segments = found.filter((segment) => segment.pieces.some((piece) => piece.kind === 'text' && LETTER.test(piece.value)));

  let sourceShape: string | undefined;
  const splice = (outputs: (string | undefined)[]) => {
    let out = '';
    let cursor = 0;
    segments.forEach((segment, index) => {
      out += markdown.slice(cursor, segment.start) + (outputs[index] ?? markdown.slice(segment.start, segment.end));
      cursor = segment.end;
    });
    return out + markdown.slice(cursor);
  };

  return {
    segments: segments.map(segmentHtml),
    reassemble(translated) {
      if (translated.length !== segments.length) {
        throw new Error(`reassemble: expected ${segments.length} translations, got ${translated.length}`);
      }
      const outputs = segments.map((segment, index) => reassembleSegment(segment, translated[index]));
      if (outputs.every((output) => output === undefined)) return markdown;
      sourceShape ??= shapeOfTree(tree);
      const whole = splice(outputs);
      if (statementShape(whole) === sourceShape) return whole;
      // Something changed the structure (a stray delimiter the escaping did not foresee): keep the
      // segments that are harmless on their own, and the rest in the source language.
      const kept = outputs.map((output, index) =>
        output !== undefined && statementShape(splice(outputs.map((other, j) => (j === index ? other : undefined)))) === sourceShape
          ? output
          : undefined,
      );
      const safer = splice(kept);
      return statementShape(safer) === sourceShape ? safer : markdown;
    },
  };
}

function collectSegments(node: Nodes, source: string, out: Segment[]): void {
  if (!('children' in node)) return;
  if (PROSE_CONTAINERS.has(node.type)) {
    const children = node.children as PhrasingContent[];
    if (children.length > 0) {
      out.push({ start: startOf(children[0]), end: endOf(children[children.length - 1]), pieces: piecesOf(children, source) });
    }
    return;
  }
  for (const child of node.children) collectSegments(child, source, out);
}

const startOf = (node: Nodes) => node.position!.start.offset!;
const endOf = (node: Nodes) => node.position!.end.offset!;

/** Markup whose content is prose of the same sentence; anything else inline is protected whole. */
function pairTagOf(node: PhrasingContent, source: string): PairTag | undefined {
  switch (node.type) {
    case 'emphasis':
      return 'em';
    case 'strong':
      return 'strong';
    case 'delete':
      return 'del';
    case 'link':
      // `[text](url)`; an autolink (`<https://…>`, a bare URL) is its own text and stays as is.
      return node.children.length > 0 && source[startOf(node)] === '[' ? 'a' : undefined;
    case 'linkReference':
      // Only `[text][label]`: in `[label]` and `[label][]` the text is the label.
      return node.referenceType === 'full' && node.children.length > 0 ? 'a' : undefined;
    default:
      return undefined;
  }
}

function piecesOf(children: PhrasingContent[], source: string): Piece[] {
  const pieces: Piece[] = [];
  let next = 0;
  let cursor = startOf(children[0]);
  // Source bytes between nodes (the line prefix after a hard break) are kept with the markup before them.
  const keep = (until: number, parent: number) => {
    if (until <= cursor) return;
    const bytes = source.slice(cursor, until);
    const last = pieces[pieces.length - 1];
    if (last && last.kind !== 'text') last.source += bytes;
    else pieces.push({ kind: 'atom', id: next++, parent, source: bytes });
    cursor = until;
  };
  const walk = (nodes: PhrasingContent[], parent: number) => {
    for (const node of nodes) {
      const start = startOf(node);
      const end = endOf(node);
      keep(start, parent);
      const tag = pairTagOf(node, source);
      if (node.type === 'text') {
        pieces.push({ kind: 'text', value: node.value, source: source.slice(start, end) });
      } else if (tag && 'children' in node) {
        const id = next++;
        const inner = node.children;
        const innerStart = startOf(inner[0]);
        const innerEnd = endOf(inner[inner.length - 1]);
        pieces.push({ kind: 'open', id, parent, tag, source: source.slice(start, innerStart) });
        cursor = innerStart;
        walk(inner, id);
        keep(innerEnd, id);
        pieces.push({ kind: 'close', id, parent, tag, source: source.slice(innerEnd, end) });
      } else {
        pieces.push({ kind: 'atom', id: next++, parent, source: source.slice(start, end) });
      }
      cursor = end;
    }
  };
  walk(children, -1);
  return pieces;
}

function segmentHtml({ pieces }: Segment): string {
  return pieces
    .map((piece) =>
      piece.kind === 'text'
        ? escapeHtmlText(piece.value)
        : piece.kind === 'atom'
          ? atomMarkup(piece.id)
          : piece.kind === 'open'
            ? openMarkup(piece.tag!, piece.id)
            : closeMarkup(piece.tag!),
    )
    .join('');
}

type MarkToken = Exclude<PlaceholderToken, { type: 'text' }>;
const pieceKey = (mark: MarkPiece) => `${mark.kind}:${mark.id}`;
const tokenKey = (token: MarkToken) => `${token.type}:${token.id}`;

/** Text runs between marks: `slots[i]` is what sits after the i-th mark (slot 0: before the first). */
function slotsOf<T>(items: T[], isText: (item: T) => boolean): { marks: T[]; slots: T[][] } {
  const marks: T[] = [];
  const slots: T[][] = [[]];
  for (const item of items) {
    if (isText(item)) slots[slots.length - 1].push(item);
    else {
      marks.push(item);
      slots.push([]);
    }
  }
  return { marks, slots };
}

/** The segment's Markdown with the translation in place, or undefined when the translation cannot be trusted. */
function reassembleSegment(segment: Segment, translated: string): string | undefined {
  const tokens = readPlaceholders(translated);
  if (!tokens) return undefined;
  const source = slotsOf(segment.pieces, (piece) => piece.kind === 'text');
  const target = slotsOf(tokens, (token) => token.type === 'text');
  const sourceMarks = source.marks as MarkPiece[];
  const targetMarks = target.marks as MarkToken[];

  // Every placeholder exactly once, inside the same markup and in the same order as in the source:
  // the protected spans of a statement keep their order, so a service that moves a formula elsewhere
  // in its sentence gets the source sentence back rather than a formula in a guessed place.
  const sameMarks =
    sourceMarks.length === targetMarks.length &&
    sourceMarks.every((mark, index) => {
      const token = targetMarks[index];
      return pieceKey(mark) === tokenKey(token) && (token.type === 'close' || token.parent === mark.parent);
    });
  if (!sameMarks) return undefined;

  let out = '';
  target.slots.forEach((slot, index) => {
    const text = slot.map((token) => (token as { text: string }).text).join('');
    const original = source.slots[index][0] as TextPiece | undefined;
    if (original) out += textInPlace(original, text, index === 0);
    else if (text.trim()) {
      // Text where the source had none: no source run to take the spacing from, so keep the
      // translation's and drop it where markup would stop working.
      let prose = text.replace(/\s+/g, ' ');
      if (index === 0 || targetMarks[index - 1].type === 'open') prose = prose.trimStart();
      if (index === targetMarks.length || targetMarks[index].type === 'close') prose = prose.trimEnd();
      out += proseToMarkdown(prose, index === 0, []);
    }
    if (index < sourceMarks.length) out += sourceMarks[index].source;
  });
  return out;
}

const LINE_BREAK = /[ \t]*\r?\n[ \t>]*/g;

/** A translated run in the place of a source run: the source's own spacing and line prefixes around it. */
function textInPlace(original: TextPiece, translated: string, segmentStart: boolean): string {
  if (translated === original.value || !original.value.trim()) return original.source;
  const lead = /^\s*/.exec(original.source)![0];
  const trail = original.source.slice(lead.length).match(/\s*$/)![0];
  const core = original.source.slice(lead.length, original.source.length - trail.length);
  const breaks = core.match(LINE_BREAK) ?? [];
  return lead + proseToMarkdown(translated.trim(), segmentStart || lead.includes('\n'), breaks) + trail;
}

/**
 * Translated text as Markdown text that parses back to exactly that text and no new markup: every
 * character that could open inline markup escaped, and at the start of a line whatever could open a
 * block. Line breaks take the source's line prefixes in turn (`> ` in a quote, indentation in a list);
 * beyond those, a space.
 */
function proseToMarkdown(text: string, atLineStart: boolean, breaks: string[]): string {
  const pending = [...breaks];
  return text
    .split(/[ \t]*\r?\n\s*/)
    .map((line, index) => {
      const unit = index === 0 ? undefined : pending.shift();
      const separator = index === 0 ? '' : (unit ?? ' ');
      return separator + escapeLine(line, index === 0 ? atLineStart : unit !== undefined);
    })
    .join('');
}

function escapeLine(line: string, atLineStart: boolean): string {
  let escaped = line
    .replace(/[\\`*_$[\]<|~]/g, '\\$&')
    .replace(/&(?=(?:#\d{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});)/g, '\\&')
    // A closing sequence of an ATX heading.
    .replace(/(^|\s)#(#*\s*)$/, '$1\\#$2');
  if (atLineStart) escaped = escaped.replace(/^(\s*)(?:([#>+=-])|(\d{1,9})([.)]))/, (_, space, mark, digits, dot) => (mark ? `${space}\\${mark}` : `${space}${digits}\\${dot}`));
  return escaped;
}
