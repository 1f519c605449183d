import type { TextFormat } from './translation-client.ts';

/** Length in characters (code points), as LibreTranslate counts its limits (Python's `len`). */
export function characters(text: string): number {
  let count = text.length;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code >= 0xd800 && code <= 0xdbff) count -= 1;
  }
  return count;
}

/** A text cut into parts that each fit, and the separators that go back between their translations. */
export interface TextParts {
  parts: string[];
  /** `separators[i]` joins `parts[i]` and `parts[i + 1]`. */
  separators: string[];
}

// Coarsest first: a paragraph keeps its sentences together, a sentence its words.
// A sentence may end inside inline markup: `<em>…done.</em> Next`.
const BOUNDARIES = [/\n[ \t]*\n\s*/g, /\n\s*/g, /(?<=[.!?;:…。！？](?:<\/[A-Za-z][\w-]*>)*)\s+/g];

interface Piece {
  text: string;
  /** Whitespace that followed it in the text (empty for the last piece). */
  after: string;
}

/**
 * Cuts `text` at paragraph, then line, then sentence boundaries into the fewest parts of at most
 * `maxChars` characters; undefined when some sentence alone is longer. HTML is cut only between
 * elements, never inside one, so each part stays well-formed for the service's HTML mode.
 */
export function splitText(text: string, maxChars: number, format: TextFormat): TextParts | undefined {
  if (characters(text) <= maxChars) return { parts: [text], separators: [] };
  const outside = format === 'html' ? outsideElements(text) : undefined;
  let pieces: (Piece & { start: number })[] = [{ text, after: '', start: 0 }];
  for (const boundary of BOUNDARIES) {
    pieces = pieces.flatMap((piece) => (characters(piece.text) > maxChars ? cut(piece, boundary, outside) : [piece]));
  }
  if (pieces.some((piece) => characters(piece.text) > maxChars)) return undefined;
  // Greedy merge of neighbours: as few parts as fit, each a run of whole pieces.
  const parts: string[] = [];
  const separators: string[] = [];
  let current = pieces[0];
  for (const piece of pieces.slice(1)) {
    const merged = current.text + current.after + piece.text;
    if (characters(merged) <= maxChars) current = { ...piece, text: merged, start: current.start };
    else {
      parts.push(current.text);
      separators.push(current.after);
      current = piece;
    }
  }
  parts.push(current.text);
  return { parts, separators };
}

export function joinParts(translated: string[], separators: string[]): string {
  return translated.reduce((joined, part, index) => (index === 0 ? part : joined + separators[index - 1] + part), '');
}

function cut(piece: Piece & { start: number }, boundary: RegExp, outside: boolean[] | undefined): (Piece & { start: number })[] {
  const result: (Piece & { start: number })[] = [];
  let from = 0;
  for (const match of piece.text.matchAll(boundary)) {
    const at = match.index;
    // A boundary at the very start or end would leave an empty part, which the service refuses.
    if (at === 0 || at + match[0].length >= piece.text.length) continue;
    if (outside && !outside[piece.start + at]) continue;
    result.push({ text: piece.text.slice(from, at), after: match[0], start: piece.start + from });
    from = at + match[0].length;
  }
  result.push({ text: piece.text.slice(from), after: piece.after, start: piece.start + from });
  return result;
}

const VOID_ELEMENTS = new Set(['br', 'hr', 'img', 'wbr', 'input', 'meta', 'link', 'area', 'base', 'col', 'embed', 'source', 'track']);

/** For each offset of `html`: whether it lies outside every element (depth 0). */
function outsideElements(html: string): boolean[] {
  const outside = new Array<boolean>(html.length).fill(true);
  let depth = 0;
  let last = 0;
  for (const match of html.matchAll(/<(\/?)([A-Za-z][\w-]*)[^>]*?(\/?)>/g)) {
    outside.fill(depth === 0, last, match.index);
    outside.fill(false, match.index, match.index + match[0].length);
    last = match.index + match[0].length;
    const [, closing, name, selfClosing] = match;
    if (closing) depth = Math.max(0, depth - 1);
    else if (!selfClosing && !VOID_ELEMENTS.has(name.toLowerCase())) depth += 1;
  }
  outside.fill(depth === 0, last);
  return outside;
}
