import type { Nodes, Parents, PhrasingContent, Root } from 'mdast';
import {
  atomMarkup,
  closeMarkup,
  escapeHtmlText,
  openMarkup,
  readPlaceholders,
  type PairTag,
  type PlaceholderToken,
} from './html-placeholders.ts';
import { markupOf, ownShapeOf, parseStatement, shapeOfTree } from './parse-statement.ts';
import { statementFailure } from './statement-failure.ts';
import { checkStatementText, checkStatementTree, DEFAULT_STATEMENT_LIMITS, MAX_TRANSLATION_GROWTH, type StatementLimits } from './statement-limits.ts';

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
   * Throws a statement failure (statement-failure.ts) when the service translated something and
   * nothing of it could be kept: the source is never passed off as its translation.
   */
  reassemble(translated: string[]): string;
  /** As `reassemble`, saying too how much of the prose was put back translated, and where the rest stands. */
  reassembleWithShare(translated: string[]): Reassembled;
}

/** A statement put back together, and what of its prose stayed in the source language. */
export interface Reassembled {
  statement: string;
  /** Characters of prose sent to the service (its segments' text, markup and protected spans left out). */
  characters: number;
  /** Of those, the characters of segments whose translation was put back (unchanged by the service or not). */
  translatedCharacters: number;
  /** Offsets `[start, end)` in `statement` of the segments left in the source language, in order. */
  sourceRanges: [number, number][];
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

export function segmentStatement(markdown: string, limits: StatementLimits = DEFAULT_STATEMENT_LIMITS): SegmentedStatement {
  checkStatementText(markdown, limits);
  const tree = parseStatement(markdown);
  checkStatementTree(tree, limits);
  const found: Segment[] = [];
  collectSegments(tree, markdown, found);
  // Prose without a letter ("$1 \le n \le 10^5$", "`1 l r x`") has nothing to translate.
  const segments = found.filter((segment) => segment.pieces.some((piece) => piece.kind === 'text' && LETTER.test(piece.value)));
  const sent = segments.map(segmentHtml);
  let sourceShape: string | undefined;

  const reassembleWithShare = (translated: string[]): Reassembled => {
    if (translated.length !== segments.length) {
      throw new Error(`reassemble: expected ${segments.length} translations, got ${translated.length}`);
    }
    const length = translated.reduce((sum, text) => sum + text.length, 0);
    if (length > MAX_TRANSLATION_GROWTH * limits.maxLength) throw untranslatable('its translation is far longer than the statement');
    const original = (index: number) => markdown.slice(segments[index].start, segments[index].end);
    // undefined: a translation that cannot be trusted.
    const outputs = segments.map((segment, index) => reassembleSegment(segment, translated[index]));
    sourceShape ??= shapeOfTree(tree);
    const changes = outputs.map((output, index) => (output === original(index) ? undefined : output));
    const kept = keepStructure({ markdown, tree, segments, sourceShape }, changes);
    const lost = translated.some((text, index) => text !== sent[index] && kept[index] === undefined && outputs[index] !== original(index));
    if (lost && kept.every((output) => output === undefined)) {
      throw untranslatable('no part of its translation could be put back without changing its Markdown structure, math or code');
    }
    // A segment the service returned unchanged counts as translated: the service's answer stands.
    const inSource = segments.map((_, index) => kept[index] === undefined && outputs[index] !== original(index));
    return { ...spliceWithRanges(markdown, segments, kept, inSource), ...shareOf(segments, inSource) };
  };
  return { segments: sent, reassembleWithShare, reassemble: (translated) => reassembleWithShare(translated).statement };
}

const proseLength = (segment: Segment) => segment.pieces.reduce((sum, piece) => sum + (piece.kind === 'text' ? asSent(piece.value).length : 0), 0);

function shareOf(segments: Segment[], inSource: boolean[]): Pick<Reassembled, 'characters' | 'translatedCharacters'> {
  let characters = 0;
  let translatedCharacters = 0;
  segments.forEach((segment, index) => {
    const length = proseLength(segment);
    characters += length;
    if (!inSource[index]) translatedCharacters += length;
  });
  return { characters, translatedCharacters };
}

/** The whole statement with the outputs in place, and where the segments `inSource` stand in it. */
function spliceWithRanges(markdown: string, segments: Segment[], outputs: (string | undefined)[], inSource: boolean[]) {
  const parts: string[] = [];
  const sourceRanges: [number, number][] = [];
  let cursor = 0;
  let length = 0;
  const push = (text: string) => {
    parts.push(text);
    length += text.length;
  };
  segments.forEach(({ start, end }, index) => {
    push(markdown.slice(cursor, start));
    if (inSource[index]) sourceRanges.push([length, length + end - start]);
    push(outputs[index] ?? markdown.slice(start, end));
    cursor = end;
  });
  push(markdown.slice(cursor));
  return { statement: parts.join(''), sourceRanges };
}

const untranslatable = (why: string) =>
  statementFailure({ message: `The gateway cannot translate this statement: ${why}. It does not present the original as its translation.` });

interface Source {
  markdown: string;
  tree: Root;
  segments: Segment[];
  sourceShape: string;
}

/**
 * The outputs that keep the statement's structure. The whole result is parsed once and compared with
 * the source; when it differs, the segments to blame are found by comparing trees: the whole ones
 * when their blocks line up, else each top-level block parsed alone. The cost stays a few parses of
 * the statement however many segments are at fault (testing each segment against the whole statement
 * was quadratic: 55 s for 800 paragraphs).
 */
function keepStructure(source: Source, outputs: (string | undefined)[]): (string | undefined)[] {
  const { markdown, tree, segments, sourceShape } = source;
  const kept = [...outputs];
  const changedTree = () => {
    if (kept.every((output) => output === undefined)) return undefined;
    const result = parseStatement(spliceRange(markdown, segments, kept, 0, markdown.length));
    return shapeOfTree(result) === sourceShape ? undefined : result;
  };
  const drop = (blamed: Set<number>) => blamed.forEach((index) => (kept[index] = undefined));

  let result = changedTree();
  if (!result) return kept;
  // The same blocks (a link added inside a paragraph): the trees line up, compare them as they are.
  if (result.children.length === tree.children.length) {
    drop(blame(tree, result, 0, segments));
    result = changedTree();
    if (!result) return kept;
  }
  drop(blameByBlock(source, kept));
  result = changedTree();
  if (!result) return kept;
  // Each block is right on its own: what is left depends on context (a reference defined elsewhere…).
  drop(blame(tree, result, 0, segments));
  return changedTree() ? kept.map(() => undefined) : kept;
}

/** Each top-level block holding a translated segment, before and after, parsed on its own and compared. */
function blameByBlock({ markdown, tree, segments }: Source, outputs: (string | undefined)[]): Set<number> {
  const blamed = new Set<number>();
  let next = 0;
  for (const block of tree.children) {
    const first = next;
    const end = endOf(block);
    while (next < segments.length && segments[next].start < end) next++;
    if (!outputs.slice(first, next).some((output) => output !== undefined)) continue;
    // From the start of its line: a block's first line may be indented.
    const start = markdown.lastIndexOf('\n', startOf(block) - 1) + 1;
    const before = parseStatement(markdown.slice(start, end));
    const after = parseStatement(spliceRange(markdown, segments, outputs, start, end, first, next));
    for (const index of blame(before, after, start, segments)) blamed.add(index);
  }
  return blamed;
}

/**
 * The segments inside the source nodes whose markup differs from the result's (type, attributes,
 * the types of their children apart from text). `offset` is where `source`'s text starts in the statement.
 */
function blame(source: Nodes, result: Nodes, offset: number, segments: Segment[]): Set<number> {
  const blamed = new Set<number>();
  const stack: [Nodes, Nodes, number, number][] = [[source, result, offset, offset + Number.MAX_SAFE_INTEGER]];
  while (stack.length > 0) {
    const [before, after, outerStart, outerEnd] = stack.pop()!;
    // A link remark-gfm made that could not be placed has no position: the one around it stands for it.
    const start = before.position ? offset + startOf(before) : outerStart;
    const end = before.position ? offset + endOf(before) : outerEnd;
    if (ownShapeOf(before) !== ownShapeOf(after)) {
      for (let index = firstSegmentEndingAfter(segments, start); index < segments.length && segments[index].start < end; index++) blamed.add(index);
    } else if ('children' in before) {
      const afterMarkup = markupOf((after as Parents).children);
      markupOf(before.children).forEach((child, index) => stack.push([child, afterMarkup[index], start, end]));
    }
  }
  return blamed;
}

function firstSegmentEndingAfter(segments: Segment[], offset: number): number {
  let low = 0;
  let high = segments.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (segments[middle].end > offset) high = middle;
    else low = middle + 1;
  }
  return low;
}

