import { Counter, Gauge, type Registry } from 'prom-client';
import type { PrewarmProgress } from './prewarm-progress.ts';

export interface PrewarmMetrics {
  /** The current walk of `language` as this replica last saw it (its own or another replica's). */
  progress(language: string, progress: PrewarmProgress): void;
  /** Translation calls this replica made prewarming `language`. */
  calls(language: string, calls: number): void;
  /** A walk of `language` reached the end of the catalogue. */
  completed(language: string): void;
}

/** Prewarming's metrics in the gateway's registry, every listed language's series there from the start. */
export function createPrewarmMetrics(registry: Registry, languages: readonly string[]): PrewarmMetrics {
  const registers = [registry];
  const problems = new Gauge({
    name: 'gateway_translation_prewarm_problems',
    help: "Problems of the catalogue in the current prewarming walk of each language (TRANSLATION_PREWARM): `done` translated or found cached, `failed` not translated (see the log), `pending` not reached yet. A completed walk keeps its counts until the next begins.",
    labelNames: ['language', 'state'] as const,
    registers,
  });
  const calls = new Counter({
    name: 'gateway_translation_prewarm_calls_total',
    help: 'Translation calls this replica made prewarming each language (readers\' calls are not counted here).',
    labelNames: ['language'] as const,
    registers,
  });
  const walks = new Counter({
    name: 'gateway_translation_prewarm_walks_total',
    help: 'Prewarming walks over the whole catalogue completed by this replica, per language.',
    labelNames: ['language'] as const,
    registers,
  });
  for (const language of languages) {
    for (const state of ['done', 'pending', 'failed']) problems.set({ language, state }, 0);
    calls.inc({ language }, 0);
    walks.inc({ language }, 0);
  }
  return {
    progress(language, { done, failed, total, completedAt }) {
      problems.set({ language, state: 'done' }, done);
      problems.set({ language, state: 'failed' }, failed);
      problems.set({ language, state: 'pending' }, completedAt !== undefined ? 0 : Math.max(0, (total ?? done + failed) - done - failed));
    },
    calls(language, count) {
      if (count > 0) calls.inc({ language }, count);
    },
    completed(language) {
      walks.inc({ language });
    },
  };
}
