import { decodeNamedCharacterReference } from 'decode-named-character-reference';

/**
 * The HTML a statement segment travels in. LibreTranslate's `format: "html"` translates text nodes
 * and returns tags with their attributes unchanged, so what must survive translation rides in tags:
 *
 * - a protected span (math, code, a URL, raw HTML…) is an empty `<span translate="no" data-p="N"></span>`;
 *   `translate="no"` also tells LibreTranslate (and other HTML-aware MT) to leave it alone;
 * - markup around prose (emphasis, strong, strikethrough, link text) is a pair such as
 *   `<em data-p="N">…</em>`, so the words inside are translated in their sentence and stay inside.
 *
 * `N` numbers the placeholders of one segment from 0, so equal sentences of different statements are
 * the same text (sent once, cached once) whatever their formulas are.
 */

export type PairTag = 'em' | 'strong' | 'del' | 'a';

export type PlaceholderToken =
  | { type: 'text'; text: string }
  /** `parent` is the id of the pair the placeholder sits in, -1 at the top. */
  | { type: 'atom'; id: number; parent: number }
  | { type: 'open'; id: number; parent: number }
  | { type: 'close'; id: number };

export const atomMarkup = (id: number) => `<span translate="no" data-p="${id}"></span>`;
export const openMarkup = (tag: PairTag, id: number) => `<${tag} data-p="${id}">`;
export const closeMarkup = (tag: PairTag) => `</${tag}>`;

/** Text as HTML text: the three characters that could be read as markup, escaped. */
export function escapeHtmlText(text: string): string {
  return text.replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'));
}

const REFERENCE = /&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([A-Za-z][A-Za-z0-9]{1,31}));/g;

/** HTML text back to text: named and numeric character references decoded; anything else as is. */
export function decodeHtmlText(html: string): string {
  return html.replace(REFERENCE, (whole, decimal?: string, hex?: string, name?: string) => {
    if (name) return decodeNamedCharacterReference(name) || whole;
    const code = decimal ? Number.parseInt(decimal, 10) : Number.parseInt(hex!, 16);
    if (code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return '\uFFFD';
    return String.fromCodePoint(code);
  });
}

// A start or end tag, attributes quoted either way or not at all (HTML serializers differ).
const TAG = /<(\/?)([A-Za-z][A-Za-z0-9-]*)((?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*)\s*(\/?)>/y;
const DATA_P = /(?:^|\s)data-p\s*=\s*(?:"\s*(\d+)\s*"|'\s*(\d+)\s*'|(\d+)(?=\s|$))/;

/**
 * Reads a translated segment back into text and placeholders, checking that the markup nests. Accepts
 * what HTML tools do to the tags on the way (`<span …/>` or `<span …></span>`, other quoting, other
 * attribute order or spacing). Undefined when the markup cannot be trusted: a tag the gateway did not
 * send, a close that does not match, text inside a protected span.
 */
export function readPlaceholders(html: string): PlaceholderToken[] | undefined {
  const tokens: PlaceholderToken[] = [];
  const open: { id: number; tag: string }[] = [];
  let text = '';
  let openSpan: number | undefined;
  const flush = () => {
    if (text) tokens.push({ type: 'text', text: decodeHtmlText(text) });
    text = '';
  };
  let i = 0;
  while (i < html.length) {
    const lt = html.indexOf('<', i);
    if (lt < 0) {
      text += html.slice(i);
      break;
    }
    text += html.slice(i, lt);
    TAG.lastIndex = lt;
    const tag = TAG.exec(html);
    if (!tag) {
      // A `<` that starts no tag is text, as HTML parsers read it.
      text += '<';
      i = lt + 1;
      continue;
    }
    i = TAG.lastIndex;
    const [, closing, rawName, attributes, selfClosing] = tag;
    const name = rawName.toLowerCase();
    if (openSpan !== undefined) {
      // Only whitespace may sit between a protected span's tags.
      if (text.trim() || !closing || name !== 'span') return undefined;
      text = '';
      openSpan = undefined;
      continue;
    }
    flush();
    const parent = open.length > 0 ? open[open.length - 1].id : -1;
    if (closing) {
      const top = open.pop();
      if (!top || top.tag !== name) return undefined;
      tokens.push({ type: 'close', id: top.id });
      continue;
    }
    const match = DATA_P.exec(attributes);
    if (!match) return undefined;
    const id = Number(match[1] ?? match[2] ?? match[3]);
    if (name === 'span') {
      tokens.push({ type: 'atom', id, parent });
      if (!selfClosing) openSpan = id;
    } else if (selfClosing) return undefined;
    else {
      tokens.push({ type: 'open', id, parent });
      open.push({ id, tag: name });
    }
  }
  if (openSpan !== undefined || open.length > 0) return undefined;
  flush();
  return tokens;
}
