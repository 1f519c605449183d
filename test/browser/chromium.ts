import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

// Debian's Chromium driven by playwright-core (which downloads no browser), kept off the internet:
// every request to a host other than this machine is aborted and counted.

export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-quic',
  '--no-first-run',
  '--disable-component-update',
  '--disable-sync',
];

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

/** Whether a browser request stays on this machine (data:/blob:/about: URLs never leave the page). */
export function staysLocal(rawUrl: string): boolean {
  const url = new URL(rawUrl);
  if (url.protocol === 'data:' || url.protocol === 'blob:' || url.protocol === 'about:') return true;
  return LOOPBACK_HOSTS.has(url.hostname) || /^127\./.test(url.hostname);
}

/** Monaco draws spaces as U+00A0: the text of an editor, as a reader sees it. */
export function editorText(raw: string | null | undefined): string {
  return (raw ?? '').replace(/\u00a0/g, ' ');
}

export interface OfflineBrowser {
  context: BrowserContext;
  /** Requests the pages tried to make to another host (all aborted). */
  external: Set<string>;
  close(): Promise<void>;
}

/** A persistent Chromium context with no way out of this machine. */
export async function launchOfflineChromium(): Promise<OfflineBrowser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`The browser tests need Debian's Chromium at ${CHROMIUM}, which is missing. Install it with \`apt-get install -y chromium\` (.ci/run does this in CI).`);
  }
  const userDataDir = await mkdtemp(join(tmpdir(), 'chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1400, height: 1000 },
    timeout: 30_000,
  });
  const external = new Set<string>();
  await context.route('**/*', async (route) => {
    const url = route.request().url();
    if (staysLocal(url)) return route.continue();
    external.add(url);
    return route.abort('blockedbyclient');
  });
  context.on('request', (request) => {
    if (!staysLocal(request.url())) external.add(request.url());
  });
  return {
    context,
    external,
    close: async () => {
      await context.close();
      await rm(userDataDir, { recursive: true, force: true });
    },
  };
}