/** The statement's bytes from `from` to `to`, with the outputs of segments `first` to `last` (exclusive) in place. */
function spliceRange(
  markdown: string,
  segments: Segment[],
  outputs: (string | undefined)[],
  from: number,
  to: number,
  first = 0,
  last = segments.length,
): string {
  const parts: string[] = [];
  let cursor = from;
  for (let index = first; index < last; index++) {
    const { start, end } = segments[index];
    parts.push(markdown.slice(cursor, start), outputs[index] ?? markdown.slice(start, end));
    cursor = end;
  }
  parts.push(markdown.slice(cursor, to));
  return parts.join('');
}

function collectSegments(node: Nodes, source: string, out: Segment[]): void {
  if (!('children' in node)) return;
  if (PROSE_CONTAINERS.has(node.type)) {
    const children = node.children as PhrasingContent[];
    // Without source offsets the prose cannot be spliced back: it stays as it is.
    if (children.length > 0 && children.every(placed)) {
      out.push({ start: startOf(children[0]), end: endOf(children[children.length - 1]), pieces: piecesOf(children, source) });
    }
    return;
  }
  for (const child of node.children) collectSegments(child, source, out);
}

const placed = (node: Nodes): boolean => Boolean(node.position) && (!('children' in node) || node.children.every(placed));
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
        ? escapeHtmlText(asSent(piece.value))
        : piece.kind === 'atom'
          ? atomMarkup(piece.id)
          : piece.kind === 'open'
            ? openMarkup(piece.tag!, piece.id)
            : closeMarkup(piece.tag!),
    )
    .join('');
}

/**
 * A run as the service receives it: a line break inside a paragraph (a Markdown soft break, which
 * renders as a space) goes as a space, since MT engines commonly take a line break for the end of a
 * sentence and contest statements wrap lines mid-sentence. Hard breaks are placeholders, not text.
 */
const asSent = (value: string) => value.replace(/[ \t]*\r?\n[ \t]*/g, ' ');

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
  if (translated === asSent(original.value) || !original.value.trim()) return original.source;
  const lead = /^\s*/.exec(original.source)![0];
  const trail = original.source.slice(lead.length).match(/\s*$/)![0];
  const core = original.source.slice(lead.length, original.source.length - trail.length);
  const breaks = core.match(LINE_BREAK) ?? [];
  // The run went as one line (asSent): a soft break around it, next to a formula say, becomes the space it renders as.
  return oneLine(lead) + proseToMarkdown(translated.trim(), segmentStart, breaks) + oneLine(trail);
}

const oneLine = (space: string) => (space.includes('\n') ? ' ' : space);

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
