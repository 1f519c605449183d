import type { GatewaySettings } from '../settings.ts';

/** What registered persisted queries may take of Redis: the bound usePersistedQueries writes them with. */
const PERSISTED_QUERIES_MAX_BYTES = 8 * 1024 * 1024;

/**
 * The byte budget of each cache the gateway keeps in Redis, all replicas together (boundedWrites
 * counts it in Redis). Every cache whose entries clients choose has one: a flood of distinct answers
 * then takes at most its budget, whatever `maxmemory` is, and never pushes out what must stay (the
 * rate-limit counters). The curated set (one copy, as big as the directory) and prewarming's progress
 * (a line per language) are sized by the operator and overwrite their keys: they have none.
 */
export function redisCacheBudgets(settings: Pick<GatewaySettings, 'redisCacheMaxBytes' | 'translationCacheMaxBytes'>): Readonly<Record<string, number>> {
  return {
    translation: settings.translationCacheMaxBytes,
    problems: settings.redisCacheMaxBytes,
    responses: settings.redisCacheMaxBytes,
    'persisted-queries': PERSISTED_QUERIES_MAX_BYTES,
  };
}

/** The most all budgeted caches take together: what `maxmemory` should stand above. */
export function totalBudgetBytes(budgets: Readonly<Record<string, number>>): number {
  return Object.values(budgets).reduce((sum, bytes) => sum + bytes, 0);
}
