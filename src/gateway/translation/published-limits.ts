import { readPublishedCharLimit, type TranslationContext } from './translation-client.ts';
import type { ServiceLimits } from './translation-limits.ts';

/** How long after a failed read (not a 404) the published limits are read again. */
const READ_RETRY_MS = 60_000;

/**
 * Reads the character limit the service publishes (GET /frontend/settings) into `limits.published`,
 * while it is not known (never read, or expired: translation-limits.ts).
 */
export function publishedLimitsReader(limits: ServiceLimits, translationUrl: string | undefined, translationApiKey: string | undefined) {
  let readAt = -Infinity;
  return async (context: TranslationContext): Promise<void> => {
    if (limits.published !== undefined || !translationUrl || Date.now() - readAt < READ_RETRY_MS) return;
    readAt = Date.now();
    limits.published = await readPublishedCharLimit(context, translationUrl, translationApiKey);
    limits.publishedAt = limits.now();
  };
}
