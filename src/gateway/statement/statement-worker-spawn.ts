import { Worker } from 'node:worker_threads';
import type { StatementLimits } from './statement-limits.ts';

// Loading the thread (remark, and under tsx its compilation) is not the statement's time.
export const START_TIMEOUT_MS = 60_000;
export const DEFAULT_MAX_HEAP_MB = 256;
export const DEFAULT_IDLE_MS = 5 * 60 * 1000;

/**
 * The worker runs the entry next to this file: the compiled `.js` one, or the `.ts` one as the gateway
 * itself runs, by Node alone where Node strips types (22.18 and later), else under tsx (a dependency).
 */
export function spawnStatementWorker(limits: StatementLimits, maxHeapMb: number): Worker {
  // None of the host's flags: `--input-type` (a host run with `node -e`) would stop the thread loading.
  const options = { workerData: { limits }, resourceLimits: { maxOldGenerationSizeMb: maxHeapMb }, execArgv: [] };
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./statement-worker.js', import.meta.url), options);
  // Node's own type stripping spares the thread tsx's loader and its hooks on every module.
  if ((process.features as { typescript?: unknown }).typescript) return new Worker(new URL('./statement-worker.ts', import.meta.url), options);
  const entry = new URL('./statement-worker.ts', import.meta.url).href;
  const tsx = import.meta.resolve('tsx/esm/api');
  const script = `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(script, { ...options, eval: true });
}
