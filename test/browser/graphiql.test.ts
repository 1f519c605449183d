import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page, Request, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphiqlExamplesFor, type GraphiQLExample } from '../../src/gateway/graphiql/examples.ts';
import { sharedStack } from '../helpers/shared-stack.ts';
import type { Stack } from '../helpers/start-stack.ts';
import { editorText, launchOfflineChromium, staysLocal, type OfflineBrowser } from './chromium.ts';

// GraphiQL in a real browser with no internet: Debian's Chromium, driven by playwright-core (which
// downloads no browser). Every request to a host other than this machine is aborted and counted; the
// page must still load, run the cross-source query and show a translated statement. One page, loaded
// once, serves both tests: loading GraphiQL (React, Monaco and its workers) is most of their cost.

const SCREENSHOT = fileURLToPath(new URL('../../test-artifacts/graphiql.png', import.meta.url));
/** How long the page may take to show something, on a loaded 2-core machine. */
const SHOW_MS = 90_000;

let stack: Stack;
/** The tabs the page opens with, as written from the schema the gateway serves. */
let graphiqlExamples: GraphiQLExample[];
let browser: OfflineBrowser | undefined;
const pageErrors: string[] = [];
const failedLocal: string[] = [];

/** What went wrong in the page so far, for failure messages. */
function diagnostics(): string {
  const external = browser?.external ?? new Set();
  const parts = [
    external.size ? `requests to other hosts (aborted): ${[...external].join(', ')}` : '',
    failedLocal.length ? `failed requests to the gateway: ${failedLocal.join(', ')}` : '',
    pageErrors.length ? `page errors: ${pageErrors.join(' | ')}` : '',
  ].filter(Boolean);
  return parts.length ? parts.join('; ') : 'no blocked or failed request, no page error';
}

/** Waits until the page shows `text` in the element `selector` names; on timeout, says what went wrong in the page. */
async function shown(page: Page, selector: string, text: string | RegExp, what: string): Promise<string> {
  const element = page.locator(selector, { hasText: text });
  await element.waitFor({ timeout: SHOW_MS }).catch(async (error: Error) => {
    const showing = editorText(await page.locator(selector).first().textContent({ timeout: 1_000 }).catch(() => ''));
    throw new Error(`GraphiQL did not show ${what} (${diagnostics()}); it showed: ${showing.slice(0, 300) || 'nothing'}`, { cause: error });
  });
  return editorText(await element.textContent());
}

/** `text` as a pattern of the editor's text: Monaco draws spaces as U+00A0, which \s matches. */
function editorPattern(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s');
}

const QUERY_EDITOR = '.graphiql-query-editor .view-lines';
const RESULT_PANE = '.graphiql-response .view-lines';

/** The GraphiQL page, opened once as a first visit; the response to its navigation. */
let opened: Promise<{ page: Page; navigation: Response | null }> | undefined;
const graphiqlPage = () =>
  (opened ??= (async () => {
    const page = await browser!.context.newPage();
    // GraphiQL restores the tabs of the last visit from localStorage: start as a first visit.
    await page.addInitScript(() => window.localStorage.clear());
    page.on('pageerror', (error) => pageErrors.push(error.message));
    const navigation = await page.goto(stack.gatewayUrl, { waitUntil: 'commit', timeout: 60_000 });
    await shown(page, QUERY_EDITOR, `query ${graphiqlExamples[0]!.name}`, 'the cross-source query in its editor');
    return { page, navigation };
  })());

/** Whether a request is the page's POST of `operationName` to the gateway. */
const postOf = (operationName: string) => (request: Request) =>
  request.method() === 'POST' && request.url() === stack.gatewayUrl && request.postDataJSON()?.operationName === operationName;

/**
 * Runs the open tab's operation with the ▶ button; resolves with the gateway's answer to it. Right
 * after a switch GraphiQL can still hold the previous tab's operation name and refuse in the page
 * ("Cannot infer operation <previous>", nothing sent): it is run again once the page has drawn a
 * frame since, up to three times.
 */
