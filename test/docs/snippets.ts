import { readFileSync } from 'node:fs';
import * as nodeModule from 'node:module';
import { format } from 'node:util';
import { vi } from 'vitest';

export const ROOT = new URL('../../', import.meta.url).pathname;

export interface Snippet {
  /** The heading it sits under, and its place among that section's snippets. */
  name: string;
  code: string;
}

/** The documents whose runnable blocks are run as written: the README, and the clients' page it links. */
export const DOCUMENTS_WITH_SNIPPETS = ['README.md', 'docs/clients.md'];

/** Every fenced block of the documents opened with ```ts runnable (or ```js runnable), in their order. */
export function runnableSnippets(markdown = DOCUMENTS_WITH_SNIPPETS.map((path) => readFileSync(`${ROOT}${path}`, 'utf8')).join('\n')): Snippet[] {
  const snippets: Snippet[] = [];
  let heading = '(top)';
  let count = 0;
  const lines = markdown.split('\n');
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index];
    if (/^#{1,6} /.test(line)) {
      heading = line.replace(/^#+ /, '');
      count = 0;
    }
    if (!/^```(ts|js) runnable\s*$/.test(line)) continue;
    const end = lines.indexOf('```', index + 1);
    if (end < 0) throw new Error(`the runnable block under "${heading}" is never closed`);
    snippets.push({ name: `${heading} #${++count}`, code: `${lines.slice(index + 1, end).join('\n')}\n` });
    index = end;
  }
  return snippets;
}

/** What a server snippet prints once it listens; the readme test reads the URL from it. */
export const SERVES = /GraphQL at /;

/**
 * Runs a snippet as a module of this worker, as vitest runs a test file (TypeScript transformed, the
 * package's name mapped to src/), with `env` in process.env while it runs (a worker thread's
 * environment is its own). Resolves with the lines it printed through console.log; rejects with its
 * error, as the process would have exited non-zero.
 */
export async function runInThisWorker(file: string, env: Record<string, string>): Promise<string[]> {
  const saved = Object.keys(env).map((name) => [name, process.env[name]] as const);
  Object.assign(process.env, env);
  const printed: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void printed.push(format(...args)));
  try {
    await import(/* @vite-ignore */ file);
  } finally {
    log.mockRestore();
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
  return printed;
}

/**
 * The arguments that run a TypeScript program as an app would, in this repository (the package's
 * name maps to its sources): on Node's own type stripping where Node has it (resolve-package-name.ts
 * maps the name), else under tsx (through tsconfig paths).
 */
export function programArguments(file: string): string[] {
  const typeStripping = Boolean((process.features as { typescript?: unknown }).typescript) && 'registerHooks' in nodeModule;
  const loader = typeStripping ? new URL('./resolve-package-name.ts', import.meta.url).pathname : 'tsx';
  return ['--import', loader, file];
}
