/**
 * GraphiQL with no internet: the page yoga serves on GET /graphql (from a browser) and every file it
 * needs, served by the gateway itself.
 *
 * Yoga's default page loads GraphiQL from a public CDN (unpkg), which leaves a blank page offline.
 * `@graphql-yoga/render-graphiql` bundles the same YogaGraphiQL build (GraphiQL, React, Monaco, its
 * three workers, fonts as data: URLs); its own renderer inlines all of it, ~9 MB of HTML on every
 * load. Here the page is a small HTML document and the bundle is served as separate, cacheable,
 * gzip-compressed files under `graphiql/` next to the GraphQL endpoint (`/graphql` → `/graphiql/…`),
 * referenced by relative URLs so the page also works behind a reverse proxy that adds a path prefix.
 * The page has no inline script or style, so a `script-src 'self'` Content-Security-Policy allows it.
 */
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { gzip as gzipCallback } from 'node:zlib';
import type { GraphiQLOptions, Plugin } from 'graphql-yoga';

const gzip = promisify(gzipCallback);

/** Folder, relative to the GraphQL endpoint's folder, the page loads its files from. */
export const GRAPHIQL_ASSETS_FOLDER = 'graphiql';

type BundleExport = 'js' | 'css' | 'favicon' | 'editorWorkerService' | 'jsonWorker' | 'graphqlWorker';

interface AssetDefinition {
  contentType: string;
  /** Where its bytes come from: an export of the bundle, or the boot script below. */
  source: BundleExport | 'boot';
}

/** Every file the page may request, by name under `graphiql/`. Nothing else is served there. */
const ASSETS: Record<string, AssetDefinition> = {
  'graphiql.js': { contentType: 'text/javascript; charset=utf-8', source: 'js' },
  'graphiql.css': { contentType: 'text/css; charset=utf-8', source: 'css' },
  'favicon.ico': { contentType: 'image/x-icon', source: 'favicon' },
  'boot.js': { contentType: 'text/javascript; charset=utf-8', source: 'boot' },
  'editor.worker.js': { contentType: 'text/javascript; charset=utf-8', source: 'editorWorkerService' },
  'json.worker.js': { contentType: 'text/javascript; charset=utf-8', source: 'jsonWorker' },
  'graphql.worker.js': { contentType: 'text/javascript; charset=utf-8', source: 'graphqlWorker' },
};

/** The names of the files under `graphiql/`; routes.ts serves exactly these paths. */
export const GRAPHIQL_ASSET_NAMES = Object.keys(ASSETS);

/**
 * Runs before the bundle: tells Monaco where its workers are (same origin, so no blob: URLs and no
 * CDN), then renders YogaGraphiQL with the options the page carries as JSON once the bundle has run.
 */
const BOOT_SCRIPT = `(function () {
  'use strict';
  var base = new URL('.', document.currentScript.src);
  var workers = { editorWorkerService: 'editor.worker.js', json: 'json.worker.js', graphql: 'graphql.worker.js' };
  self.MonacoEnvironment = {
    globalAPI: false,
    getWorkerUrl: function (moduleId, label) {
      return new URL(workers[label] || workers.editorWorkerService, base).href;
    },
  };
  document.addEventListener('DOMContentLoaded', function () {
    var root = document.getElementById('root');
    if (typeof YogaGraphiQL === 'undefined') {
      root.textContent = 'GraphiQL could not load its script from ' + new URL('graphiql.js', base).href + '.';
      return;
    }
    var options = JSON.parse(document.getElementById('graphiql-options').textContent);
    YogaGraphiQL.renderYogaGraphiQL(root, options);
  });
})();
`;

const require = createRequire(import.meta.url);
const bundleVersion: string = require('@graphql-yoga/render-graphiql/package.json').version;

/** Changes whenever any served byte can change: the bundle's version or the boot script. */
export const GRAPHIQL_ASSETS_VERSION = createHash('sha256')
  .update(`${bundleVersion}\n${BOOT_SCRIPT}`)
  .digest('hex')
  .slice(0, 16);

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'public, max-age=0, must-revalidate';

interface LoadedAsset {
  definition: AssetDefinition;
  body: Buffer;
  gzipped: Buffer;
  etag: string;
}

let bundle: Promise<Record<BundleExport, string>> | undefined;
const loaded = new Map<string, Promise<LoadedAsset>>();

/** The bundle is ~9 MB of JavaScript: read only when a browser first asks for a file. */
function loadBundle(): Promise<Record<BundleExport, string>> {
  bundle ??= import('@graphql-yoga/render-graphiql/graphiql');
  return bundle;
}

function loadAsset(name: string, definition: AssetDefinition): Promise<LoadedAsset> {
  let asset = loaded.get(name);
  if (!asset) {
    asset = (async () => {
      const body = definition.source === 'boot' ? Buffer.from(BOOT_SCRIPT) : toBytes((await loadBundle())[definition.source]);
      return {
        definition,
        body,
        gzipped: await gzip(body),
        etag: `"${createHash('sha256').update(body).digest('hex').slice(0, 32)}"`,
      };
    })();
    asset.catch(() => loaded.delete(name));
    loaded.set(name, asset);
  }
  return asset;
}

