import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GATEWAY_KEY_HEADERS_HINT } from '../../src/gateway/graphiql.ts';
import { graphiqlExamplesFor } from '../../src/gateway/graphiql/examples.ts';
import { sharedStack } from '../helpers/shared-stack.ts';
import type { Stack } from '../helpers/start-stack.ts';

// The GraphiQL page over HTTP, no browser: it must name nothing outside the gateway, and every file it
// names must be served by the gateway. (test/browser/graphiql.test.ts runs it in Chromium, offline.)

const CDN_HOSTS = /unpkg|jsdelivr|cdnjs|googleapis|gstatic|esm\.sh|skypack|cloudflare/i;

let stack: Stack;
beforeAll(async () => {
  stack = await sharedStack('open');
});
afterAll(async () => {
  await stack?.close();
});

async function fetchPage(url: string): Promise<{ response: Response; html: string }> {
  const response = await fetch(url, { headers: { accept: 'text/html' } });
  return { response, html: await response.text() };
}

/** Every URL in a src or href attribute, as written. */
function attributeUrls(html: string): string[] {
  return [...html.matchAll(/\s(?:src|href)\s*=\s*"([^"]*)"/gi)].map((m) => m[1]);
}

function pageOptions(html: string): Record<string, any> {
  const json = /<script id="graphiql-options" type="application\/json">(.*?)<\/script>/s.exec(html);
  expect(json, 'the page carries its GraphiQL options as JSON').not.toBeNull();
  return JSON.parse(json![1]);
}

