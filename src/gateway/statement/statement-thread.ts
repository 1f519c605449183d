import type { Worker } from 'node:worker_threads';
import { takeSpare } from './spare-statement-thread.ts';
import type { StatementLimits } from './statement-limits.ts';
import type { StatementOutcome, StatementTask } from './statement-work.ts';
import { DEFAULT_IDLE_MS, DEFAULT_MAX_HEAP_MB, spawnStatementWorker, START_TIMEOUT_MS } from './statement-worker-spawn.ts';

export { hasSpareStatementThread, startSpareStatementThread, type SpareThreadOptions } from './spare-statement-thread.ts';

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

/**
 * Parsing Markdown is synchronous and superlinear in its worst cases (seconds for a 64 KB statement
 * of nested brackets), and a statement costs a few milliseconds a kilobyte even when ordinary: on
 * the event loop, a page of them stalls every other request, /healthcheck included. So the work runs
 * in one worker thread, a task at a time, each with a time limit: a statement that takes too long
 * stops the thread (a new one takes the next task) instead of the gateway.
 */
export function createStatementThread({ limits, timeoutMs = 10_000, maxHeapMb = DEFAULT_MAX_HEAP_MB, idleMs = DEFAULT_IDLE_MS }: StatementThreadOptions): StatementRunner {
  const queue: Queued[] = [];
  let thread: Thread | undefined;
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
  const failQueued = () => {
    for (const queued of queue.splice(0)) queued.settle(cannotStart);
  };

  const start = () => {
    const started: Thread = openThread(limits, maxHeapMb, () => thread === started, {
      ready: () => next(),
      answered: finish,
      // An uncaught error or a heap over its limit ends the thread: its task fails, the next starts a new one.
      lost: (why) => {
        thread = undefined;
        // A thread that cannot even start would fail every task the same way, one start at a time.
        if (!started.ready) failQueued();
        fail(`The gateway could not process this statement's Markdown (${why}), so it cannot translate it.`);
      },
      notStarted: () => {
        void stop();
        failQueued();
      },
    });
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

/** A worker thread, and whether it has loaded (a spare may have, before it was taken). */
interface Thread {
  worker: Worker;
  ready: boolean;
}

/** What a thread tells the runner: loaded, a task's outcome, the thread gone (why), or not loaded in time. */
interface ThreadEvents {
  ready(): void;
  answered(outcome: StatementOutcome): void;
  lost(why: string): void;
  notStarted(): void;
}

/**
 * A thread for the runner: the spare when one with these limits waits, else a new one, with its
 * events told to `events` while it is the runner's current thread (`current`): a stopped thread's
 * last words are ignored. One not loaded within START_TIMEOUT_MS says so (a spare already loaded
 * takes its task in this same turn).
 */
function openThread(limits: StatementLimits, maxHeapMb: number, current: () => boolean, events: ThreadEvents): Thread {
  const thread: Thread = takeSpare(limits, maxHeapMb) ?? { worker: spawnStatementWorker(limits, maxHeapMb), ready: false };
  const loading = thread.ready ? undefined : setTimeout(() => {
    if (current()) events.notStarted();
  }, START_TIMEOUT_MS);
  thread.worker.on('message', (message: StatementOutcome | 'ready') => {
    if (!current()) return;
    if (message !== 'ready') return events.answered(message);
    clearTimeout(loading);
    thread.ready = true;
    events.ready();
  });
  const lost = (why: string) => {
    clearTimeout(loading);
    if (current()) events.lost(why);
  };
  thread.worker.on('error', (error) => lost((error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'out of memory' : 'worker error'));
  thread.worker.on('exit', () => lost('worker stopped'));
  return thread;
}
