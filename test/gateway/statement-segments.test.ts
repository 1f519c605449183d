import { describe, expect, it } from 'vitest';
import { readPlaceholders } from '../../src/gateway/statement/html-placeholders.ts';
import { segmentStatement } from '../../src/gateway/statement/segment-statement.ts';
import { createTranslator } from '../../src/upstreams/translation/translator.ts';
import { countNodes, protectedSpans, shapeWithoutText } from './statement-spans.ts';

/** A stand-in MT that upper-cases the words of HTML text and leaves tags and entities alone, visibly. */
const shout = (html: string) =>
  html.replace(/(<[^>]*>)|([^<]+)/g, (_, tag: string | undefined, text: string | undefined) =>
    tag ?? text!.replace(/&[^;\s]+;|\p{L}+/gu, (word) => (word.startsWith('&') ? word : word.toUpperCase())),
  );
const P = (id: number) => `<span translate="no" data-p="${id}"></span>`;

function translateWith(markdown: string, mt: (html: string) => string = shout) {
  const { segments, reassemble } = segmentStatement(markdown);
  return { segments, result: reassemble(segments.map(mt)) };
}

/** The result keeps every protected span and the tree, apart from text. */
function expectStructureKept(markdown: string, result: string) {
  expect(protectedSpans(result)).toEqual(protectedSpans(markdown));
  expect(shapeWithoutText(result)).toEqual(shapeWithoutText(markdown));
}

