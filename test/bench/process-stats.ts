/**
 * What the benches read of the processes they start and of the machine: CPU time of every thread,
 * resident memory, bytes allocated (through allocation-probe.mjs) and the load average.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';

/** The module every bench process loads first (`--import`), to answer how much it has allocated. */
export const ALLOCATION_PROBE = fileURLToPath(new URL('./allocation-probe.mjs', import.meta.url));

/**
 * On-CPU time of a process so far, every thread's (V8's compiler and collector threads, libuv's pool),
 * in microseconds: scheduler statistics, nanosecond-grained, where `/proc/<pid>/stat` counts in 10 ms ticks.
 */
export function preciseCpuMicros(pid: number): number {
  let micros = 0;
  for (const task of readdirSync(`/proc/${pid}/task`)) micros += threadCpuMicros(pid, Number(task));
  return micros;
}

/** On-CPU time of one thread of a process so far (the main thread's id is the process's), in microseconds; 0 once it has ended. */
export function threadCpuMicros(pid: number, tid: number): number {
  try {
    return Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]) / 1000;
  } catch {
    // A thread that ended between the listing and the read.
    return 0;
  }
}

/** Resident memory of a process (MiB), from `/proc/<pid>/status`. */
export function rssMiB(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : 0;
}

/** The machine's one-minute load average: given beside every figure, since the machine may be shared. */
export function loadAverage(): number {
  return loadavg()[0];
}

/** A process's output, line by line, for readers that wait for a line after start-up. */
export interface OutputLines {
  /** The next line matching `pattern` (group 1), or undefined after `timeoutMs`. */
  next(pattern: RegExp, timeoutMs: number): Promise<string | undefined>;
  push(text: string): void;
}

export function outputLines(): OutputLines {
  let waiting: { pattern: RegExp; resolve: (value: string | undefined) => void }[] = [];
  let partial = '';
  return {
    push(text) {
      if (waiting.length === 0) {
        partial = '';
        return;
      }
      const lines = (partial + text).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        waiting = waiting.filter(({ pattern, resolve }) => {
          const match = pattern.exec(line);
          if (match) resolve(match[1]);
          return !match;
        });
      }
    },
    next(pattern, timeoutMs) {
      return new Promise((resolve) => {
        const entry = { pattern, resolve };
        waiting.push(entry);
        setTimeout(() => {
          waiting = waiting.filter((each) => each !== entry);
          resolve(undefined);
        }, timeoutMs).unref();
      });
    },
  };
}

/**
 * Bytes the process has allocated on V8's heap since it started (allocation-probe.mjs), or NaN when
 * it does not answer (it was started without the probe).
 */
export async function allocatedBytes(pid: number, lines: OutputLines): Promise<number> {
  const answer = lines.next(/^allocation-probe: (\d+)$/, 5000);
  process.kill(pid, 'SIGUSR2');
  const text = await answer;
  return text === undefined ? Number.NaN : Number(text);
}
