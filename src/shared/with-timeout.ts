/**
 * Runs `task` (even one that throws synchronously) and rejects if it has not settled within `ms`.
 * For optional helpers (caches, counter stores) whose slowness must not become the caller's. Called
 * on every request (the rate limit; the response cache's shared store, with Redis), so it makes one
 * promise, one reaction and one timer, and nothing more.
 */
export function withTimeout<T>(task: () => Promise<T>, ms: number): Promise<T> {
  let pending: Promise<T>;
  try {
    pending = Promise.resolve(task());
  } catch (error) {
    return Promise.reject(error as Error);
  }
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    pending.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error as Error);
      },
    );
  });
}

/** A store a call may wait on; `inProcess` when it lives in this process (README "Performance"). */
export interface MaybeInProcess {
  /**
   * True for a store in this process: it answers without waiting on the network, so it is never
   * slow the way a shared store can be, and a call needs no timer to bound it.
   */
  readonly inProcess?: boolean;
}

/**
 * A store's call bounded as withTimeout bounds it, except for a store in this process, whose call
 * gets no timer: on the paths that call a store for every request (the rate limit, the caches) a
 * timer is a few microseconds of CPU that could only ever fire for a store across the network.
 */
export function withStoreTimeout<T>(store: MaybeInProcess, task: () => Promise<T>, ms: number): Promise<T> {
  if (!store.inProcess) return withTimeout(task, ms);
  try {
    return Promise.resolve(task());
  } catch (error) {
    return Promise.reject(error as Error);
  }
}
