import pLimit, { type LimitFunction } from 'p-limit';
import { ErrorCode, UpstreamError } from '../errors.ts';
import { withTimeout } from '../../shared/with-timeout.ts';
import { translationCacheKey, type TranslationCache, type TranslationKey } from './translation-cache.ts';
import type { TextFormat, TranslatedText } from './translation-client.ts';

/** One failed upstream call, shared by every text it carried. */
export interface BatchFailure {
  error: UpstreamError;
}

export type TranslationOutcome = { result: TranslatedText } | { failure: BatchFailure };

export interface BatchOptions {
  from: string | null;
  to: string;
  format: TextFormat;
}

export interface TranslationBatcherOptions<TContext extends object> {
  cache: TranslationCache;
  /** Most texts in one upstream call. */
  batchSize: number;
  /** Most upstream calls in flight for one request. */
  concurrency: number;
  /** Sends one batch upstream; resolves with one result per text, in order, or rejects. */
  send: (context: TContext, texts: string[], options: BatchOptions) => Promise<TranslatedText[]>;
  /** Called with how each text was served, for metrics and tests. */
  onServed?: (event: { cached: number; joined: number; sent: number; calls: number }) => void;
}

export interface TranslationBatcher<TContext extends object> {
  /**
   * Queues texts for translation within the current request. Everything queued by the request's
   * resolvers before the event loop turns goes out together: per (from, to, format), equal texts once,
   * cached texts not at all, the rest in the fewest calls of at most `batchSize`.
   */
  translate(context: TContext, texts: string[], options: BatchOptions): Promise<TranslationOutcome[]>;
}

interface Group {
  options: BatchOptions;
  /** Each distinct text with the resolvers waiting for it. */
  waiters: Map<string, ((outcome: TranslationOutcome) => void)[]>;
}

export function createTranslationBatcher<TContext extends object>({
  cache,
  batchSize,
  concurrency,
  send,
  onServed,
}: TranslationBatcherOptions<TContext>): TranslationBatcher<TContext> {
  // Texts being translated right now, by cache key, across requests: a second request asking for the
  // same text joins the call already on its way instead of sending another.
  const inFlight = new Map<string, Promise<TranslationOutcome>>();
  const queued = new WeakMap<TContext, Map<string, Group>>();

  async function flush(context: TContext, groups: Map<string, Group>): Promise<void> {
    queued.delete(context);
    const limit = pLimit(concurrency);
    await Promise.all([...groups.values()].map((group) => runGroup(context, group, limit)));
  }

  async function runGroup(context: TContext, { options, waiters }: Group, limit: LimitFunction): Promise<void> {
    const texts = [...waiters.keys()];
    const keys: TranslationKey[] = texts.map((text) => ({ ...options, text }));
    // A cache that cannot answer (fails, throws, or is slow) is a cache miss, never a failed translation.
    const cached = await withTimeout(() => cache.getMany(keys), CACHE_TIMEOUT_MS).catch(() => keys.map(() => undefined));
    const deliver = (text: string, outcome: TranslationOutcome) => {
      for (const resolve of waiters.get(text) ?? []) resolve(outcome);
    };
    const misses: number[] = [];
    let joined = 0;
    texts.forEach((text, index) => {
      const hit = cached[index];
      if (hit) return deliver(text, { result: hit });
      const pending = inFlight.get(translationCacheKey(keys[index]));
      if (pending) {
        joined += 1;
        // Only a success is shared: another request's call may fail because of its own texts, so on
        // failure this text is sent again, alone, for this request.
        return void pending.then((outcome) => ('result' in outcome ? deliver(text, outcome) : sendAlone(index)));
      }
      misses.push(index);
    });
    const sendAlone = (index: number) =>
      limit(() => send(context, [texts[index]], options)).then(
        ([result]) => deliver(texts[index], { result }),
        (error: UpstreamError) => deliver(texts[index], { failure: { error } }),
      );
    const chunks = chunk(misses, batchSize);
    try {
      onServed?.({ cached: texts.length - misses.length - joined, joined, sent: misses.length, calls: chunks.length });
    } catch {
      // Metrics must never cost a translation.
    }
    await Promise.all(
      chunks.map(async (indexes) => {
        const call = limit(() => send(context, indexes.map((index) => texts[index]), options));
        const outcomes = call.then(
          (results): TranslationOutcome[] => results.map((result) => ({ result })),
          (error: UpstreamError): TranslationOutcome[] => {
            const failure = { failure: { error } };
            return indexes.map(() => failure);
          },
        );
        const cacheKeys = indexes.map((index) => translationCacheKey(keys[index]));
        cacheKeys.forEach((key, position) => inFlight.set(key, outcomes.then((all) => all[position])));
        const settled = await outcomes;
        for (const key of cacheKeys) inFlight.delete(key);
        const fresh = settled.flatMap((outcome, position): [TranslationKey, TranslatedText][] =>
          'result' in outcome ? [[keys[indexes[position]], outcome.result]] : [],
        );
        if (fresh.length > 0) await withTimeout(() => cache.setMany(fresh), CACHE_TIMEOUT_MS).catch(() => undefined);
        settled.forEach((outcome, position) => deliver(texts[indexes[position]], outcome));
      }),
    );
  }

  return {
    translate(context, texts, options) {
      let groups = queued.get(context);
      if (!groups) {
        const created = new Map<string, Group>();
        groups = created;
        queued.set(context, created);
        // setImmediate runs after every pending promise job, so all resolvers of this execution step
        // have queued their texts by then.
        setImmediate(() => {
          // Whatever goes wrong in the batcher itself, every waiting resolver gets an answer.
          flush(context, created).catch((error: unknown) => failEveryone(created, error));
        });
      }
      const groupKey = `${options.from ?? 'auto'}:${options.to}:${options.format}`;
      let group = groups.get(groupKey);
      if (!group) {
        group = { options, waiters: new Map() };
        groups.set(groupKey, group);
      }
      const { waiters } = group;
      return Promise.all(
        texts.map(
          (text) =>
            new Promise<TranslationOutcome>((resolve) => {
              const list = waiters.get(text);
              if (list) list.push(resolve);
              else waiters.set(text, [resolve]);
            }),
        ),
      );
    },
  };
}

/** How long the cache may take to answer before the batcher goes on without it. */
const CACHE_TIMEOUT_MS = 250;

function failEveryone(groups: Map<string, Group>, error: unknown): void {
  const failure = {
    failure: { error: new UpstreamError('The gateway could not translate these texts.', { code: ErrorCode.UpstreamError, service: 'translation' }, error) },
  };
  for (const { waiters } of groups.values()) for (const resolvers of waiters.values()) for (const resolve of resolvers) resolve(failure);
}

function chunk<T>(items: T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let start = 0; start < items.length; start += size) chunks.push(items.slice(start, start + size));
  return chunks;
}
