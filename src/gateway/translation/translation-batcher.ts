import type { GraphQLError } from 'graphql';
import type { UpstreamError } from '../errors.ts';
import { createCallGate, type CallGate } from './translation-call-gate.ts';
import type { TranslationCache } from './translation-cache.ts';
import type { TranslatedText } from './translation-client.ts';
import { createServiceLimits, type ServiceLimits } from './translation-limits.ts';
import { createFailingTexts, type FailingTexts } from './failing-texts.ts';
import type { BatchFailure, BatchOptions, TranslationOutcome, TranslationServedEvent } from './batch/batch-types.ts';
import { asUpstreamError } from './batch/call-failures.ts';
import { flushGroup } from './batch/group-flush.ts';
import type { BatchShared } from './batch/group-work.ts';
import { groupFor, settleEveryone, waitFor, type Group } from './batch/waiters.ts';

// The batcher's parts are in batch/: queueing a request's texts (waiters.ts), one group's flush
// (group-flush.ts: cache, joins, sending), sizing the calls (sizing.ts), one round of calls and the
// narrowing of a 500 to the text it is about (call-round.ts, narrowing.ts), learning from refusals
// (refusals.ts).
export type { BatchFailure, BatchOptions, TranslationOutcome, TranslationServedEvent } from './batch/batch-types.ts';
export { oldestMadeAt } from './batch/items.ts';

export interface TranslationBatcherOptions<TContext extends object> {
  cache: TranslationCache;
  /** Most texts in one upstream call (TRANSLATION_BATCH_SIZE): learning never goes above it. */
  batchSize: number;
  /** Most characters in one upstream call, summed over its texts (TRANSLATION_MAX_CHARS_PER_CALL). @default no bound */
  maxCharsPerCall?: number;
  /** Longest text the gateway sends (TRANSLATION_MAX_TEXT_LENGTH), named when the service refuses one. */
  maxTextLength?: number;
  /** Most upstream calls in flight for one request; used when no `gate` is given. */
  concurrency: number;
  /** Every call goes through it: per-request concurrency and call budget. @default a gate of `concurrency` */
  gate?: CallGate;
  /** What the service accepted and refused so far, shared by every request. @default fresh */
  limits?: ServiceLimits;
  /** Texts the service failed on lately, shared by every request. @default fresh */
  failingTexts?: FailingTexts;
  /** Sends one batch upstream; resolves with one result per text, in order, or rejects. */
  send: (context: TContext, texts: string[], options: BatchOptions) => Promise<TranslatedText[]>;
  /** Reads the limits the service publishes into `limits.published`; asked at a flush's first refusal (it reads only when not known). */
  readPublishedLimits?: (context: TContext) => Promise<void>;
  /**
   * A text was refused alone: the error when the cause holds for the whole group (a language the
   * service does not offer), else undefined.
   */
  explainGroup?: (context: TContext, options: BatchOptions, refusal: UpstreamError) => Promise<GraphQLError | undefined>;
  /** Called with how each group's texts were served, for metrics and tests. */
  onServed?: (event: TranslationServedEvent) => void;
}

export interface TranslationBatcher<TContext extends object> {
  /**
   * Queues texts for translation within the current request. Everything queued by the request's
   * resolvers before the event loop turns goes out together: per (from, to, format), equal texts once,
   * cached texts not at all, the rest in the fewest calls the service accepts.
   */
  translate(context: TContext, texts: string[], options: BatchOptions): Promise<TranslationOutcome[]>;
}

export function createTranslationBatcher<TContext extends object>({
  cache,
  batchSize,
  maxCharsPerCall,
  maxTextLength,
  concurrency,
  gate = createCallGate({ concurrency }),
  limits = createServiceLimits(),
  failingTexts = createFailingTexts(),
  send,
  readPublishedLimits,
  explainGroup,
  onServed,
}: TranslationBatcherOptions<TContext>): TranslationBatcher<TContext> {
  const queued = new WeakMap<TContext, Map<string, Group>>();
  // One read at a time for the gateway; asked again once it settled, since the published limit expires too.
  let reading: Promise<void> | undefined;
  const batch: BatchShared<TContext> = {
    cache,
    batchSize,
    maxCharsPerCall,
    maxTextLength,
    gate,
    limits,
    failingTexts,
    send,
    explainGroup,
    onServed,
    inFlight: new Map(),
    failedRequests: new WeakMap(),
    readPublished(context) {
      if (!reading && readPublishedLimits) {
        reading = readPublishedLimits(context)
          .catch(() => undefined)
          .finally(() => {
            reading = undefined;
          });
      }
      return reading;
    },
  };

  async function flush(context: TContext, groups: Map<string, Group>): Promise<void> {
    queued.delete(context);
    await Promise.all([...groups.values()].map((group) => flushGroup(batch, context, group)));
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
          flush(context, created).catch((error: unknown) => settleEveryone(created, { failure: { error: asUpstreamError(error) } }));
        });
      }
      return waitFor(groupFor(groups, options), texts);
    },
  };
}
