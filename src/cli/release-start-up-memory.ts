import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * How long after the gateway starts listening its start-up memory is released. Collecting at once
 * (or 3 s in), the reducer waited for start-up's allocation rate to fall and returned the memory
 * about 28 s after start (7 starts); collecting 6 s in, within 20 s of start in 14 starts of 16,
 * and within 28 s in all 16.
 */
export const RELEASE_AFTER_MS = 6_000;

/**
 * Lets V8 give back what building the schema left behind, once the gateway has started.
 *
 * Start-up leaves tens of MiB of garbage in the old generation and a young generation grown to its
 * largest. V8's memory reducer returns both to the system, but V8 starts it only after a full
 * collection that meets its conditions, and whether start-up's last one did is chance: without this,
 * many idle gateways stayed tens of MiB above the others. A full collection once start-up is over
 * starts the reducer (docs/performance.md, "Measurements behind the design"). It costs one short
 * pause, once.
 *
 * The CLI's to do, not the library's: an app that embeds the gateway owns its process and its heap.
 */
export function releaseStartUpMemory(): void {
  // Memory is all it saves: where this Node gives no gc(), the gateway runs on as it would have.
  fullGarbageCollection()?.();
}

/**
 * V8's `gc()`, a full collection on demand: the global one under `--expose-gc`, else taken from a new
 * context made while the flag is set (and unset again); undefined if neither gives one.
 */
export function fullGarbageCollection(): (() => void) | undefined {
  const exposed = (globalThis as { gc?: unknown }).gc;
  if (typeof exposed === 'function') return exposed as () => void;
  setFlagsFromString('--expose-gc');
  try {
    const gc: unknown = runInNewContext('typeof gc === "function" ? gc : undefined');
    return typeof gc === 'function' ? (gc as () => void) : undefined;
  } finally {
    // Contexts made later (by the vm module, by workers) get no `gc` they did not ask for.
    setFlagsFromString('--no-expose-gc');
  }
}
