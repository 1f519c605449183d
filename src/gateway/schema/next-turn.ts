/**
 * Resolves on a later turn of the event loop, after the I/O waiting now: requests that arrived during
 * a long piece of work are served before the next piece. What builds an engine awaits it between its
 * stages, each of which runs whole once started.
 */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
