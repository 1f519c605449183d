import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * A worker thread running the module `tsEntry` names, as the calling code itself runs: the compiled
 * `.js` beside it when the caller is compiled, else the `.ts` by Node alone where Node strips types
 * (22.18 and later), else under tsx (a dependency). None of the host's flags reach it: `--input-type`
 * (a host run with `node -e`) would stop the thread loading.
 */
export function spawnModuleWorker(tsEntry: URL, callerUrl: string, options: WorkerOptions = {}): Worker {
  const settled = { execArgv: [], ...options };
  if (!callerUrl.endsWith('.ts')) return new Worker(new URL(tsEntry.href.replace(/\.ts$/, '.js')), settled);
  if ((process.features as { typescript?: unknown }).typescript) return new Worker(tsEntry, settled);
  const tsx = import.meta.resolve('tsx/esm/api');
  const script = `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(tsEntry.href)}); });`;
  return new Worker(script, { ...settled, eval: true });
}
