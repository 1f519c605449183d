import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { escapeHtmlText } from '../../src/gateway/statement/html-placeholders.ts';
import { segmentStatement } from '../../src/gateway/statement/segment-statement.ts';
import { dataset } from '../../src/upstreams/problems/data/index.ts';
import { startStack, type Stack } from '../helpers/start-stack.ts';
import { protectedSpans, shapeWithoutText } from './statement-spans.ts';

interface Node {
  id: string;
  title: string;
  statement: string;
  translation: { title: string; statement: string; statementHtml: string };
}

const FIRST_PAGE = dataset.problems.slice(0, 20);
/** A batch limit with room for the page's distinct texts (titles and segments), from the data. */
const PAGE_TEXTS = new Set(FIRST_PAGE.flatMap((problem) => [escapeHtmlText(problem.title), ...segmentStatement(problem.statement).segments])).size;

describe('protected statements through the whole stack, over real HTTP', () => {
  let stack: Stack;
  const translateRequests = () => stack.translation.stats.lastRequests.filter((request) => request.path === '/translate');

  beforeAll(async () => {
    stack = await startStack({ settings: { translationBatchSize: PAGE_TEXTS, problemsCacheTtlSeconds: 0 } });
    stack.translation.configure({ maxBatchSize: PAGE_TEXTS });
  });
  afterAll(async () => {
    await stack?.close();
  });
  beforeEach(() => stack.translation.resetStats());

  it('translates a page of 20 in as many POST /translate calls as without protection: one, titles and segments together', async () => {
    const result = await stack.query<{ problems: { nodes: Node[] } }>(/* GraphQL */ `{
      problems(first: 20) { nodes { id title statement translation(to: "es") { title statement } } }
    }`);
    expect(result.errors).toBeUndefined();
    const nodes = result.data!.problems.nodes;
    expect(nodes.map((node) => node.id)).toEqual(FIRST_PAGE.map((problem) => problem.id));

    // Unprotected, the page was 2 texts a problem; either way it fits the batch limit in one call.
    const withoutProtection = Math.ceil((2 * nodes.length) / PAGE_TEXTS);
    expect(stack.translation.stats.byRoute['POST /translate']).toBe(withoutProtection);
    expect(withoutProtection).toBe(1);
    const [request] = translateRequests();
    const body = request.body as { q: string[]; format: string; target: string; source: string };
    expect(body).toMatchObject({ format: 'html', target: 'es', source: 'auto' });
    expect(body.q).toHaveLength(PAGE_TEXTS);
    expect(body.q.join('\n')).not.toMatch(/[$`]/);

    for (const node of nodes) {
      expect(protectedSpans(node.translation.statement), node.id).toEqual(protectedSpans(node.statement));
      expect(shapeWithoutText(node.translation.statement), node.id).toEqual(shapeWithoutText(node.statement));
      expect(node.translation.statement, node.id).not.toBe(node.statement);
    }
    expect(nodes.filter((node) => node.translation.title !== node.title).length).toBeGreaterThan(nodes.length / 2);
  });

  it('offers statementHtml: the translated statement as HTML, math left as TeX', async () => {
    const result = await stack.query(/* GraphQL */ `{ problem(id: "p1020") { statement translation(to: "es") { statement statementHtml } } }`);
    expect(result.errors).toBeUndefined();
    const { statement, statementHtml } = result.data.problem.translation;
    expect(statement).toContain('## Entrada');
    // Marked as machine translation from English, as the W3C and search engines read it: the whole
    // in Spanish (`es-x-mtfrom-en`), what the gateway kept from the service (math, code) `translate="no"`.
    expect(statementHtml).toMatch(/^<div lang="es-x-mtfrom-en"><p>/);
    expect(statementHtml).toContain('<h2>Entrada</h2>');
    expect(statementHtml).toMatch(/<\/div>$/);
    expect(statementHtml).toContain('<code class="language-math math-inline" translate="no">A</code>');
    expect(statementHtml).toContain(
      '<code class="language-math math-display" translate="no">S = \\frac{1}{2} \\left| (B - A) \\times (C - A) \\right|.</code>',
    );
    expect(statementHtml).toContain('<pre translate="no"><code translate="no">3\n2 6 8 2 7 7\n');
    expect(statementHtml).not.toMatch(/katex|<script/i);
  });

  it('answers statementHtml alone, from the same cached translation', async () => {
    const result = await stack.query(/* GraphQL */ `{ problem(id: "p1020") { translation(to: "es") { statementHtml } } }`);
    expect(result.errors).toBeUndefined();
    expect(result.data.problem.translation.statementHtml).toContain('<h2>Entrada</h2>');
    expect(stack.translation.stats.byRoute['POST /translate'] ?? 0).toBe(0);
  });
});
