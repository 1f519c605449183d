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

/**
 * Parsing Markdown is synchronous and superlinear in its worst cases (seconds for a 64 KB statement
 * of nested brackets), and a statement costs a few milliseconds a kilobyte even when ordinary: on
 * the event loop, a page of them stalls every other request, /healthcheck included. So the work runs
 * in one worker thread, a task at a time, each with a time limit: a statement that takes too long
 * stops the thread (a new one takes the next task) instead of the gateway.
 */
export function createStatementThread({ limits, timeoutMs = 10_000, maxHeapMb = 256, idleMs = 5 * 60 * 1000 }: StatementThreadOptions): StatementRunner {
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
    const worker = spawnStatementWorker(limits, maxHeapMb);
    const started = { worker, ready: false };
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

/**
 * The worker runs the compiled `.js` entry next to this file, or under tsx (a dependency) the `.ts`
 * one, as the gateway itself runs.
 */
function spawnStatementWorker(limits: StatementLimits, maxHeapMb: number): Worker {
  // None of the host's flags: `--input-type` (a host run with `node -e`) would stop the thread loading.
  const options = { workerData: { limits }, resourceLimits: { maxOldGenerationSizeMb: maxHeapMb }, execArgv: [] };
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./statement-worker.js', import.meta.url), options);
  const entry = new URL('./statement-worker.ts', import.meta.url).href;
  const tsx = import.meta.resolve('tsx/esm/api');
  const script = `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(script, { ...options, eval: true });
}
