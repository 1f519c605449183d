/**
 * Applies `translate` to the text of an HTML fragment and nothing else: tags (with their attribute
 * values), comments, doctypes and the contents of <script> and <style> come back byte for byte.
 * Text runs are passed whole, so a `<` that does not start a tag ("a < b") stays part of the sentence.
 */
export function mapHtmlText(html: string, translate: (text: string) => string): string {
  let out = '';
  let text = '';
  const flush = () => {
    if (text) out += translate(text);
    text = '';
  };
  let i = 0;
  while (i < html.length) {
    const open = html.indexOf('<', i);
    if (open < 0) {
      text += html.slice(i);
      break;
    }
    text += html.slice(i, open);
    if (html.startsWith('<!--', open)) {
      const close = html.indexOf('-->', open + 4);
      const end = close < 0 ? html.length : close + 3;
      flush();
      out += html.slice(open, end);
      i = end;
      continue;
    }
    const end = /[A-Za-z/!?]/.test(html[open + 1] ?? '') ? tagEnd(html, open) : -1;
    if (end < 0) {
      text += '<';
      i = open + 1;
      continue;
    }
    flush();
    const tag = html.slice(open, end);
    out += tag;
    i = end;
    const raw = /^<(script|style)\b/i.exec(tag);
    if (raw && !tag.endsWith('/>')) {
      const closing = html.slice(i).search(new RegExp(`</${raw[1]}\\s*>`, 'i'));
      const stop = closing < 0 ? html.length : i + closing;
      out += html.slice(i, stop);
      i = stop;
    }
  }
  flush();
  return out;
}

/** Index just past the `>` closing the tag that starts at `open`, skipping `>` inside quoted attribute values; -1 if none. */
function tagEnd(html: string, open: number): number {
  let quote = '';
  for (let j = open + 1; j < html.length; j++) {
    const c = html[j];
    if (quote) {
      if (c === quote) quote = '';
    } else if ((c === '"' || c === "'") && previousNonSpace(html, j) === '=') quote = c;
    else if (c === '>') return j + 1;
  }
  const plain = html.indexOf('>', open);
  return plain < 0 ? -1 : plain + 1;
}

function previousNonSpace(html: string, index: number): string | undefined {
  let p = index - 1;
  while (p >= 0 && /\s/.test(html[p])) p--;
  return html[p];
}
