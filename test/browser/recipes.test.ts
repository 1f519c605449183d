import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runProgram, ROOT } from '../docs/snippets.ts';
import { startStack, type Stack } from '../helpers/start-stack.ts';
import { editorText, launchOfflineChromium, type OfflineBrowser } from './chromium.ts';

// Each recipe under examples/ (the README's, word for word), started as an app runs it and opened in
// Chromium at its mount path: GraphiQL loads with all its files, runs the cross-source query, and the
// gateway's other routes answer below the mount, not the app's own routes.

const RECIPES = ['node-http', 'express', 'connect', 'fastify', 'koa'];
const MOUNT = '/api/graphql';

let stack: Stack;
let browser: OfflineBrowser;
let env: Record<string, string>;
beforeAll(async () => {
  stack = await startStack();
  const { problemsUrl, problemsApiKey, translationUrl, translationApiKey } = stack.upstreamSettings;
  env = { PORT: '0', PROBLEMS_URL: problemsUrl!, PROBLEMS_API_KEY: problemsApiKey!, TRANSLATION_URL: translationUrl!, TRANSLATION_API_KEY: translationApiKey! };
  browser = await launchOfflineChromium();
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

describe.each(RECIPES)('the %s recipe, mounted at /api/graphql', (recipe) => {
  let url: string;
  let stop: () => Promise<number | null>;
  let output: string;
  beforeAll(async () => {
    const ran = await runProgram(`${ROOT}examples/${recipe}/server.ts`, env, 240_000);
    if (!ran.url) throw new Error(`examples/${recipe}/server.ts did not serve:\n${ran.output}`);
    url = ran.url;
    stop = ran.stop;
    output = ran.output;
  }, 300_000);
  afterAll(async () => {
    expect(await stop?.(), output).toBe(0);
  }, 60_000);

  it('serves the probes and metrics below the mount, and 404 naming the mount for other paths below it', async () => {
    expect(new URL(url).pathname).toBe(MOUNT);
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
    const page = await browser.context.newPage();
    const failed: string[] = [];
    const pageErrors: string[] = [];
    page.on('response', (response) => {
      if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
    });
    page.on('requestfailed', (request) => failed.push(`${request.failure()?.errorText} ${request.url()}`));
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.addInitScript(() => window.localStorage.clear());
    try {
      const response = await page.goto(url, { waitUntil: 'commit', timeout: 60_000 });
      expect(response?.headers()['content-type']).toMatch(/^text\/html/);
      const queryEditor = page.locator('.graphiql-query-editor .view-lines');
      const resultPane = page.locator('.graphiql-response .view-lines');
      const shown = async (read: () => Promise<string>, done: (text: string) => boolean) => {
        const deadline = Date.now() + 90_000;
        let text = '';
        while (Date.now() < deadline && !done(text)) {
          text = await read().catch(() => '');
          if (!done(text)) await new Promise((resolve) => setTimeout(resolve, 200));
        }
        return text;
      };
      const query = await shown(async () => editorText(await queryEditor.textContent()), (text) => text.includes('query ProblemsInYourLanguage'));
      expect(query, `GraphiQL's editor (failed: ${failed.join(', ') || 'none'}; errors: ${pageErrors.join(' | ') || 'none'})`).toContain('query ProblemsInYourLanguage');
      await page.locator('.graphiql-execute-button').click();
      const result = await shown(async () => editorText(await resultPane.textContent()), (text) => text.includes('"statement"') || text.includes('"errors"'));
      expect(result).toContain('"language": "es"');
      expect(result).not.toContain('"errors"');
      expect(failed).toEqual([]);
      expect(pageErrors).toEqual([]);
      expect([...browser.external]).toEqual([]);
    } finally {
      await page.close();
    }
  }, 240_000);
});
