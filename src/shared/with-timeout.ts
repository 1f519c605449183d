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