describe('the GraphiQL page', () => {
  it('is small HTML that references no absolute http(s) URL and no CDN', async () => {
    const { response, html } = await fetchPage(stack.gatewayUrl);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    // The bundle is served as separate files, not inlined into every page load.
    expect(html.length).toBeLessThan(20_000);
    expect(html).not.toMatch(/https?:\/\//i);
    expect(html).not.toMatch(/\/\/[a-z0-9.-]+\.[a-z]{2,}\//i); // no protocol-relative URLs either
    expect(html).not.toMatch(/unpkg|cdn|jsdelivr|fonts\.googleapis/i);
    expect(html).not.toMatch(/<style|\sstyle=|<script(?![^>]*(src=|type="application\/json"))/i); // nothing inline to run
    const urls = attributeUrls(html);
    expect(urls.length).toBeGreaterThanOrEqual(4);
    for (const url of urls) expect(url, url).toMatch(/^graphiql\/[a-z.]+\?v=[0-9a-f]+$/);
  });

  it('has every file it references served by the gateway, compressed and cacheable', async () => {
    const { html } = await fetchPage(stack.gatewayUrl);
    const urls = attributeUrls(html).map((url) => new URL(url, stack.gatewayUrl));
    for (const url of urls) expect(url.origin).toBe(new URL(stack.gatewayUrl).origin);
    const names = urls.map((url) => url.pathname);
    expect(names).toEqual(expect.arrayContaining(['/graphiql/graphiql.js', '/graphiql/graphiql.css', '/graphiql/boot.js', '/graphiql/favicon.ico']));
    for (const url of urls) {
      const response = await fetch(url, { headers: { 'accept-encoding': 'gzip' } });
      expect(response.status, url.pathname).toBe(200);
      expect(response.headers.get('cache-control'), url.pathname).toContain('immutable');
      const body = await response.text();
      if (url.pathname.endsWith('.js') || url.pathname.endsWith('.css')) {
        expect(response.headers.get('content-encoding'), url.pathname).toBe('gzip');
        expect(body.length, url.pathname).toBeGreaterThan(100);
        expect(body, url.pathname).not.toMatch(/(https?:)?\/\/(unpkg\.com|cdn\.jsdelivr\.net|fonts\.googleapis\.com|fonts\.gstatic\.com|cdnjs\.cloudflare\.com)/);
      }
      if (url.pathname.endsWith('.css')) {
        expect(response.headers.get('content-type')).toMatch(/^text\/css/);
        // Fonts and images are data: URLs; nothing is imported or fetched from elsewhere.
        expect(body).not.toMatch(/@import|url\(\s*['"]?(https?:)?\/\//i);
      }
      if (url.pathname.endsWith('.js')) expect(response.headers.get('content-type')).toMatch(/^text\/javascript/);
    }
  });

  it('serves the Monaco workers from the gateway, where the boot script points Monaco', async () => {
    const boot = await (await fetch(new URL('/graphiql/boot.js', stack.gatewayUrl))).text();
    expect(boot).toContain('getWorkerUrl');
    for (const name of ['editor.worker.js', 'json.worker.js', 'graphql.worker.js']) {
      expect(boot).toContain(name);
      const response = await fetch(new URL(`/graphiql/${name}`, stack.gatewayUrl));
      expect(response.status, name).toBe(200);
      expect(response.headers.get('content-type'), name).toMatch(/^text\/javascript/);
      expect(response.headers.get('cache-control'), name).toContain('must-revalidate'); // no ?v=: revalidated
      expect((await response.text()).length, name).toBeGreaterThan(10_000);
    }
  });

  it('answers a repeated request with 304, HEAD without a body, and unknown files with 404', async () => {
    const url = new URL('/graphiql/graphiql.css', stack.gatewayUrl);
    const first = await fetch(url);
    const etag = first.headers.get('etag');
    await first.arrayBuffer();
    expect(etag).toBeTruthy();
    const again = await fetch(url, { headers: { 'if-none-match': etag! } });
    expect(again.status).toBe(304);
    const head = await fetch(url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    for (const path of ['/graphiql/nope.js', '/graphiql/', '/graphiql/../package.json', '/graphiql/graphiql.js/x']) {
      const response = await fetch(new URL(path, stack.gatewayUrl));
      await response.arrayBuffer();
      expect(response.status, path).toBe(404);
    }
  });

  it('opens on the cross-source query, with the README examples as further tabs', async () => {
    const options = pageOptions((await fetchPage(stack.gatewayUrl)).html);
    expect(options.title).toBe('Problems + Translation gateway');
    expect(options.defaultQuery).toMatch(/problems\(first: \d+\)[\s\S]*translation\(to: \$language\)/);
    expect(options.defaultTabs.map((tab: { query: string }) => /query (\w+)/.exec(tab.query)?.[1])).toEqual([
      'ProblemsInYourLanguage',
      'ProblemsOnly',
      'TranslationOnly',
      'TheLink',
    ]);
    expect(options.defaultTabs[0].query).toBe(options.defaultQuery);
    expect(options.defaultQuery).toContain('$language: [String!]! = ["es"]'); // runs as it is, no variables needed
    // Open gateway: no key hint anywhere.
    expect(options.headers).toBeUndefined();
    for (const tab of options.defaultTabs) expect(tab.headers).toBeNull();
  });

  it('has example operations that all run without errors', async () => {
    for (const example of graphiqlExamplesFor(stack.gateway.schema)) {
      const result = await stack.query(example.query);
      expect(result.errors, example.name).toBeUndefined();
      expect(result.status, example.name).toBe(200);
    }
  });

  it('prefills the headers editor with the key hint when gateway keys are required', async () => {
    const keyed = await stack.addGateway({ settings: { gatewayApiKeys: ['graphiql-test-key'] } });
    const { response, html } = await fetchPage(keyed.gatewayUrl);
    expect(response.status).toBe(200);
    const options = pageOptions(html);
    expect(JSON.parse(options.headers)).toEqual({ Authorization: 'Bearer <your gateway key>' });
    expect(options.headers).toBe(GATEWAY_KEY_HEADERS_HINT);
    for (const tab of options.defaultTabs) expect(tab.headers).toBe(GATEWAY_KEY_HEADERS_HINT);
    expect(html).not.toContain('graphiql-test-key');
    // Its files need no key.
    for (const url of attributeUrls(html)) {
      const asset = await fetch(new URL(url, keyed.gatewayUrl));
      await asset.arrayBuffer();
      expect(asset.status, url).toBe(200);
    }
  });
});