async function runTab(page: Page, operationName: string): Promise<Response> {
  const refusal = page.locator(RESULT_PANE, { hasText: 'Cannot infer operation' });
  for (let attempt = 1; ; attempt += 1) {
    const sent = page.waitForRequest(postOf(operationName), { timeout: SHOW_MS });
    // A refusal already on screen (an earlier attempt's) says nothing of this one: then only the request counts.
    const refused = (await refusal.count()) > 0 ? new Promise<never>(() => undefined) : refusal.waitFor({ timeout: SHOW_MS });
    await page.locator('.graphiql-execute-button').click();
    const request = await Promise.race([sent, refused.then(() => undefined)]);
    sent.catch(() => undefined);
    refused.catch(() => undefined);
    if (request) {
      const answer = await request.response();
      if (!answer) throw new Error(`the page's ${operationName} request got no answer (${diagnostics()})`);
      return answer;
    }
    if (attempt === 3) throw new Error(`GraphiQL refused to run ${operationName} three times: ${editorText(await refusal.textContent())}`);
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
  }
}

beforeAll(async () => {
  // Offline: every request to another host is aborted and counted in `external` (chromium.ts).
  // Chromium starts in its own processes while this thread builds the stack; kept as soon as it
  // runs, so that afterAll closes it whatever fails meanwhile.
  const launching = launchOfflineChromium().then((launched) => (browser = launched));
  launching.catch(() => undefined); // awaited below; a failure meanwhile is reported there
  stack = await sharedStack('open');
  graphiqlExamples = graphiqlExamplesFor(stack.gateway.schema);
  await launching;
  browser!.context.on('requestfailed', (request) => {
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
    expect(spanishWord, 'the translated statement has a word the English one lacks').toMatch(/^\p{L}{4,}$/u);

    const { page, navigation } = await graphiqlPage();
    expect(navigation?.status()).toBe(200);
    expect(await navigation?.request().headerValue('accept')).toContain('text/html');
    expect(navigation?.headers()['content-type']).toMatch(/^text\/html/);

    // GraphiQL is up (the editor holds the cross-source query), and the examples have their tabs.
    const tabs = editorText(await page.locator('.graphiql-tabs').textContent());
    for (const example of graphiqlExamples) expect(tabs).toContain(example.name);

    expect((await runTab(page, graphiqlExamples[0]!.name)).status()).toBe(200);
    const result = await shown(page, RESULT_PANE, /"statement"|"errors"/, 'a result with statements');

    await mkdir(join(SCREENSHOT, '..'), { recursive: true });
    await page.screenshot({ path: SCREENSHOT });

    expect(result).toContain('"translation"');
    expect(result).toContain('"language": "es"');
    expect(result).toContain(first.translation.title);
    expect(result).toContain(spanishWord);
    expect(result).not.toContain('"errors"');

    expect([...browser!.external], 'requests to hosts other than this machine').toEqual([]);
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
    const { page } = await graphiqlPage();

    // The other tabs in turn, then back to the first: every switch is a real one.
    for (const example of [...graphiqlExamples.slice(1), graphiqlExamples[0]]) {
      // Dispatched to the tab's button: the tabs can be dragged to reorder them, and a pointer's click
      // on a tab still moving into place lands on another.
      await page.locator('.graphiql-tab', { hasText: example.name }).locator('button').first().dispatchEvent('click');
      await shown(page, QUERY_EDITOR, `query ${example.name}`, `the ${example.name} tab's query in the editor`);
      const answer = await runTab(page, example.name);
      expect(answer.status(), example.name).toBe(200);
      const result = await shown(page, RESULT_PANE, new RegExp(shows[example.name].map((marker) => `(?=[^]*${editorPattern(marker)})`).join('')), `the answer to ${example.name}`);
      expect(result, example.name).not.toContain('"errors"');
    }
    expect([...browser!.external], 'requests to hosts other than this machine').toEqual([]);
    expect(pageErrors, 'uncaught errors in the page').toEqual([]);
  }, 400_000);
});
