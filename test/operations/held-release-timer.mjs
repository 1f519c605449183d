// Preloaded (`node --import`) into a process started as the CLI is: the clock of one timer, injected.
// The timer whose callback is releaseStartUpMemory is not left to run out: its delay is printed, and
// it runs when the test sends SIGUSR2, so the test waits on its own signal rather than on the delay.
// Around the callback it prints whether a global gc() is there (before, after, in a new context), so
// the same process shows that the release needs no --expose-gc and leaves no gc() behind.
import { runInNewContext } from 'node:vm';

const realSetTimeout = globalThis.setTimeout;

globalThis.setTimeout = function setTimeout(callback, delay, ...args) {
  if (typeof callback !== 'function' || callback.name !== 'releaseStartUpMemory') return realSetTimeout(callback, delay, ...args);
  // The handler first: a signal sent as soon as the line is read must find it (else SIGUSR2 kills).
  process.once('SIGUSR2', () => {
    const before = typeof globalThis.gc;
    callback(...args);
    console.log(`released: ${JSON.stringify({ before, after: typeof globalThis.gc, inNewContext: runInNewContext('typeof gc') })}`);
  });
  console.log(`timer: releaseStartUpMemory in ${delay} ms`);
  // What the caller gets back: a timer of its own kind (it unrefs it), which never runs the callback.
  return realSetTimeout(() => undefined, 2 ** 31 - 1);
};
