/**
 * Runs `task` (even one that throws synchronously) and rejects if it has not settled within `ms`.
 * For optional helpers (caches, counter stores) whose slowness must not become the caller's.
 */
export function withTimeout<T>(task: () => Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    Promise.resolve()
      .then(task)
      .then(resolve, reject)
      .finally(() => clearTimeout(timer));
  });
}