describe('segmentStatement on tricky statements', () => {
  it('reads "$5 and $" as the math parser does, so an unescaped currency pair stays untouched as math', () => {
    const markdown = 'It costs $5 and $10 in total.';
    const { segments, result } = translateWith(markdown);
    expect(segments).toEqual([`It costs ${P(0)}10 in total.`]);
    expect(result).toBe('IT COSTS $5 and $10 IN TOTAL.');
    expectStructureKept(markdown, result);
  });

  it('sends an escaped \\$ as a plain dollar sign and escapes it again on the way back', () => {
    const markdown = 'It costs \\$5, not \\$10.';
    const { segments, result } = translateWith(markdown);
    expect(segments).toEqual(['It costs $5, not $10.']);
    expect(result).toBe('IT COSTS \\$5, NOT \\$10.');
    expect(countNodes(result, (node) => node.type === 'inlineMath')).toBe(0);
  });

  it('keeps an unterminated $ a dollar sign, not the start of math', () => {
    const markdown = 'An unterminated $ sign here.';
    const { segments, result } = translateWith(markdown);
    expect(segments).toEqual(['An unterminated $ sign here.']);
    expect(result).toBe('AN UNTERMINATED \\$ SIGN HERE.');
    expectStructureKept(markdown, result);
  });

  it('translates the text of list items and table cells around their math, keeping nesting and table shape', () => {
    const markdown = [
      '- the array $a$ is sorted',
      '  - every $a_i \\le 10^9$',
      '    and more text',
      '',
      '| name | value |',
      '|:--|--:|',
      '| size | $n \\le 10$ |',
      '| op | `x` and a \\| pipe |',
    ].join('\n');
    const { segments, result } = translateWith(markdown);
    // The item's two lines are one sentence: sent joined by a space, written back as one line.
    expect(segments).toEqual([`the array ${P(0)} is sorted`, `every ${P(0)} and more text`, 'name', 'value', 'size', 'op', `${P(0)} and a | pipe`]);
    expect(result).toBe(
      [
        '- THE ARRAY $a$ IS SORTED',
        '  - EVERY $a_i \\le 10^9$ AND MORE TEXT',
        '',
        '| NAME | VALUE |',
        '|:--|--:|',
        '| SIZE | $n \\le 10$ |',
        '| OP | `x` AND A \\| PIPE |',
      ].join('\n'),
    );
    expectStructureKept(markdown, result);
  });

  it('leaves fenced code blocks, their language tags and info strings, and display math blocks alone', () => {
    const markdown = 'Here:\n\n```cpp title="main.cpp"\n// print the answer\nint main() {}\n```\n\n~~~python\nprint(1)\n~~~\n\n$$\n\\sum_{i=1}^{n} a_i\n$$\n\nDone.';
    const { segments, result } = translateWith(markdown);
    expect(segments).toEqual(['Here:', 'Done.']);
    expect(result).toBe(markdown.replace('Here:', 'HERE:').replace('Done.', 'DONE.'));
  });

  it('translates inside nested emphasis around math, keeping the delimiters', () => {
    const markdown = '*see $x$ here* and **bold _nested $y$ text_**';
    const { segments, result } = translateWith(markdown);
    expect(segments).toEqual([
      `<em data-p="0">see ${P(1)} here</em> and <strong data-p="2">bold <em data-p="3">nested ${P(4)} text</em></strong>`,
    ]);
    expect(result).toBe('*SEE $x$ HERE* AND **BOLD _NESTED $y$ TEXT_**');
    expectStructureKept(markdown, result);
  });

  it('translates a heading around its inline code, keeping its level', () => {
    const markdown = '## Use `std::sort` here\n\nText.';
    const { segments, result } = translateWith(markdown);
    expect(segments).toEqual([`Use ${P(0)} here`, 'Text.']);
    expect(result).toBe('## USE `std::sort` HERE\n\nTEXT.');
  });

  it('translates link text but keeps destinations, titles, autolinks and bare URLs byte for byte', () => {
    const markdown = 'Read [the guide](https://example.com/a_b?x=1&y=2 "Guide title") or <https://example.com> or https://x.org/y_z.';
    const { segments, result } = translateWith(markdown);
    expect(segments).toEqual([`Read <a data-p="0">the guide</a> or ${P(1)} or ${P(2)}.`]);
    expect(result).toBe('READ [THE GUIDE](https://example.com/a_b?x=1&y=2 "Guide title") OR <https://example.com> OR https://x.org/y_z.');
    expectStructureKept(markdown, result);
  });

  it('keeps inline HTML tags with their attributes byte for byte and translates the text between them', () => {
    const markdown = 'Press <kbd title="a &amp; b" class="key">Enter</kbd> now.\n\n<div class="note" data-x=\'1\'>\nA block of HTML stays as it is.\n</div>';
    const { segments, result } = translateWith(markdown);
    expect(segments).toEqual([`Press ${P(0)}Enter${P(1)} now.`]);
    expect(result).toBe(markdown.replace('Press', 'PRESS').replace('Enter<', 'ENTER<').replace('now', 'NOW'));
  });

  it('handles an empty statement and a statement that is only a code block without calling anything', () => {
    expect(segmentStatement('').segments).toEqual([]);
    expect(segmentStatement('').reassemble([])).toBe('');
    const onlyCode = '```\n3\n1 2 3\n```\n';
    expect(segmentStatement(onlyCode).segments).toEqual([]);
    expect(segmentStatement(onlyCode).reassemble([])).toBe(onlyCode);
  });

  it('does not send prose without a letter, such as a constraint that is all math', () => {
    expect(segmentStatement('- $1 \\le n \\le 10^5$\n- $|s| = n$, $k \\ge 1$').segments).toEqual([]);
  });

  it('gives equal sentences the same text whatever their formulas, so the batch sends them once', () => {
    const { segments } = segmentStatement('Print $n$.\n\nPrint $a_1 + a_2$.');
    expect(segments).toEqual([`Print ${P(0)}.`, `Print ${P(0)}.`]);
  });

  it('sends soft line breaks as spaces, writing a paragraph back on one line, and keeps line prefixes and hard line breaks', () => {
    const markdown = '> quoted line one\n> line two with $m$\n\n- item one\n  continues here\n\nline a  \nline b\\\nline c';
    const { segments, result } = translateWith(markdown);
    expect(segments).toEqual([`quoted line one line two with ${P(0)}`, 'item one continues here', `line a${P(0)}line b${P(1)}line c`]);
    expect(result).toBe('> QUOTED LINE ONE LINE TWO WITH $m$\n\n- ITEM ONE CONTINUES HERE\n\nLINE A  \nLINE B\\\nLINE C');
    expectStructureKept(markdown, result);
  });

  it('joins the lines of a paragraph when the service returns its line breaks as spaces', () => {
    const markdown = '> quoted line one\n> line two with $m$';
    const { result } = translateWith(markdown, (html) => shout(html).replace(/\s*\n\s*/g, ' '));
    expect(result).toBe('> QUOTED LINE ONE LINE TWO WITH $m$');
    expectStructureKept(markdown, result);
  });

  it('escapes Markdown the service writes into prose, so it cannot become markup', () => {
    const markdown = 'Compute the value of $x$.\n\n| a | b |\n|---|---|\n| cell | $y$ |';
    const mt = (html: string) =>
      html
        .replace('Compute the value of', '# 1. *Calcule* el_valor_ de [$5] `y` a|b ~z~ &lt;b&gt; &amp;amp; AT&amp;T')
        .replace(/^cell$/, '- celda | partida');
    const { result } = translateWith(markdown, mt);
    expectStructureKept(markdown, result);
    expect(result).toBe(
      '\\# 1. \\*Calcule\\* el\\_valor\\_ de \\[\\$5\\] \\`y\\` a\\|b \\~z\\~ \\<b> \\&amp; AT&T $x$.\n\n| a | b |\n|---|---|\n| \\- celda \\| partida | $y$ |',
    );
  });

  it('decodes character references the service returns', () => {
    const { result } = translateWith('A tree.', () => 'Un &aacute;rbol &#8212; &#x263A; &quot;ok&quot;.');
    expect(result).toBe('Un árbol — ☺ "ok".');
  });

  it('accepts placeholders however an HTML serializer rewrote them', () => {
    const markdown = 'Between $l$ and $r$ *inclusive*.';
    const { segments, result } = translateWith(markdown, () =>
      `Entre <span data-p='0' translate="no"/> y <span   translate=no  data-p="1" ></span> <EM data-p=2>incluidos</EM>.`,
    );
    expect(segments).toEqual([`Between ${P(0)} and ${P(1)} <em data-p="2">inclusive</em>.`]);
    expect(result).toBe('Entre $l$ y $r$ *incluidos*.');
    expect(readPlaceholders('<em data-p=2>x</em>')).toEqual([{ type: 'open', id: 2, parent: -1 }, { type: 'text', text: 'x' }, { type: 'close', id: 2 }]);
  });

  it('falls back to the source for a segment whose placeholders are missing, repeated, reordered, moved into other markup or unknown', () => {
    const markdown = 'First $a$ *and* $b$.\n\nSecond $c$.';
    const broken = [
      `Primero ${P(0)} <em data-p="1">y</em>.`, // $b$ missing
      `Primero ${P(2)} <em data-p="1">y</em> ${P(0)}.`, // $a$ and $b$ swapped: formulas keep their order
      `Primero ${P(0)} ${P(0)} <em data-p="1">y</em> ${P(2)}.`, // $a$ twice
      `Primero <em data-p="1">${P(0)} y</em> ${P(2)}.`, // $a$ moved into the emphasis
      `Primero ${P(0)} <em data-p="1">y</em> ${P(2)}<br>.`, // a tag the gateway did not send
      `Primero ${P(0)} <em data-p="1">y ${P(2)}.`, // emphasis never closed
      `Primero <span translate="no" data-p="0">a</span> <em data-p="1">y</em> ${P(2)}.`, // text inside a protected span
    ];
    for (const first of broken) {
      const { reassemble } = segmentStatement(markdown);
      expect(reassemble([first, `Segundo ${P(0)}.`]), first).toBe('First $a$ *and* $b$.\n\nSegundo $c$.');
    }
  });

  it('falls back to the source for a segment whose translation would change the structure anyway', () => {
    const markdown = 'Say *hello*world.\n\nSecond.';
    // `*hola.*mundo`: a `*` after punctuation and before a letter cannot close emphasis.
    const { reassemble } = segmentStatement(markdown);
    const result = reassemble([`Di <em data-p="0">hola.</em>mundo.`, 'Segundo.']);
    expect(result).toBe('Say *hello*world.\n\nSegundo.');
  });

  it('refuses a translation count that does not match the segments', () => {
    expect(() => segmentStatement('One.\n\nTwo.').reassemble(['Uno.'])).toThrow(/expected 2 translations, got 1/);
  });

  it('round-trips through the glossary stand-in in HTML mode', () => {
    const translator = createTranslator();
    const markdown = 'You are given an array of $n$ integers. Print the **minimum** sum.';
    const { result } = translateWith(markdown, (html) => translator.translate(html, 'en', 'es', 'html'));
    expect(result).toContain('$n$');
    expect(result).toMatch(/\*\*.+\*\*/);
    expectStructureKept(markdown, result);
  });

  it('sends each paragraph of a real-looking statement as whole sentences, and keeps math, code, tables, lists and hard breaks', () => {
    const markdown = [
      'You are given an array $a_1, a_2, \\ldots, a_n$ of $n$ integers. For each query',
      '$(l, r)$, print the sum of the elements with indices from $l$ to',
      '$r$ inclusive.',
      '',
      '> **Note.** The answer may not fit into a 32-bit',
      '> integer: use `long long`.',
      '',
      '1. The first line contains $n$',
      '   ($1 \\le n \\le 10^5$).',
      '2. The second line contains',
      '   the elements.  ',
      '   Separated by spaces.\\',
      '   Nothing else.',
      '',
      '| input | output |',
      '|---|---|',
      '| `3 1 2` | the sum |',
      '',
      '```cpp',
      '// prints a &lt; b &amp;&amp; c',
      'cout << a;',
      '```',
    ].join('\n');
    const { segments, result } = translateWith(markdown);
    for (const segment of segments) expect(segment).not.toMatch(/\n/);
    expect(segments[0]).toBe(`You are given an array ${P(0)} of ${P(1)} integers. For each query ${P(2)}, print the sum of the elements with indices from ${P(3)} to ${P(4)} inclusive.`);
    expect(segments).toContain(`<strong data-p="0">Note.</strong> The answer may not fit into a 32-bit integer: use ${P(1)}.`);
    expect(result).toContain('YOU ARE GIVEN AN ARRAY $a_1, a_2, \\ldots, a_n$ OF $n$ INTEGERS. FOR EACH QUERY $(l, r)$, PRINT');
    expect(result).toContain('> **NOTE.** THE ANSWER MAY NOT FIT INTO A 32-BIT INTEGER: USE `long long`.');
    expect(result).toContain('2. THE SECOND LINE CONTAINS THE ELEMENTS.  \n   SEPARATED BY SPACES.\\\n   NOTHING ELSE.');
    expect(result).toContain('```cpp\n// prints a &lt; b &amp;&amp; c\ncout << a;\n```');
    expectStructureKept(markdown, result);
  });
});
