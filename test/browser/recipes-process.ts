import { connect } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { programArguments } from '../docs/snippets.ts';
import { runCommand } from '../helpers/run-command.ts';

/** The recipes of examples/, served by one process (serve-recipes.ts). */
export interface RecipesProcess {
  /** The URL a recipe printed once it listened (its mount path); rejects if the process exits first. */
  urlOf(recipe: string): Promise<string>;
  /** Everything the process printed so far. */
  output(): string;
  /**
   * Sends SIGTERM, on which every recipe closes its server and its gateway, and resolves with the
   * exit code. A process still running after `graceMs` is killed: `stillListening` then names the
   * recipes whose port still took a connection (a recipe that did not close its server).
   */
  stop(graceMs: number): Promise<{ exitCode: number | null; stillListening: string[] }>;
}

const SERVE_RECIPES = new URL('./serve-recipes.ts', import.meta.url).pathname;

/** Whether something still accepts TCP connections at the URL's host and port. */
function accepts(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Starts one process serving `recipes` (with `env`, PORT=0 among it), as serve-recipes.ts describes. */
export function startRecipes(recipes: string[], env: Record<string, string>): RecipesProcess {
  const run = runCommand(process.execPath, programArguments(SERVE_RECIPES), { ...env, RECIPES: recipes.join(',') });
  const urls = new Map(
    recipes.map((recipe) => {
      const url = run.waitFor(new RegExp(`^\\[${recipe}\\] GraphQL at (http://\\S+)$`, 'm')).then((match) => match[1]);
      url.catch(() => undefined); // read by urlOf; a recipe never asked for leaves no unhandled rejection
      return [recipe, url] as const;
    }),
  );
  let exitCode: number | null | undefined;
  void run.exited.then((code) => (exitCode = code));
  return {
    urlOf: (recipe) => urls.get(recipe) ?? Promise.reject(new Error(`${recipe} is not among the recipes started`)),
    output: run.output,
    stop: async (graceMs) => {
      if (exitCode !== undefined) return { exitCode, stillListening: [] };
      run.child.kill('SIGTERM');
      const grace = new AbortController();
      const outcome = await Promise.race([run.exited, delay(graceMs, 'still running', { signal: grace.signal })]);
      grace.abort();
      if (outcome !== 'still running') return { exitCode: outcome as number | null, stillListening: [] };
      const listening = await Promise.all(
        recipes.map(async (recipe) => {
          const url = await urls.get(recipe)!.catch(() => undefined);
          return url && (await accepts(url)) ? recipe : '';
        }),
      );
      run.child.kill('SIGKILL');
      await run.exited;
      return { exitCode: null, stillListening: listening.filter(Boolean) };
    },
  };
}
