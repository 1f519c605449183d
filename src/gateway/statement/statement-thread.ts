import { Worker } from 'node:worker_threads';
import type { StatementLimits } from './statement-limits.ts';
import type { StatementOutcome, StatementTask } from './statement-work.ts';

export interface StatementThreadOptions {
  limits: StatementLimits;
  /** Time one task may take in the thread; past it the thread is stopped and the task fails. @default 10 seconds */
  timeoutMs?: number;
  /** The thread's heap; past it the thread dies and its task fails. @default 256 MiB */
  maxHeapMb?: number;
  /** An idle thread ends after this long and starts again with the next task. @default 5 minutes */
  idleMs?: number;
}

export interface StatementRunner {
  run(task: StatementTask): Promise<StatementOutcome>;
  /** Stops the thread; queued and running tasks fail. */
  close(): Promise<void>;
}

interface Queued {
  task: StatementTask;
  settle(outcome: StatementOutcome): void;
}

const cannotStart: StatementOutcome = { failure: { message: 'The gateway could not start its Markdown worker.', transient: true } };

// Loading the thread (remark, and under tsx its compilation) is not the statement's time.
const START_TIMEOUT_MS = 60_000;
const DEFAULT_MAX_HEAP_MB = 256;
const DEFAULT_IDLE_MS = 5 * 60 * 1000;

/**
 * Parsing Markdown is synchronous and superlinear in its worst cases (seconds for a 64 KB statement
 * of nested brackets), and a statement costs a few milliseconds a kilobyte even when ordinary: on
 * the event loop, a page of them stalls every other request, /healthcheck included. So the work runs
 * in one worker thread, a task at a time, each with a time limit: a statement that takes too long
 * stops the thread (a new one takes the next task) instead of the gateway.
 */
export function createStatementThread({ limits, timeoutMs = 10_000, maxHeapMb = DEFAULT_MAX_HEAP_MB, idleMs = DEFAULT_IDLE_MS }: StatementThreadOptions): StatementRunner {
  const queue: Queued[] = [];
  let thread: { worker: Worker; ready: boolean } | undefined;
  let current: Queued | undefined;
  let timer: NodeJS.Timeout | undefined;

  const stop = () => {
    clearTimeout(timer);
    const stopping = thread?.worker.terminate();
    thread = undefined;
    return stopping;
  };
  const finish = (outcome: StatementOutcome) => {
    clearTimeout(timer);
    const done = current;
    current = undefined;
    done?.settle(outcome);
    next();
  };
  const fail = (message: string) => finish({ failure: { message } });

  const start = () => {
    const { worker, ready } = takeSpare(limits, maxHeapMb) ?? { worker: spawnStatementWorker(limits, maxHeapMb), ready: false };
    const started = { worker, ready };
    const mine = () => thread === started;
    worker.on('message', (message: StatementOutcome | 'ready') => {
      if (!mine()) return;
      if (message === 'ready') {
        started.ready = true;
        clearTimeout(timer);
        next();
      } else finish(message);
    });
    // An uncaught error or a heap over its limit ends the thread: its task fails, the next starts a new one.
    const lost = (why: string) => {
      if (!mine()) return;
      thread = undefined;
      // A thread that cannot even start would fail every task the same way, one start at a time.
      if (!started.ready) for (const queued of queue.splice(0)) queued.settle(cannotStart);
      fail(`The gateway could not process this statement's Markdown (${why}), so it cannot translate it.`);
    };
    worker.on('error', (error) => lost((error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'out of memory' : 'worker error'));
    worker.on('exit', () => lost('worker stopped'));
    // A spare that is already loaded takes the task in this same turn (next() goes on at once).
    if (ready) return started;
    timer = setTimeout(() => {
      if (!mine()) return;
      void stop();
      for (const queued of queue.splice(0)) queued.settle(cannotStart);
    }, START_TIMEOUT_MS);
    return started;
  };

  const next = () => {
    if (current) return;
    if (queue.length === 0) {
      // Idle, the thread keeps no process alive, and ends after a while.
      thread?.worker.unref();
      if (thread) timer = setTimeout(() => void stop(), idleMs).unref();
      return;
    }
    thread ??= start();
    if (!thread.ready) return;
    clearTimeout(timer);
    current = queue.shift()!;
    thread.worker.ref();
    thread.worker.postMessage(current.task);
    timer = setTimeout(() => {
      void stop();
      fail(`Working on this statement's Markdown took more than ${timeoutMs / 1000} s; the gateway gave up on it, so it cannot translate it.`);
    }, timeoutMs);
  };

  return {
    run: (task) =>
      new Promise((settle) => {
        queue.push({ task, settle });
        next();
      }),
    async close() {
      const waiting = [...(current ? [current] : []), ...queue.splice(0)];
      current = undefined;
      await stop();
      for (const queued of waiting) queued.settle({ failure: { message: 'The gateway is shutting down.', transient: true } });
    },
  };
}

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

function takeSpare(limits: StatementLimits, maxHeapMb: number): { worker: Worker; ready: boolean } | undefined {
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

/**
 * The worker runs the entry next to this file: the compiled `.js` one, or the `.ts` one as the gateway
 * itself runs, by Node alone where Node strips types (22.18 and later), else under tsx (a dependency).
 */
function spawnStatementWorker(limits: StatementLimits, maxHeapMb: number): Worker {
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
