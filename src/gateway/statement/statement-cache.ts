import { textDigest } from '../../shared/hash.ts';
import { createLruCache } from '../stores/lru-cache.ts';
import { statementError, type StatementFailure } from './statement-failure.ts';
import { DEFAULT_STATEMENT_LIMITS, tooLong, type StatementLimits } from './statement-limits.ts';
import type { HtmlMarking } from './render-statement-html.ts';
import type { Reassembled } from './segment-statement.ts';
import { createStatementThread, type StatementRunner } from './statement-thread.ts';
import type { StatementOutcome, StatementTask } from './statement-work.ts';

export interface StatementCacheOptions {
  /** Memory bound of the memo. @default 32 MiB */
  maxBytes?: number;
  /** @default 6 hours */
  ttlMs?: number;
  /** How long a statement's failure is remembered: a statement that timed out on a busy machine gets another chance. @default 10 minutes */
  failureTtlMs?: number;
  /** Size and nesting bounds of a statement (statement-limits.ts). @default DEFAULT_STATEMENT_LIMITS */
  limits?: Partial<StatementLimits>;
  /** Time the worker may spend on one statement's segmenting, reassembly or HTML. @default 10 seconds */
  timeoutMs?: number;
  /** Runs the Markdown work. @default a worker thread (createStatementThread) */
  runner?: StatementRunner;
}

/**
 * The Markdown work of the Problem.translation link: segmenting a statement, splicing its translation
 * back (which parses again to check the structure) and rendering HTML. It runs off the event loop
 * (statement-thread.ts), and since each is a pure function of its text, results are kept by the
 * hashes of their inputs: a warm page does no Markdown work at all, and a changed translation simply misses.
 * Failures are kept too (for less long), so a statement over the limits or too slow costs once.
 * Each method rejects with a `STATEMENT_NOT_TRANSLATABLE` GraphQL error when the statement cannot be
 * translated, never with the original as its translation.
 */
export interface StatementCache {
  /** The statement's segments to translate (HTML). */
  segment(markdown: string): Promise<string[]>;
  /** The statement with its segments' translations (in the order of `segment`) in place, and what stayed in the source language. */
  reassemble(markdown: string, translated: string[]): Promise<Reassembled>;
  /** The statement as HTML; `marking` says its language and what of it stayed in the source language. */
  renderHtml(markdown: string, marking?: HtmlMarking): Promise<string>;
  /** Stops the worker thread. */
  close(): Promise<void>;
}

export function createStatementCache({
  maxBytes = 32 * 1024 * 1024,
  ttlMs = 6 * 60 * 60 * 1000,
  failureTtlMs = 10 * 60 * 1000,
  limits: limitOptions,
  timeoutMs,
  runner,
}: StatementCacheOptions = {}): StatementCache {
  const limits = { ...DEFAULT_STATEMENT_LIMITS, ...limitOptions };
  const thread = runner ?? createStatementThread({ limits, timeoutMs });
  const values = createLruCache<string | string[] | Reassembled>({
    maxBytes,
    ttlMs,
    sizeOf: (key, value) => 2 * key.length + 64 + sizeOfValue(value),
  });
  const failures = createLruCache<StatementFailure>({ maxBytes: maxBytes / 16, ttlMs: failureTtlMs, sizeOf: (key, value) => 2 * (key.length + value.message.length) + 64 });
  // Equal tasks asked for at the same time (a page, concurrent requests) run once.
  const running = new Map<string, Promise<StatementOutcome>>();
  const outcomeOf = (key: string, task: StatementTask): StatementOutcome | Promise<StatementOutcome> => {
    const value = values.get(key);
    if (value !== undefined) return { value };
    const failure = failures.get(key);
    if (failure) return { failure };
    let pending = running.get(key);
    if (!pending) {
      pending = thread.run(task).then((outcome) => {
        running.delete(key);
        if ('value' in outcome) values.set(key, outcome.value);
        else if (!outcome.failure.transient) failures.set(key, outcome.failure);
        return outcome;
      });
      running.set(key, pending);
    }
    return pending;
  };
  const valueOf = <T>(outcome: StatementOutcome): T => {
    if ('failure' in outcome) throw statementError(outcome.failure);
    return outcome.value as T;
  };
  const run = async <T>(key: string, task: StatementTask): Promise<T> => valueOf<T>(await outcomeOf(key, task));

  /**
   * The statements of one execution step (a page) are answered together, cached or not: each link
   * then queues its texts in the same tick, so the step's texts still go in one translation batch.
   */
  let step: { markdown: string; settle: (outcome: StatementOutcome) => void }[] | undefined;
  const answerStep = async () => {
    const asked = step!;
    step = undefined;
    const outcomes = await Promise.all(asked.map(({ markdown }) => outcomeOf(`s:${textDigest(markdown)}`, { kind: 'segment', markdown })));
    asked.forEach(({ settle }, index) => settle(outcomes[index]));
  };

  return {
    async segment(markdown) {
      // Not even hashed, nor sent to the thread, when it is plainly too long.
      if (markdown.length > limits.maxLength) throw statementError(tooLong(markdown.length, limits.maxLength));
      if (!step) {
        step = [];
        setImmediate(() => void answerStep());
      }
      const outcome = await new Promise<StatementOutcome>((settle) => step!.push({ markdown, settle }));
      return valueOf<string[]>(outcome);
    },
    // By the digests of its parts (memoized), so a warm page hashes nothing: the translations come
    // from the cache as the same strings every time.
    reassemble: (markdown, translated) => run(`r:${[markdown, ...translated].map(textDigest).join(':')}`, { kind: 'reassemble', markdown, translated }),
    renderHtml: (markdown, marking) => run(`h:${textDigest(markdown)}${marking ? `:${markingKey(marking)}` : ''}`, { kind: 'html', markdown, marking }),
    close: () => thread.close(),
  };
}

function sizeOfValue(value: string | string[] | Reassembled): number {
  if (typeof value === 'string') return 2 * value.length;
  if (Array.isArray(value)) return value.reduce((sum, text) => sum + 2 * text.length + 32, 0);
  return 2 * value.statement.length + 32 * value.sourceRanges.length + 32;
}

const markingKey = ({ language, sourceLanguage, sourceRanges }: HtmlMarking) =>
  `${language}:${sourceLanguage ?? ''}:${sourceRanges.map(([start, end]) => `${start}-${end}`).join(',')}`;
