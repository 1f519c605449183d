import type { Worker } from 'node:worker_threads';
import type { StatementLimits } from './statement-limits.ts';
import { DEFAULT_IDLE_MS, DEFAULT_MAX_HEAP_MB, spawnStatementWorker, START_TIMEOUT_MS } from './statement-worker-spawn.ts';

interface Spare {
  /** The limits and heap it was started with: only a thread asking for the same takes it. */
  key: string;
  worker: Worker;
  ready: boolean;
  /** Detaches the spare's own listeners and timer, once taken or lost. */
  release(): void;
}

/** At most one thread started ahead of the first statement, for the first thread that needs it. */
let spare: Spare | undefined;

const spareKey = (limits: StatementLimits, maxHeapMb: number) => JSON.stringify([limits, maxHeapMb]);

export function takeSpare(limits: StatementLimits, maxHeapMb: number): { worker: Worker; ready: boolean } | undefined {
  if (!spare || spare.key !== spareKey(limits, maxHeapMb)) return undefined;
  const taken = spare;
  spare = undefined;
  taken.release();
  // Kept alive while it loads or works, as a thread started for a task is; idle, the taker unrefs it.
  taken.worker.ref();
  return { worker: taken.worker, ready: taken.ready };
}

export interface SpareThreadOptions {
  limits: StatementLimits;
  /** As createStatementThread's: a thread with other limits or heap starts its own. @default 256 MiB */
  maxHeapMb?: number;
  /** A spare nobody took ends after this long, as an idle thread does. @default 5 minutes */
  idleMs?: number;
}

/**
 * Starts the statements' worker thread before any statement needs it, for the first
 * createStatementThread (with the same limits) in this process to take. Loading the thread (remark
 * and its dependencies) is what makes the first translated statement slow; an entry calls this as it
 * starts, so that this loading happens on another core while the gateway's own code loads.
 * Resolves once the thread is loaded (or lost; a thread that cannot start fails its first task as
 * before). The spare keeps no process alive and ends after `idleMs` if nobody takes it.
 */
export function startSpareStatementThread({ limits, maxHeapMb = DEFAULT_MAX_HEAP_MB, idleMs = DEFAULT_IDLE_MS }: SpareThreadOptions): Promise<void> {
  if (spare) return Promise.resolve();
  return new Promise((loaded) => {
    const worker = spawnStatementWorker(limits, maxHeapMb);
    worker.unref();
    let timer = setTimeout(() => end(), START_TIMEOUT_MS).unref();
    const current: Spare = {
      key: spareKey(limits, maxHeapMb),
      worker,
      ready: false,
      release: () => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', end);
        worker.off('exit', end);
        loaded();
      },
    };
    const end = () => {
      if (spare !== current) return;
      spare = undefined;
      current.release();
      void worker.terminate();
    };
    const onMessage = (message: unknown) => {
      if (message !== 'ready') return;
      current.ready = true;
      clearTimeout(timer);
      timer = setTimeout(end, idleMs).unref();
      loaded();
    };
    worker.on('message', onMessage);
    worker.on('error', end);
    worker.on('exit', end);
    spare = current;
  });
}

/** Whether a spare thread is waiting to be taken (tests). */
export function hasSpareStatementThread(): boolean {
  return spare !== undefined;
}
