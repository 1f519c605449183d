import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphiqlExamplesFor, type GraphiQLExample } from '../../src/gateway/graphiql/examples.ts';
import { startStack, type Stack } from '../helpers/start-stack.ts';
import { editorText, launchOfflineChromium, staysLocal, type OfflineBrowser } from './chromium.ts';

// GraphiQL in a real browser with no internet: Debian's Chromium, driven by playwright-core (which
// downloads no browser). Every request to a host other than this machine is aborted and counted; the
// page must still load, run the cross-source query and show a translated statement.

const SCREENSHOT = fileURLToPath(new URL('../../test-artifacts/graphiql.png', import.meta.url));

/** What went wrong in the page so far, for failure messages. */
function diagnostics(): string {
  const parts = [
    external.size ? `requests to other hosts (aborted): ${[...external].join(', ')}` : '',
    failedLocal.length ? `failed requests to the gateway: ${failedLocal.join(', ')}` : '',
    pageErrors.length ? `page errors: ${pageErrors.join(' | ')}` : '',
  ].filter(Boolean);
  return parts.length ? parts.join('; ') : 'no blocked or failed request, no page error';
}

/** Polls `read` until `done` holds; on timeout, fails saying what was awaited and what went wrong. */
async function waitFor(what: string, read: () => Promise<string>, done: (value: string) => boolean, timeoutMs: number): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  let value = '';
  while (Date.now() < deadline) {
    value = await read().catch(() => '');
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`GraphiQL did not show ${what} within ${timeoutMs} ms (${diagnostics()}); it showed: ${value.slice(0, 300) || 'nothing'}`);
}

let stack: Stack;
/** The tabs the page opens with, as written from the schema the gateway serves. */
let graphiqlExamples: GraphiQLExample[];
let browser: OfflineBrowser | undefined;
let context: BrowserContext | undefined;
/** Requests the page tried to make to another host (all aborted). */
let external = new Set<string>();
const pageErrors: string[] = [];
const failedLocal: string[] = [];

beforeAll(async () => {
  stack = await startStack();
  graphiqlExamples = graphiqlExamplesFor(stack.gateway.schema);
  // Offline: every request to another host is aborted and counted in `external` (chromium.ts).
  browser = await launchOfflineChromium();
  context = browser.context;
  external = browser.external;
  context.on('requestfailed', (request) => {
    if (staysLocal(request.url())) failedLocal.push(`${request.url()}: ${request.failure()?.errorText}`);
  });
});

afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

