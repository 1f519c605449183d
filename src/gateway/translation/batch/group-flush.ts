import { withStoreTimeout } from '../../../shared/with-timeout.ts';
import { requestKeyOf } from '../translation-call-gate.ts';
import { translationCacheKey, type TranslationKey } from '../translation-cache.ts';
import type { TranslatedText } from '../translation-client.ts';
import { createLimitLearner } from '../translation-limits.ts';
import type { SendStats, TranslationOutcome } from './batch-types.ts';
import { knownNotTranslatable } from './call-failures.ts';
import type { BatchShared, GroupWork } from './group-work.ts';
import type { Root } from './items.ts';
import { sendAll } from './send-all.ts';
import { settleWaiters, type Group } from './waiters.ts';

/** How long the cache may take to answer before the batcher goes on without it. */
const CACHE_TIMEOUT_MS = 250;

/** Where each text of a group is served from before any call: what is left to send, and what joins calls on their way. */
interface Lookup {
  /** Positions of the texts to send. */
  misses: number[];
  /** Texts joining another request's call: each resolves with its position when it must be sent again. */
  joins: Promise<number | undefined>[];
  /** Texts failed at once, as the service failed on them lately. */
  knownFailing: number;
}

/**
 * Translates one group of a request's texts: cached texts from the cache, texts another request is
 * translating by joining its call, the rest sent (sendAll), kept in the cache, and reported (onServed).
 */
export async function flushGroup<TContext extends object>(batch: BatchShared<TContext>, context: TContext, { options, waiters }: Group): Promise<void> {
  const texts = [...waiters.keys()];
  const keys: TranslationKey[] = texts.map((text) => ({ ...options, text }));
  const deliver = (text: string, outcome: TranslationOutcome) => settleWaiters(waiters.get(text), outcome);
  const { misses, joins, knownFailing } = await lookUp(batch, texts, keys, deliver);
  const work: GroupWork<TContext> = {
    context,
    options,
    request: requestKeyOf(context),
    calls: batch.gate.of(context),
    learner: createLimitLearner<Root>(batch.limits, { maxTexts: batch.batchSize, maxChars: batch.maxCharsPerCall }),
    stats: { calls: [], splitCalls: 0, splitTexts: 0, unusable: 0, narrowedCalls: 0, failingTexts: 0 },
  };
  const delivered = await Promise.all([
    sendTexts(batch, work, keys, misses, true),
    Promise.all(joins).then((again) => {
      const resend = again.filter((index): index is number => index !== undefined);
      return resend.length > 0 ? sendTexts(batch, work, keys, resend, false) : [];
    }),
  ]);
  const learned = work.learner.commit();
  reportServed(batch, work.stats, {
    cached: texts.length - misses.length - joins.length - knownFailing,
    joined: joins.length,
    sent: misses.length,
    knownFailing,
    learned,
  });
  for (const [text, outcome] of delivered.flat()) deliver(text, outcome);
}

/** Serves what it can without a call: from the cache, known failing texts, and calls already on their way. */
async function lookUp<TContext extends object>(
  batch: BatchShared<TContext>,
  texts: string[],
  keys: TranslationKey[],
  deliver: (text: string, outcome: TranslationOutcome) => void,
): Promise<Lookup> {
  const { cache, failingTexts, inFlight } = batch;
  // A cache that cannot answer (fails, throws, or is slow) is a cache miss, never a failed translation.
  const cached = await withStoreTimeout(cache, () => cache.getMany(keys), CACHE_TIMEOUT_MS).catch(() => keys.map(() => undefined));
  const lookup: Lookup = { misses: [], joins: [], knownFailing: 0 };
  texts.forEach((text, index) => {
    const hit = cached[index];
    if (hit) return deliver(text, { result: hit });
    if (failingTexts.has(translationCacheKey(keys[index]))) {
      lookup.knownFailing += 1;
      return deliver(text, { failure: { error: knownNotTranslatable(text, failingTexts.ttlMs) } });
    }
    const pending = inFlight.get(translationCacheKey(keys[index]));
    if (!pending) return void lookup.misses.push(index);
    // A failure is the text's own (a 400 is narrowed down to the text it is about) or the
    // service's (down, slow, key refused), so it holds for this request too; only one that belongs
    // to the other request sends the text again, in one batch with the others like it.
    lookup.joins.push(pending.then((outcome) => (('failure' in outcome && outcome.failure.ownRequest) ? index : void deliver(text, outcome))));
  });
  return lookup;
}

/**
 * Sends the texts at `indexes` and keeps their translations in the cache; `share`: other requests
 * asking for them meanwhile join these calls. Resolves with each text's outcome.
 */
async function sendTexts<TContext extends object>(
  batch: BatchShared<TContext>,
  work: GroupWork<TContext>,
  keys: TranslationKey[],
  indexes: number[],
  share: boolean,
): Promise<(readonly [string, TranslationOutcome])[]> {
  const { cache, inFlight } = batch;
  const roots = indexes.map((index): Root => ({ text: keys[index].text }));
  const settled = sendAll(batch, work, roots).then(() => roots.map((root) => root.outcome!));
  const cacheKeys = indexes.map((index) => translationCacheKey(keys[index]));
  if (share) cacheKeys.forEach((key, position) => inFlight.set(key, settled.then((all) => all[position])));
  const outcomes = await settled;
  const fresh = outcomes.flatMap((outcome, position): [TranslationKey, TranslatedText][] =>
    'result' in outcome ? [[keys[indexes[position]], outcome.result]] : [],
  );
  if (fresh.length > 0) await withStoreTimeout(cache, () => cache.setMany(fresh), CACHE_TIMEOUT_MS).catch(() => undefined);
  if (share) for (const key of cacheKeys) inFlight.delete(key);
  return outcomes.map((outcome, position) => [keys[indexes[position]].text, outcome] as const);
}

/** Tells onServed how the group's texts were served; metrics must never cost a translation. */
function reportServed<TContext extends object>(
  batch: BatchShared<TContext>,
  stats: SendStats,
  counts: { cached: number; joined: number; sent: number; knownFailing: number; learned: ReturnType<GroupWork<TContext>['learner']['commit']> },
): void {
  try {
    batch.onServed?.({
      cached: counts.cached,
      joined: counts.joined,
      sent: counts.sent,
      calls: stats.calls.length,
      callSizes: stats.calls,
      splitCalls: stats.splitCalls,
      splitTexts: stats.splitTexts,
      learned: counts.learned,
      unusable: stats.unusable,
      narrowedCalls: stats.narrowedCalls,
      failingTexts: stats.failingTexts,
      knownFailing: counts.knownFailing,
      limits: batch.limits,
    });
  } catch {
    // Metrics must never cost a translation.
  }
}
