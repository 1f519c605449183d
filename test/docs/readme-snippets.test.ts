import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHARED_CLIENT_KEY, sharedStack } from '../helpers/shared-stack.ts';
import type { Stack } from '../helpers/start-stack.ts';
import { standInTranslation, translatedTitleOf } from '../helpers/stand-in-translation.ts';
import { ROOT, runInThisWorker, runnableSnippets, SERVES } from './snippets.ts';

const KEY = SHARED_CLIENT_KEY;
const DIR = `${ROOT}test-artifacts/readme-snippets/`;
const snippets = runnableSnippets();
const fileOf = (index: number) => `${DIR}snippet-${String(index + 1).padStart(2, '0')}.ts`;
const numbered = snippets.map((snippet, index) => [snippet.name, index] as const);
/** The recipes under examples/ (each with a server.ts), by name, and their code. */
const recipes = readdirSync(`${ROOT}examples`)
  .filter((name) => existsSync(`${ROOT}examples/${name}/server.ts`))
  .map((name) => ({ name, code: readFileSync(`${ROOT}examples/${name}/server.ts`, 'utf8') }));
const isRecipe = (code: string) => recipes.some((recipe) => recipe.code === code);
// A server's point is the process (it listens, prints its URL, stops on SIGTERM): every server snippet
// is a recipe under examples/, word for word, which test/browser/recipes.test.ts runs as one (the
// cross-source query, its routes, GraphiQL in Chromium, SIGTERM). The others' point is the API
// (clients, gateway.fetch): they run here, in this worker, as modules.
const others = numbered.filter(([, index]) => !SERVES.test(snippets[index].code));

/**
 * Every block marked runnable (```ts runnable) of the README and docs/clients.md runs as written
 * (test/examples/strict-types.test.ts type-checks each, under settings stricter than the
 * repository's): the servers are the recipes, run as processes elsewhere; the others (clients,
 * gateway.fetch) run in this worker against a running gateway that requires a key, their printed
 * answers checked.
 */
describe('the README snippets marked runnable', () => {
  let stack: Stack;
  let env: Record<string, string>;
  beforeAll(async () => {
    stack = await sharedStack('keyed');
    const { problemsUrl, problemsApiKey, translationUrl, translationApiKey } = stack.upstreamSettings;
    env = {
      PORT: '0',
      PROBLEMS_URL: problemsUrl!,
      PROBLEMS_API_KEY: problemsApiKey!,
      TRANSLATION_URL: translationUrl!,
      TRANSLATION_API_KEY: translationApiKey!,
      GATEWAY_URL: stack.gatewayUrl,
      GATEWAY_KEY: KEY,
    };
    rmSync(DIR, { recursive: true, force: true });
    mkdirSync(DIR, { recursive: true });
    snippets.forEach((snippet, index) => writeFileSync(fileOf(index), `// README: ${snippet.name}\n${snippet.code}`));
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('include the recipes for node:http, Express, Connect, Fastify and Koa, each the file under examples/ word for word', () => {
    // Recipes are the examples with a server; others (curated-translations) are data a README section shows.
    expect(recipes.map((recipe) => recipe.name).sort()).toEqual(['connect', 'express', 'fastify', 'koa', 'node-http']);
    const codes = snippets.map((snippet) => snippet.code);
    for (const recipe of recipes) expect(codes, `examples/${recipe.name}/server.ts`).toContain(recipe.code);
    expect(snippets.length).toBeGreaterThanOrEqual(8);
  });

  it('serve only as recipes: every snippet that listens is an examples/*/server.ts, word for word', () => {
    const servers = snippets.filter((snippet) => SERVES.test(snippet.code));
    expect(servers.length).toBeGreaterThan(0);
    for (const server of servers) expect(isRecipe(server.code), server.name).toBe(true);
  });

  it.each(others)('%s runs as written and prints what the gateway answered', async (_name, index) => {
    const printed = await runInThisWorker(fileOf(index), env);
    // Each prints answers of the stand-ins through the gateway: a translation of the text it asked
    // for, or of the problems' titles, never a placeholder where a value was missing.
    const expected = [standInTranslation('Find the shortest path.', 'es'), ...['p1001', 'p1002', 'p1003'].map((id) => translatedTitleOf(id, 'es'))];
    expect(printed).not.toEqual([]);
    expect(printed.join('\n')).not.toMatch(/\bundefined\b|\bnull\b/);
    expect(expected.some((value) => printed.join('\n').includes(value)), printed.join('\n')).toBe(true);
  });
});
