import { performance } from 'node:perf_hooks';

type CpuUsage = { user: number; system: number };
const threadCpuUsage = (process as { threadCpuUsage?: (previous?: CpuUsage) => CpuUsage }).threadCpuUsage?.bind(process);

/**
 * Milliseconds of CPU time this thread (the event loop's) has spent so far: CPU time, not the clock,
 * so a machine busy with other work does not lengthen it. Where Node cannot read one thread's CPU
 * time (before 23.9), the event loop's active time stands in for it.
 */
export function threadCpuMs(): number {
  if (!threadCpuUsage) return performance.eventLoopUtilization().active;
  const { user, system } = threadCpuUsage();
  return (user + system) / 1000;
}

/** The CPU time this thread spends while `work` runs, in milliseconds (see threadCpuMs). */
export async function threadCpuDuring(work: () => Promise<unknown>): Promise<number> {
  const before = threadCpuMs();
  await work();
  return threadCpuMs() - before;
}
