import { sha256Of } from '../../shared/hash.ts';
import { createLruCache } from '../cache/lru-cache.ts';
import { renderStatementHtml } from './render-statement-html.ts';
import { segmentStatement, type SegmentedStatement } from './segment-statement.ts';

export interface StatementMemoOptions {
  /** Memory bound, shared by the three memos below. @default 32 MiB */
  maxBytes?: number;
  /** @default 6 hours */
  ttlMs?: number;
}

/**
 * Parsing a statement, splicing its translation back (which parses again to check the structure)
 * and rendering HTML cost milliseconds each, far more than a cached translation. All three are pure
 * functions of their text, so their results are kept by a hash of their inputs: a warm page does no
 * Markdown work at all, and a changed translation simply misses.
 */
export interface StatementMemo {
  segment(markdown: string): SegmentedStatement;
  reassemble(markdown: string, statement: SegmentedStatement, translated: string[]): string;
  renderHtml(markdown: string): string;
}


export function createStatementMemo({ maxBytes = 32 * 1024 * 1024, ttlMs = 6 * 60 * 60 * 1000 }: StatementMemoOptions = {}): StatementMemo {
  // A segmented statement holds its parse tree: count it as a few times its text.
  const segmented = createLruCache<{ statement: SegmentedStatement; size: number }>({
    maxBytes: maxBytes / 2,
    ttlMs,
    sizeOf: (_key, value) => value.size,
  });
  const strings = createLruCache<string>({ maxBytes: maxBytes / 2, ttlMs, sizeOf: (key, value) => 2 * (key.length + value.length) + 64 });
  return {
    segment(markdown) {
      const key = sha256Of(markdown);
      const hit = segmented.get(key);
      if (hit) return hit.statement;
      const statement = segmentStatement(markdown);
      segmented.set(key, { statement, size: 16 * markdown.length + 1024 });
      return statement;
    },
    reassemble(markdown, statement, translated) {
      const key = `r:${sha256Of(markdown, ...translated)}`;
      const hit = strings.get(key);
      if (hit !== undefined) return hit;
      const result = statement.reassemble(translated);
      strings.set(key, result);
      return result;
    },
    renderHtml(markdown) {
      const key = `h:${sha256Of(markdown)}`;
      const hit = strings.get(key);
      if (hit !== undefined) return hit;
      const html = renderStatementHtml(markdown);
      strings.set(key, html);
      return html;
    },
  };
}
