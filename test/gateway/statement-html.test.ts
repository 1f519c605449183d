import { describe, expect, it } from 'vitest';
import { renderStatementHtml } from '../../src/gateway/statement/render-statement-html.ts';
import { segmentStatement } from '../../src/gateway/statement/segment-statement.ts';
import { DEFAULT_STATEMENT_LIMITS } from '../../src/gateway/statement/statement-limits.ts';

describe('renderStatementHtml', () => {
  it('leaves math as escaped TeX marked for a client-side renderer, never typeset', () => {
    const html = renderStatementHtml('If $a < b$ then $$\\sum_{i=1}^{n} a_i$$ holds.\n\n$$\nx^2 \\ge 0\n$$');
    expect(html).toBe(
      '<p>If <code class="language-math math-inline">a &#x3C; b</code> then <code class="language-math math-display">\\sum_{i=1}^{n} a_i</code> holds.</p>\n' +
        '<pre><code class="language-math math-display">x^2 \\ge 0</code></pre>',
    );
    expect(html).not.toMatch(/katex|<math|<svg/i);
  });

  it('renders headings, lists, tables and code with its language', () => {
    const html = renderStatementHtml('## Input\n\n- one\n\n| a | b |\n|:-|-:|\n| `x` | $y$ |\n\n```cpp\nint main() {}\n```');
    expect(html).toContain('<h2>Input</h2>');
    expect(html).toContain('<li>one</li>');
    expect(html).toContain('<td align="left"><code>x</code></td>');
    expect(html).toContain('<td align="right"><code class="language-math math-inline">y</code></td>');
    expect(html).toContain('<pre><code class="language-cpp">int main() {}\n</code></pre>');
  });

  it('shows raw HTML as text, so a statement cannot inject script or handlers', () => {
    const html = renderStatementHtml(
      'Hi <script>alert(1)</script> <img src=x onerror="alert(2)"> <b onclick="alert(3)">bold</b>\n\n<div onmouseover="alert(4)">\nblock\n</div>\n\n<script>alert(5)</script>',
    );
    expect(html).not.toMatch(/<script|<img|<b |<div/i);
    expect(html).toContain('&#x3C;script>alert(1)&#x3C;/script>');
    expect(html).toContain('<p>&#x3C;div onmouseover="alert(4)">\nblock\n&#x3C;/div></p>');
  });

  it('drops javascript: links and keeps ordinary ones', () => {
    const html = renderStatementHtml('[click](javascript:alert(1)) [data](data:text/html,x) [site](https://example.com/a?b=1&c=2)');
    expect(html).not.toMatch(/javascript:|data:text/);
    expect(html).toContain('<a href="https://example.com/a?b=1&#x26;c=2">site</a>');
  });

  it('points every footnote link at an id the page has, and the ids are prefixed once against clobbering', () => {
    const html = renderStatementHtml('A note[^1] and another[^long-name].\n\n[^1]: The note.\n[^long-name]: Other.');
    const ids = [...html.matchAll(/ id="([^"]*)"/g)].map((match) => match[1]);
    const targets = [...html.matchAll(/ href="#([^"]*)"/g)].map((match) => match[1]);
    const described = [...html.matchAll(/ aria-describedby="([^"]*)"/g)].map((match) => match[1]);
    expect(targets).toHaveLength(4);
    for (const target of [...targets, ...described]) expect(ids).toContain(target);
    expect(ids).toContain('user-content-fn-1');
    expect(ids.filter((id) => !id.startsWith('user-content-') || id.startsWith('user-content-user-content-'))).toEqual([]);
  });

  it('renders an empty statement as an empty string', () => {
    expect(renderStatementHtml('')).toBe('');
  });

  it('marks a translation: its language on the whole, translate="no" on code, math and the prose left in the source language', () => {
    const markdown = '## Input\n\nRead $n$ and `k`.\n\n| a | b |\n|---|---|\n| cell one | two |\n\n```cpp\nx &lt; y;\n```\n\nThe end.';
    const { segments, reassembleWithShare } = segmentStatement(markdown);
    // The service breaks the placeholders of "Read $n$ and `k`." and writes markup into the rest: that segment stays English.
    const translated = segments.map((segment) => (segment.includes('data-p') ? 'Lee <script>alert(1)</script>.' : `&lt;b&gt;x&lt;/b&gt; ${segment} &lt;script&gt;alert(2)&lt;/script&gt;`));
    const { statement, sourceRanges } = reassembleWithShare(translated);
    const html = renderStatementHtml(statement, DEFAULT_STATEMENT_LIMITS, { language: 'es-x-mtfrom-en', sourceLanguage: 'en', sourceRanges });
    expect(html).toMatch(/^<div lang="es-x-mtfrom-en">/);
    expect(html).toContain('<p translate="no" lang="en">Read <code class="language-math math-inline" translate="no">n</code> and <code translate="no">k</code>.</p>');
    expect(html).toContain('<pre translate="no"><code class="language-cpp" translate="no">x &#x26;lt; y;\n</code></pre>');
    // Markup the service writes as text stays text, escaped as ever; a tag it adds drops its segment.
    expect(html).toContain('<h2>&#x3C;b>x&#x3C;/b> Input &#x3C;script>alert(2)&#x3C;/script></h2>');
    expect(html).not.toMatch(/<script|<b>/);
    expect(html.match(/translate="no" lang="en"/g)).toHaveLength(1);
    // Only a tag shaped as one reaches the attribute; the original is never wrapped.
    expect(renderStatementHtml('Text.', DEFAULT_STATEMENT_LIMITS, { language: 'es" onload="x', sourceLanguage: null, sourceRanges: [] })).toBe('<p>Text.</p>');
    expect(renderStatementHtml(statement)).not.toMatch(/lang=|translate=/);
  });
});