/**
 * Reads and compresses every file under `graphiql/` now rather than on a browser's first request
 * (the bundle is read and gzip-compressed once either way). For an entry that serves GraphiQL, once
 * it listens; a failure is left for a request to meet again, as without it.
 */
export async function warmGraphiQLAssets(): Promise<void> {
  await Promise.all(Object.entries(ASSETS).map(([name, definition]) => loadAsset(name, definition)));
}

/** A bundle export as bytes: the favicon is a data: URL, the rest is text. */
function toBytes(value: string): Buffer {
  const dataUrl = /^data:[^;,]+;base64,(.*)$/s.exec(value);
  return dataUrl ? Buffer.from(dataUrl[1], 'base64') : Buffer.from(value);
}

/** The asset a path names (`…/graphiql/<name>`), if any. */
function assetNameOf(pathname: string): string | undefined {
  const marker = `/${GRAPHIQL_ASSETS_FOLDER}/`;
  const at = pathname.lastIndexOf(marker);
  if (at < 0) return undefined;
  const name = pathname.slice(at + marker.length);
  return Object.hasOwn(ASSETS, name) ? name : undefined;
}

function acceptsGzip(request: Request): boolean {
  return (request.headers.get('accept-encoding') ?? '').split(',').some((entry) => {
    const [coding, ...params] = entry.split(';').map((part) => part.trim().toLowerCase());
    const q = params.find((param) => param.startsWith('q='));
    return (coding === 'gzip' || coding === '*') && (q === undefined || Number(q.slice(2)) > 0);
  });
}

/**
 * Yoga plugin serving the GraphiQL page's files at `<folder of the GraphQL endpoint>/graphiql/<name>`
 * (`/graphiql/graphiql.js` for `/graphql`). GET and HEAD only; other paths and methods pass through.
 */
export function useGraphiQLAssets(): Plugin {
  return {
    async onRequest({ request, url, endResponse, fetchAPI }) {
      if (request.method !== 'GET' && request.method !== 'HEAD') return;
      const name = assetNameOf(url.pathname);
      if (!name) return;
      const asset = await loadAsset(name, ASSETS[name]);
      const gzipped = acceptsGzip(request);
      const headers: Record<string, string> = {
        'content-type': asset.definition.contentType,
        'cache-control': url.searchParams.get('v') === GRAPHIQL_ASSETS_VERSION ? IMMUTABLE : REVALIDATE,
        etag: asset.etag,
        vary: 'Accept-Encoding',
        'x-content-type-options': 'nosniff',
      };
      const ifNoneMatch = request.headers.get('if-none-match');
      if (ifNoneMatch && ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === asset.etag)) {
        endResponse(new fetchAPI.Response(null, { status: 304, headers }));
        return;
      }
      const body = gzipped ? asset.gzipped : asset.body;
      if (gzipped) headers['content-encoding'] = 'gzip';
      headers['content-length'] = String(body.byteLength);
      endResponse(new fetchAPI.Response(request.method === 'HEAD' ? null : new Uint8Array(body.buffer, body.byteOffset, body.byteLength) as Uint8Array<ArrayBuffer>, { status: 200, headers }));
    },
  };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** JSON that is safe inside a <script> element (no `</script>`, no `<!--`). */
function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

/**
 * Yoga's `renderGraphiQL`: the GraphiQL page, a few hundred bytes of HTML whose every URL is relative
 * to the page (the files above). The options reach YogaGraphiQL as JSON.
 */
export function renderGraphiQLPage(options: GraphiQLOptions & { assetsBase?: string } = {}): string {
  // `assetsBase`: where the files' folder is, when not next to the page (a mounted gateway's page).
  const { favicon, assetsBase = '', ...graphiqlOptions } = options;
  // Escaped: the mount path comes from the request's URL.
  const asset = (name: string) => escapeHtml(`${assetsBase}${GRAPHIQL_ASSETS_FOLDER}/${name}?v=${GRAPHIQL_ASSETS_VERSION}`);
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${escapeHtml(options.title || 'GraphiQL')}</title>
    <link rel="icon" href="${favicon === undefined ? asset('favicon.ico') : escapeHtml(favicon)}" />
    <link rel="stylesheet" href="${asset('graphiql.css')}" />
    <script id="graphiql-options" type="application/json">${jsonForScript(graphiqlOptions)}</script>
    <script defer src="${asset('boot.js')}"></script>
    <script defer src="${asset('graphiql.js')}"></script>
  </head>
  <body id="body" class="no-focus-outline">
    <noscript>GraphiQL needs JavaScript. Clients can POST GraphQL to this URL.</noscript>
    <div id="root"></div>
  </body>
</html>
`;
}
