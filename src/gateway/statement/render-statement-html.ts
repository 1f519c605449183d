import type { Element, Root as HastRoot } from 'hast';
import type { Nodes, Paragraph, PhrasingContent, Root, Text } from 'mdast';
import rehypeSanitize, { defaultSchema, type Options as SanitizeSchema } from 'rehype-sanitize';
import rehypeStringify from 'rehype-stringify';
import remarkRehype from 'remark-rehype';
import { statementParser } from './parse-statement.ts';
import { checkStatementText, checkStatementTree, DEFAULT_STATEMENT_LIMITS, MAX_TRANSLATION_GROWTH, type StatementLimits } from './statement-limits.ts';

/**
 * A statement's Markdown as HTML for a client to show. Math stays TeX, as remark-math marks it for
 * KaTeX or MathJax on the client (`rehype-katex` reads exactly these classes):
 * `<code class="language-math math-inline">` inline, `<pre><code class="language-math math-display">`
 * for a `$$` block, and `math-display` on an inline `$$…$$` too, since its author asked for display style.
 *
 * Safety, twice over: raw HTML in a statement is shown as text (escaped, never parsed), and the
 * result is sanitized with GitHub's rules (rehype-sanitize), which also drops `javascript:` links.
 */
export function renderStatementHtml(markdown: string, limits: StatementLimits = DEFAULT_STATEMENT_LIMITS, marking?: HtmlMarking): string {
  // What is rendered is a translation, which may be longer than its source.
  checkStatementText(markdown, { ...limits, maxLength: MAX_TRANSLATION_GROWTH * limits.maxLength });
  const tree = renderer.parse(markdown);
  checkStatementTree(tree, limits);
  const file = { value: markdown, data: { marking } };
  return renderer.stringify(renderer.runSync(tree, file), file);
}

/**
 * What the HTML of a translation says of its languages, as the W3C asks (`lang`, and `translate="no"`
 * on text machine translation must leave alone): the whole is wrapped in `<div lang="…">`, code and
 * math (protected from the service) carry `translate="no"`, and so do the paragraphs, headings and
 * table cells the gateway left in the source language, with that language as their `lang`.
 */
export interface HtmlMarking {
  /** The `lang` of the whole, a BCP 47 tag: `es`, or `es-x-mtfrom-en` for a machine translation from English. */
  language: string;
  /** The original's language, the `lang` of what stayed in it; null when not known. */
  sourceLanguage: string | null;
  /** Offsets `[start, end)` in the Markdown of prose left in the source language. */
  sourceRanges: [number, number][];
}

/** Elements whose content is one segment of prose (segment-statement.ts: paragraphs, headings, table cells). */
const PROSE_ELEMENTS = new Set(['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'td', 'th']);
/** What the gateway never sends to the service: code, samples and math. */
const PROTECTED_ELEMENTS = new Set(['code', 'pre']);
/** Only tags shaped as BCP 47 ones reach an attribute (the stringifier escapes values anyway). */
const LANGUAGE_TAG = /^[A-Za-z]{2,8}(?:-[A-Za-z0-9]{1,8})*$/;

function markLanguages() {
  return (tree: HastRoot, file: { data: object }) => {
    const marking = (file.data as { marking?: HtmlMarking }).marking;
    if (!marking || !LANGUAGE_TAG.test(marking.language)) return;
    const sourceLanguage = marking.sourceLanguage && LANGUAGE_TAG.test(marking.sourceLanguage) ? marking.sourceLanguage : undefined;
    const inSource = (element: Element) => {
      const start = element.position?.start.offset;
      const end = element.position?.end.offset;
      return start !== undefined && end !== undefined && marking.sourceRanges.some(([from, to]) => from >= start && to <= end);
    };
    const visit = (node: HastRoot | Element) => {
      for (const child of node.children) {
        if (child.type !== 'element') continue;
        if (PROTECTED_ELEMENTS.has(child.tagName)) child.properties.translate = 'no';
        else if (PROSE_ELEMENTS.has(child.tagName) && inSource(child)) {
          child.properties.translate = 'no';
          if (sourceLanguage) child.properties.lang = sourceLanguage;
        }
        visit(child);
      }
    };
    visit(tree);
    tree.children = [{ type: 'element', tagName: 'div', properties: { lang: marking.language }, children: tree.children as Element['children'] }];
  };
}

const FLOW_PARENTS = new Set(['root', 'blockquote', 'listItem', 'footnoteDefinition']);

/** Raw HTML becomes text: a paragraph of it where it stood as a block. */
function rawHtmlAsText() {
  return (tree: Root, file: { value: unknown }) => {
    const source = String(file.value);
    const visit = (node: Nodes) => {
      if (!('children' in node)) return;
      node.children = node.children.map((child) => {
        if (child.type === 'html') {
          const text: Text = { type: 'text', value: child.value, position: child.position };
          const paragraph: Paragraph = { type: 'paragraph', children: [text] };
          return (FLOW_PARENTS.has(node.type) ? paragraph : text) as unknown as typeof child;
        }
        if (child.type === 'inlineMath' && source.startsWith('$$', child.position?.start.offset ?? -1)) markDisplay(child);
        visit(child);
        return child;
      });
    };
    visit(tree);
  };
}

function markDisplay(node: Extract<PhrasingContent, { type: 'inlineMath' }>): void {
  const properties = (node.data ??= {}).hProperties ?? {};
  node.data.hProperties = { ...properties, className: ['language-math', 'math-display'] };
}

const MATH_CLASSES = ['math-inline', 'math-display'];
const schema: SanitizeSchema = {
  ...defaultSchema,
  attributes: {
    ...defaultSchema.attributes,
    '*': [...(defaultSchema.attributes?.['*'] ?? []), ['translate', 'no']],
    // GitHub's rules keep `language-*` on code; math also needs its inline/display marker.
    code: [['className', /^language-./, ...MATH_CLASSES]],
  },
};

/**
 * Footnote links point at the ids the sanitizer will give: it prefixes every id (against DOM
 * clobbering) but no href, so remark-rehype's own prefix would make `user-content-user-content-fn-1`.
 */
function footnoteLinksToPrefixedIds() {
  const prefix = schema.clobberPrefix ?? '';
  return (tree: HastRoot) => {
    const visit = (node: HastRoot | Element) => {
      for (const child of node.children) {
        if (child.type !== 'element') continue;
        const { href, dataFootnoteRef, dataFootnoteBackref } = child.properties;
        if (typeof href === 'string' && href.startsWith('#') && (dataFootnoteRef !== undefined || dataFootnoteBackref !== undefined)) {
          child.properties.href = `#${prefix}${href.slice(1)}`;
        }
        visit(child);
      }
    };
    visit(tree);
  };
}

const renderer = statementParser()
  .use(rawHtmlAsText)
  .use(remarkRehype, { clobberPrefix: '' })
  .use(footnoteLinksToPrefixedIds)
  .use(markLanguages)
  .use(rehypeSanitize, schema)
  .use(rehypeStringify)
  .freeze();
