import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHARED_CLIENT_KEY, sharedStack } from '../helpers/shared-stack.ts';
import type { Stack } from '../helpers/start-stack.ts';
import { standInTranslation, translatedTitleOf } from '../helpers/stand-in-translation.ts';
import { ROOT, runInThisWorker, runnableSnippets, runProgram, SERVES } from './snippets.ts';

const run = promisify(execFile);
const KEY = SHARED_CLIENT_KEY;
const DIR = `${ROOT}test-artifacts/readme-snippets/`;
const LINK = /* GraphQL */ `{ problems(first: 2) { nodes { id title translation(to: "es") { title } } } }`;
const snippets = runnableSnippets();
const fileOf = (index: number) => `${DIR}snippet-${String(index + 1).padStart(2, '0')}.ts`;
const numbered = snippets.map((snippet, index) => [snippet.name, index] as const);
// A server's point is the process (it listens, prints its URL, stops on SIGTERM): each runs as one.
// The others' point is the API (clients, gateway.fetch): they run in this worker, as modules, in
// seconds rather than a process start each.
const servers = numbered.filter(([, index]) => SERVES.test(snippets[index].code));
const others = numbered.filter(([, index]) => !SERVES.test(snippets[index].code));

/**
 * Every block marked runnable (```ts runnable) of the README and docs/clients.md is type-checked and
 * run as written: servers as processes over the local stand-ins (they must answer the cross-source
 * query, then stop on SIGTERM), the others (clients, gateway.fetch) in this worker, against a running
 * gateway that requires a key, their printed answers checked. The recipes under examples/ are such blocks, word for word.
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
    // The repository's settings (the package name maps to src/), checking these files only.
    // Incremental, its record kept beside the folder: a later run re-checks only what changed.
    writeFileSync(
      `${DIR}tsconfig.json`,
      JSON.stringify({ extends: '../../tsconfig.json', compilerOptions: { incremental: true, tsBuildInfoFile: '../readme-snippets.tsbuildinfo' }, include: ['*.ts'] }),
    );
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('include the recipes for node:http, Express, Connect, Fastify and Koa, each the file under examples/ word for word', () => {
    // Recipes are the examples with a server; others (curated-translations) are data a README section shows.
    const examples = readdirSync(`${ROOT}examples`).filter((name) => existsSync(`${ROOT}examples/${name}/server.ts`));
    expect(examples.sort()).toEqual(['connect', 'express', 'fastify', 'koa', 'node-http']);
    const codes = snippets.map((snippet) => snippet.code);
    for (const example of examples) expect(codes, `examples/${example}/server.ts`).toContain(readFileSync(`${ROOT}examples/${example}/server.ts`, 'utf8'));
    expect(snippets.length).toBeGreaterThanOrEqual(8);
  });

  it('type-check under the strict settings of this repository', async () => {
    const result = await run(process.execPath, [`${ROOT}node_modules/typescript/bin/tsc`, '-p', `${DIR}tsconfig.json`], { cwd: ROOT }).catch(
      (error: { stdout: string }) => error,
    );
    // Errors in the project's own files are `npm test`'s type check to report, not this test's.
    const inSnippets = result.stdout.split('\n').filter((line) => line.startsWith('test-artifacts/readme-snippets/'));
    expect(inSnippets).toEqual([]);
  }, 180_000);

  it.each(servers)('%s serves the cross-source query as written, then stops on SIGTERM', async (_name, index) => {
    const ran = await runProgram(fileOf(index), env);
    try {
      expect(ran.url, ran.output).toBeDefined();
      const response = await fetch(ran.url!, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: LINK }) });
      const body = (await response.json()) as { data?: any; errors?: unknown };
      expect(body.errors, ran.output).toBeUndefined();
      for (const node of body.data.problems.nodes) expect(node.translation.title).toBe(translatedTitleOf(node.id, 'es'));
      expect(await ran.stop(), ran.output).toBe(0);
    } finally {
      await ran.stop();
    }
  }, 180_000);

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
