/**
 * Runs the recipes named in RECIPES (comma-separated names of examples/<name>/server.ts) in this one
 * process, each as `node examples/<name>/server.ts` runs it: its module evaluated with the process's
 * environment (PORT=0 for each), listening on a port of its own, stopping on SIGTERM by its own
 * handler. Started through test/docs/resolve-package-name.ts, as the recipes are run elsewhere.
 *
 * One process for all of them rather than one each: each process would load Mesh, yoga and
 * graphql-js and build its first gateway cold, which costs more than everything the test asks.
 *
 * The recipes start one after another, so that the line each prints once it listens
 * (`GraphQL at <url>`) can be told apart: it is printed as `[<name>] GraphQL at <url>`.
 */
import { format } from 'node:util';

const names = (process.env.RECIPES ?? '').split(',').filter(Boolean);
if (names.length === 0) throw new Error('RECIPES names no recipe (e.g. RECIPES=express,koa)');

const print = console.log;
for (const name of names) {
  const served = new Promise<void>((resolve) => {
    console.log = (...args: unknown[]) => {
      const line = format(...args);
      print(`[${name}] ${line}`);
      if (line.startsWith('GraphQL at ')) resolve();
    };
  });
  await import(new URL(`../../examples/${name}/server.ts`, import.meta.url).href);
  await served;
}
console.log = print;
