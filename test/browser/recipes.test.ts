import { existsSync, readdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../docs/snippets.ts';
import { sharedStack } from '../helpers/shared-stack.ts';
import { translatedTitleOf } from '../helpers/stand-in-translation.ts';
import type { Stack } from '../helpers/start-stack.ts';
import { editorText, launchOfflineChromium, type OfflineBrowser } from './chromium.ts';
import { startRecipes, type RecipesProcess } from './recipes-process.ts';

// Each recipe under examples/ (the README's server snippets, word for word: test/docs/readme-snippets
// checks that), run as an app runs it and asked everything once it serves: the cross-source query
// over HTTP, the gateway's other routes below the mount (not the app's own routes), GraphiQL in
// Chromium at the mount path with all its files, and a clean stop on SIGTERM. The recipes share one
// process (serve-recipes.ts: each on its own port, each stopping by its own SIGTERM handler), which
// starts while Chromium does; one browser page visits each.

/** Every example with a server (test/docs/readme-snippets checks they are the README's five). */
const RECIPES = readdirSync(`${ROOT}examples`).filter((name) => existsSync(`${ROOT}examples/${name}/server.ts`));
const MOUNT = '/api/graphql';
const LINK = /* GraphQL */ `{ problems(first: 2) { nodes { id title translation(to: "es") { title } } } }`;
/** What the recipes have to close their servers and gateways in, once SIGTERM arrives. */
const STOP_GRACE_MS = 30_000;

let stack: Stack;
let recipes: RecipesProcess;
let browser: OfflineBrowser;
let page: Page;
const failed: string[] = [];
const pageErrors: string[] = [];
beforeAll(async () => {
  // Chromium starts in its own processes while this thread builds the stack; kept as soon as it
  // runs, so that afterAll closes it whatever fails meanwhile.
  const launching = launchOfflineChromium().then((launched) => (browser = launched));
  launching.catch(() => undefined); // awaited below; a failure meanwhile is reported there
  stack = await sharedStack('open');
  const { problemsUrl, problemsApiKey, translationUrl, translationApiKey } = stack.upstreamSettings;
  const env = { PORT: '0', PROBLEMS_URL: problemsUrl!, PROBLEMS_API_KEY: problemsApiKey!, TRANSLATION_URL: translationUrl!, TRANSLATION_API_KEY: translationApiKey! };
  recipes = startRecipes(RECIPES, env);
  await launching;
  page = await browser.context.newPage();
  page.on('response', (response) => {
    if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
  });
  page.on('requestfailed', (request) => failed.push(`${request.failure()?.errorText} ${request.url()}`));
  page.on('pageerror', (error) => pageErrors.push(error.message));
  // Every recipe is a first visit: GraphiQL restores no tabs of an earlier one.
  await page.addInitScript(() => window.localStorage.clear());
}, 300_000);
afterAll(async () => {
  await recipes?.stop(0);
  await browser?.close();
  await stack?.close();
});

describe.each(RECIPES)('the %s recipe, mounted at /api/graphql', (recipe) => {
  let url: string;
  beforeAll(async () => {
    url = await recipes.urlOf(recipe).catch((error: Error) => {
      throw new Error(`examples/${recipe}/server.ts did not serve:\n${recipes.output()}`, { cause: error });
    });
  }, 300_000);

  it('answers the cross-source query with the translated titles', async () => {
    expect(new URL(url).pathname).toBe(MOUNT);
    const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: LINK }) });
    const body = (await response.json()) as { data?: any; errors?: unknown };
    expect(body.errors, recipes.output()).toBeUndefined();
    expect(body.data.problems.nodes).toHaveLength(2);
    for (const node of body.data.problems.nodes) expect(node.translation.title).toBe(translatedTitleOf(node.id, 'es'));
  });

  it('serves the probes and metrics below the mount, and 404 naming the mount for other paths below it', async () => {
    const health = await fetch(`${url}/healthcheck`);
    expect(await health.json()).toEqual({ status: 'alive' });
    const readiness = await fetch(`${url}/readiness`);
    expect(readiness.status).toBe(200);
    expect(((await readiness.json()) as { status?: string }).status).toMatch(/^(ready|degraded)$/);
    const metrics = await fetch(`${url}/metrics`);
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toContain('# HELP');
    const missing = await fetch(`${url}/nope`);
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain(`GraphQL is served at ${MOUNT}.`);
  }, 120_000);

  it('opens GraphiQL in Chromium with every file it asks for, and runs the cross-source query', async () => {
    failed.length = 0;
    pageErrors.length = 0;
    // The page comes from the previous recipe: leaving it aborts what that one still loaded (its
    // Monaco workers), which is no failure of this recipe's. Only requests to this one count.
    const here = new URL(url).origin;
    const response = await page.goto(url, { waitUntil: 'commit', timeout: 60_000 });
    expect(response?.headers()['content-type']).toMatch(/^text\/html/);
    // Playwright waits for the text to appear (Monaco draws spaces as U+00A0, which \s matches).
    const queryEditor = page.locator('.graphiql-query-editor .view-lines', { hasText: /query\sProblemsInYourLanguage/ });
    await queryEditor.waitFor({ timeout: 90_000 }).catch((error: Error) => {
      throw new Error(`GraphiQL's editor never showed the query (failed: ${failed.join(', ') || 'none'}; errors: ${pageErrors.join(' | ') || 'none'})`, { cause: error });
    });
    await page.locator('.graphiql-execute-button').click();
    const resultPane = page.locator('.graphiql-response .view-lines', { hasText: /"statement"|"errors"/ });
    await resultPane.waitFor({ timeout: 90_000 });
    const result = editorText(await resultPane.textContent());
    expect(result).toContain('"language": "es"');
    expect(result).not.toContain('"errors"');
    expect(failed.filter((line) => line.includes(here))).toEqual([]);
    expect(pageErrors).toEqual([]);
    expect([...browser.external]).toEqual([]);
  }, 240_000);
});

describe('the recipes on SIGTERM', () => {
  it('each stops serving on SIGTERM, and the process exits with code 0', async () => {
    for (const recipe of RECIPES) await recipes.urlOf(recipe);
    const { exitCode, stillListening } = await recipes.stop(STOP_GRACE_MS);
    expect(stillListening, 'recipes still listening after SIGTERM').toEqual([]);
    expect(exitCode, recipes.output()).toBe(0);
  }, 60_000);
});
