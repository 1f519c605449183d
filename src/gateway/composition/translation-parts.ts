import type { Observability } from '../observability/index.ts';
import type { GatewayLog } from '../gateway-log.ts';
import type { GatewaySettings } from '../settings.ts';
import type { SharedStores } from '../shared-stores.ts';
import { startCuratedTranslations, type CuratedTranslationsSetup } from '../translation/curated/index.ts';
import type { TranslationCache } from '../translation/translation-cache.ts';
import { translationRuntimeFor, type TranslationRuntime } from '../translation/translation-runtime.ts';

export interface TranslationParts {
  /** Operators' curated translations, when a directory or another replica offers them. */
  curated: CuratedTranslationsSetup | undefined;
  /** Where every translated field is decided, batched, cached and assembled. */
  runtime: TranslationRuntime;
}

/**
 * Readers' languages: operators' curated translations (TRANSLATION_CURATED_DIR, or another replica's
 * through Redis), served before the service's, and the runtime every translation field goes through.
 * A bad curated directory stops start-up, with the shared stores closed first (nothing else that
 * needs closing has started yet).
 */
export async function startTranslation(
  settings: GatewaySettings,
  {
    translationCache,
    shared,
    observability,
    log,
    now,
  }: {
    translationCache: TranslationCache | undefined;
    shared: SharedStores | undefined;
    observability: Pick<Observability, 'metrics' | 'onTranslationServed'>;
    log: GatewayLog;
    /** The clock made translations are stamped by (tests move it with prewarming's). */
    now?: () => number;
  },
): Promise<TranslationParts> {
  const curated = await startCuratedTranslations(settings, { log, registry: observability.metrics, sharedStore: shared?.keyValueStore('curated-translations') }).catch(async (error: unknown) => {
    await shared?.close();
    throw error;
  });
  const runtime = translationRuntimeFor(settings, {
    cache: translationCache ?? shared?.translationCache,
    onServed: observability.onTranslationServed,
    curated: curated?.translations,
    made: shared?.madeTranslations,
    now,
  });
  return { curated, runtime };
}
