import type { Gateway } from '../gateway/create-gateway.ts';
import type { CutOffRequest, RunningServer } from '../shared/listen.ts';
import type { StandIn } from '../upstreams/stand-ins.ts';
import type { EntryLog } from './entry-log.ts';

/** Past the drain, closing the gateway and the stand-ins gets this long before the process exits anyway. */
const CLOSE_GRACE_MS = 5_000;

/** What the entry has started so far: what a stop has to drain and close, in this order. */
export interface Started {
  server?: RunningServer;
  gateway?: Gateway;
  standIns: StandIn[];
  /**
   * Set once requests are being cut off: the lines their handlers may still write would claim
   * answers nobody received, and the cut-off lines replace them.
   */
  cuttingOff: boolean;
  /** Set by the first signal: start-up steps still running stop at their next step. */
  stopping: boolean;
}

/**
 * The graceful stop: no new connections, requests in flight finish (at most `timeoutMs`), then the
 * gateway and the stand-ins close and the process exits, 0 when every request was answered, 1 when
 * some had to be cut off (each cut-off request logged under its request id).
 */
export function gracefulStop(started: Started, step: EntryLog, timeoutMs: number): (reason: string) => Promise<void> {
  return async (reason) => {
    // A second signal is expected, not a demand to hurry: Ctrl-C under npm reaches this process
    // twice (from the terminal, and forwarded by npm). SHUTDOWN_TIMEOUT_MS bounds the wait anyway.
    if (started.stopping) return;
    started.stopping = true;
    setTimeout(() => {
      step(`did not stop within ${timeoutMs + CLOSE_GRACE_MS} ms; exiting`, 'error');
      process.exit(1);
    }, timeoutMs + CLOSE_GRACE_MS).unref();
    const cutOff = await drain(started, step, reason, timeoutMs);
    // The gateway before the upstreams it calls. After a cut-off, closing would wait for the upstream
    // calls of requests nobody awaits any more: only the traces are worth sending.
    if (cutOff.length === 0) await started.gateway?.close().catch(() => undefined);
    else await started.gateway?.flushTraces().catch(() => undefined);
    for (const standIn of started.standIns) await standIn.close().catch(() => undefined);
    step(cutOff.length === 0 ? 'stopped: every request answered' : `stopped: ${cutOff.length} request(s) cut off after ${timeoutMs} ms`);
    process.exit(cutOff.length === 0 ? 0 : 1);
  };
}

/** Closes the listener and waits for the requests in flight; returns those cut off, each logged. */
async function drain(started: Started, step: EntryLog, reason: string, timeoutMs: number): Promise<CutOffRequest[]> {
  const { server } = started;
  if (!server) {
    step(`${reason}: stopping before start-up finished`);
    return [];
  }
  const running = server.inFlight();
  // Said once the listener is closed, so whoever reads the line finds new connections refused.
  const draining = server.shutdown(timeoutMs, () => (started.cuttingOff = true));
  step(`${reason}: stopping: refusing new connections, waiting up to ${timeoutMs} ms for ${running} request(s) in flight`);
  const { cutOff } = await draining.catch(() => ({ cutOff: [] as CutOffRequest[] }));
  for (const { method, path, requestId, runningMs } of cutOff) {
    const line = { level: 'warn', msg: 'request cut off at shutdown', time: new Date().toISOString(), requestId, method, path, durationMs: runningMs };
    process.stdout.write(`${JSON.stringify(line)}\n`);
  }
  return cutOff;
}

/**
 * SIGINT and SIGTERM stop the gateway; nothing else does. Not a change of parent: nohup, setsid,
 * process managers, container inits and deploy scripts that exit after starting it all leave it
 * reparented, and it must keep serving (`npm start` execs node, so npm's own signals reach this
 * process directly). Nor a hang-up: Node puts SIGHUP back to its default (exit) at start, undoing what
 * nohup set, so the terminal that started the gateway closing would end it without a word. Said once:
 * a closing terminal may deliver it twice (from the shell and from the kernel). Once that terminal is
 * gone, writing to it fails (EIO): lines are lost then, never the gateway.
 */
export function onSignals(stop: (reason: string) => Promise<void>, started: Started, step: EntryLog): void {
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  let hungUp = false;
  process.on('SIGHUP', () => {
    if (hungUp || started.stopping) return;
    hungUp = true;
    step('SIGHUP (the terminal closed, or a reload was asked for): ignored, still serving; nothing is reloaded on a signal, stop with SIGTERM', 'warn');
  });
  for (const stream of [process.stdout, process.stderr]) stream.on('error', ignoreClosedOutput);
}

/** A write to an output that has gone away (a closed terminal, a closed pipe) is dropped; anything else is raised. */
function ignoreClosedOutput(error: NodeJS.ErrnoException): void {
  if (error.code === 'EIO' || error.code === 'EPIPE') return;
  throw error;
}