describe('GraphiQL in Chromium, offline', () => {
  it('loads from the gateway alone, runs the cross-source query and shows the translated statement', async () => {
    // What the page should show: the same operation, asked over HTTP.
    const expected = await stack.query(graphiqlExamples[0]!.query);
    expect(expected.errors).toBeUndefined();
    const first = expected.data.problems.nodes[0];
    const english = await stack.query(`query ($id: ID!) { problem(id: $id) { statement } }`, { id: first.id });
    const englishWords = new Set(english.data.problem.statement.match(/\p{L}+/gu));
    // A word the translation introduced, early in the first statement so it is on screen.
    const spanishWord = (first.translation.statement as string).match(/\p{L}{4,}/gu)?.find((word) => !englishWords.has(word));
    expect(spanishWord, 'the translated statement has a word the English one lacks').toBeTruthy();

    const page = await context!.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    const response = await page.goto(stack.gatewayUrl, { waitUntil: 'commit', timeout: 60_000 });
    expect(response?.status()).toBe(200);
    expect(await response?.request().headerValue('accept')).toContain('text/html');
    expect(response?.headers()['content-type']).toMatch(/^text\/html/);

    // GraphiQL is up: the query editor holds the cross-source query, and the examples have their tabs.
    const queryEditor = page.locator('.graphiql-query-editor .view-lines');
    await waitFor(
      'the cross-source query in its editor',
      async () => editorText(await queryEditor.textContent()),
      (text) => text.includes('query ProblemsInYourLanguage'),
      90_000,
    );
    const tabs = editorText(await page.locator('.graphiql-tabs').textContent());
    for (const example of graphiqlExamples) expect(tabs).toContain(example.name);

    await page.locator('.graphiql-execute-button').click();
    const resultPane = page.locator('.graphiql-response .view-lines');
    const result = await waitFor(
      'a result with statements',
      async () => editorText(await resultPane.textContent()),
      (text) => text.includes('"statement"') || text.includes('"errors"'),
      90_000,
    );

    await mkdir(join(SCREENSHOT, '..'), { recursive: true });
    await page.screenshot({ path: SCREENSHOT });

    expect(result).toContain('"translation"');
    expect(result).toContain('"language": "es"');
    expect(result).toContain(first.translation.title);
    expect(result).toContain(spanishWord);
    expect(result).not.toContain('"errors"');

    expect([...external], 'requests to hosts other than this machine').toEqual([]);
    expect(failedLocal, 'requests to the gateway that failed').toEqual([]);
    expect(pageErrors, 'uncaught errors in the page').toEqual([]);
  }, 240_000);

  it('switches to every example tab and runs it', async () => {
    // What each example's answer shows near its top (Monaco renders only the lines on screen).
    const shows: Record<string, string[]> = {
      ProblemsInYourLanguage: ['"totalCount"', '"language": "es"'],
      ProblemsOnly: ['"totalCount"', '"title"'],
      TranslationOnly: ['"translation"', '"languages"'],
      TheLink: ['"nodes"', '"language": "es"'],
    };
    expect(Object.keys(shows)).toEqual(graphiqlExamples.map((example) => example.name));
    for (const open of context!.pages()) await open.close();
    const page = await context!.newPage();
    // GraphiQL restores the tabs of the last visit from localStorage: start as a first visit.
    await page.addInitScript(() => window.localStorage.clear());
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(stack.gatewayUrl, { waitUntil: 'commit', timeout: 60_000 });
    const queryEditor = page.locator('.graphiql-query-editor .view-lines');
    const resultPane = page.locator('.graphiql-response .view-lines');
    await waitFor('the first tab', async () => editorText(await queryEditor.textContent()), (text) => text.includes(`query ${graphiqlExamples[0].name}`), 90_000);

    // The last tab first, then back to the first: every switch is a real one.
    for (const example of [...graphiqlExamples.slice(1), graphiqlExamples[0]]) {
      const tab = page.locator('.graphiql-tab', { hasText: example.name });
      // A click that lands while GraphiQL is still settling can be ignored: click again until the
      // editor shows the tab's query, and only then run it, so the answer is that tab's.
      let lastClick = 0;
      await waitFor(
        `the ${example.name} tab's query in the editor`,
        async () => {
          if (Date.now() - lastClick > 1000) {
            lastClick = Date.now();
            await tab.locator('button').first().click();
          }
          return editorText(await queryEditor.textContent());
        },
        (text) => text.includes(`query ${example.name}`),
        60_000,
      );
      // Right after a switch GraphiQL can still hold the previous tab's operation name for a moment
      // ("Cannot infer operation <previous>"): run again until the tab's own operation runs.
      let lastRun = 0;
      const result = await waitFor(
        `the answer to ${example.name}`,
        async () => {
          const text = editorText(await resultPane.textContent());
          if ((lastRun === 0 || text.includes('Cannot infer operation')) && Date.now() - lastRun > 1000) {
            lastRun = Date.now();
            await page.locator('.graphiql-execute-button').click();
          }
          return text;
        },
        (text) => (text.includes('"errors"') && !text.includes('Cannot infer operation')) || shows[example.name].every((marker) => text.includes(marker)),
        60_000,
      );
      expect(result, example.name).not.toContain('"errors"');
    }
    expect([...external], 'requests to hosts other than this machine').toEqual([]);
    expect(pageErrors, 'uncaught errors in the page').toEqual([]);
  }, 400_000);
});
