import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { TestRunner } from 'vitest';

export const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface RunningCommand {
  child: ChildProcess;
  /** Everything printed so far, stdout and stderr interleaved. */
  output(): string;
  /**
   * Resolves with the first match of `pattern` in the output; rejects if the process exits first, or
   * when the test it is called in ends (its timeout), with the output so far. No limit of its own: a
   * start that a loaded machine slows to minutes is waited for as long as the test's timeout allows.
   */
  waitFor(pattern: RegExp): Promise<RegExpMatchArray>;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
}

/**
 * Runs a TypeScript entry of the project as `npm start` does: by Node alone where Node strips types,
 * else under tsx (which costs seconds of start-up). `nodeOptions` go before the entry, `args` after.
 */
export function runEntry(entry: string, env: Record<string, string | undefined>, nodeOptions: string[] = [], args: string[] = []): RunningCommand {
  const typeStripping = Boolean((process.features as { typescript?: unknown }).typescript);
  return runCommand(process.execPath, [...nodeOptions, ...(typeStripping ? [] : ['--import', 'tsx']), entry, ...args], env);
}

/** Runs a command (in the project folder unless `cwd` says otherwise) with only `env` (plus PATH and HOME) as its environment. */
export function runCommand(command: string, args: string[], env: Record<string, string | undefined>, { cwd = PROJECT_ROOT }: { cwd?: string } = {}): RunningCommand {
  const child = spawn(command, args, {
    cwd,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env } as NodeJS.ProcessEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  const listeners = new Set<() => void>();
  const onData = (chunk: Buffer) => {
    text += chunk.toString();
    for (const listener of listeners) listener();
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    output: () => text,
    exited,
    waitFor: (pattern) =>
      new Promise((resolve, reject) => {
        // Aborted when the test times out: vitest reports its own timeout, so the output is printed here.
        const testEnded = TestRunner.getCurrentTest()?.context.signal;
        const check = () => {
          const match = text.match(pattern);
          if (match) {
            cleanup();
            resolve(match);
          }
        };
        const onTestEnded = () => {
          cleanup();
          const message = `the test ended while waiting for ${pattern}; output so far:\n${text}`;
          console.error(message);
          reject(new Error(message));
        };
        const cleanup = () => {
          testEnded?.removeEventListener('abort', onTestEnded);
          listeners.delete(check);
        };
        listeners.add(check);
        testEnded?.addEventListener('abort', onTestEnded);
        void exited.then((code) => {
          if (!listeners.has(check)) return;
          cleanup();
          reject(new Error(`process exited (${code}) before printing ${pattern}; output:\n${text}`));
        });
        check();
      }),
  };
}
