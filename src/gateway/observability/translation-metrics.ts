import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { limitsInForce, type LimitInForce, type ServiceLimits } from '../translation/translation-limits.ts';
import type { TranslationServedEvent } from '../translation/translation-batcher.ts';

/**
 * What the translation batcher reports after each group of texts: cache hits and misses, texts per
 * call, splits, limits learned. `translationBatchSize` (`TRANSLATION_BATCH_SIZE`) sizes each call of
 * a batch when the report gives no sizes.
 */
export function createTranslationMetrics(registry: Registry, translationBatchSize: number): (event: TranslationServedEvent) => void {
  const registers = [registry];
  const batchSize = new Histogram({
    name: 'gateway_translation_batch_size',
    help: 'Texts sent in one POST /translate.',
    buckets: [1, 2, 5, 10, 20, 50, 100, 200, 500],
    registers,
  });
  const cacheHits = new Counter({
    name: 'gateway_translation_cache_hits_total',
    help: 'Texts whose translation came from the translation cache.',
    registers,
  });
  const cacheMisses = new Counter({
    name: 'gateway_translation_cache_misses_total',
    help: 'Texts not in the translation cache: sent upstream, or joined to a call already on its way for another request.',
    registers,
  });
  const reusedTranslations = new Counter({
    name: 'gateway_translations_reused_total',
    help: "Problem translations (Problem.translation) reused whole, as assembled lately from the same title and statement: none of their texts looked up in the translation cache.",
    registers,
  });
  const splits = new Counter({
    name: 'gateway_translation_splits_total',
    help: 'Translation work split to fit the service: `call` a call refused as too large and sent again in parts, `text` a text cut at paragraph or sentence boundaries.',
    labelNames: ['kind'] as const,
    registers,
  });
  const limitsLearned = new Counter({
    name: 'gateway_translation_limits_learned_total',
    help: 'Limits of the translation service learned or lowered from its refusals: `texts` per call, `chars` per call, `longest` text.',
    labelNames: ['limit'] as const,
    registers,
  });
  const unusableAnswers = new Counter({
    name: 'gateway_translation_unusable_answers_total',
    help: 'Calls to the translation service answered 200 with no usable translation (an empty one for a text that is not, or not a list of texts): failed calls, nothing of them cached or served.',
    registers,
  });
  // The limits as the translation batcher last reported them (one live object per gateway), read when scraped.
  let limits: ServiceLimits | undefined;
  const inForce = () => (limits ? limitsInForce(limits) : []);
  const limitGauge = (name: string, help: string, valueOf: (limit: LimitInForce) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ['limit'] as const,
      registers,
      collect() {
        this.reset();
        for (const limit of inForce()) this.set({ limit: limit.limit }, valueOf(limit));
      },
    });
  limitGauge(
    'gateway_translation_limit',
    'Limits of the translation service in force: `texts` and `chars` per call and `longest` text as learned from its refusals (each expires and is tried again), `published_chars` as it publishes. No series: no limit known.',
    (limit) => limit.value,
  );
  limitGauge('gateway_translation_limit_age_seconds', 'How long ago each limit of gateway_translation_limit was learned (or read, for `published_chars`).', (limit) => limit.ageSeconds);
  for (const kind of ['call', 'text']) splits.inc({ kind }, 0);
  for (const limit of ['texts', 'chars', 'longest']) limitsLearned.inc({ limit }, 0);

  return ({ cached, joined, sent, calls, callSizes, splitCalls = 0, splitTexts = 0, learned = [], reused = 0, unusable = 0, limits: known }) => {
    if (known) limits = known;
    if (unusable > 0) unusableAnswers.inc(unusable);
    if (reused > 0) reusedTranslations.inc(reused);
    cacheHits.inc(cached);
    cacheMisses.inc(sent + joined);
    if (callSizes) for (const size of callSizes) batchSize.observe(size);
    // Without sizes: `sent` texts cut into `calls` calls of `translationBatchSize`, the last one shorter.
    else for (let call = 0; call < calls; call += 1) batchSize.observe(Math.min(translationBatchSize, sent - call * translationBatchSize));
    if (splitCalls > 0) splits.inc({ kind: 'call' }, splitCalls);
    if (splitTexts > 0) splits.inc({ kind: 'text' }, splitTexts);
    for (const limit of learned) limitsLearned.inc({ limit });
  };
}
