import { sha256Of } from '../../shared/hash.ts';
import { createLruCache } from '../stores/lru-cache.ts';
import { renderStatementHtml, type HtmlMarking } from './render-statement-html.ts';
import { segmentStatement, type Reassembled, type SegmentedStatement } from './segment-statement.ts';
import { failureOf, type StatementFailure } from './statement-failure.ts';
import type { StatementLimits } from './statement-limits.ts';

/** The Markdown work of the Problem.translation link, as messages a worker thread can take. */
export type StatementTask =
  | { kind: 'segment'; markdown: string }
  | { kind: 'reassemble'; markdown: string; translated: string[] }
  | { kind: 'html'; markdown: string; marking?: HtmlMarking };

export type StatementOutcome = { value: string | string[] | Reassembled } | { failure: StatementFailure };

export type RunStatementTask = (task: StatementTask) => StatementOutcome;

/**
 * Runs tasks synchronously, failures included as outcomes. Keeps the statements it segmented, so that
 * reassembling a translation (which comes back soon after) does not parse its statement again.
 */
export function createStatementWork(limits: StatementLimits, { maxBytes = 32 * 1024 * 1024, ttlMs = 10 * 60 * 1000 } = {}): RunStatementTask {
  // A segmented statement holds its parse tree: about 60 bytes a character.
  const segmented = createLruCache<{ statement: SegmentedStatement; size: number }>({ maxBytes, ttlMs, sizeOf: (_key, value) => value.size });
  const segment = (markdown: string) => {
    const key = sha256Of(markdown);
    const hit = segmented.get(key);
    if (hit) return hit.statement;
    const statement = segmentStatement(markdown, limits);
    segmented.set(key, { statement, size: 64 * markdown.length + 1024 });
    return statement;
  };
  return (task) => {
    try {
      switch (task.kind) {
        case 'segment':
          return { value: segment(task.markdown).segments };
        case 'reassemble':
          return { value: segment(task.markdown).reassembleWithShare(task.translated) };
        case 'html':
          return { value: renderStatementHtml(task.markdown, limits, task.marking) };
      }
    } catch (error) {
      return { failure: failureOf(error) };
    }
  };
}
