import { readdirSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createGateway } from '../../src/gateway/create-gateway.ts';
import { openCuratedDirectory, type CuratedEntry } from '../../src/gateway/translation/curated/curated-directory.ts';
import { statementSha256 } from '../../src/gateway/translation/curated/curated-translations.ts';
import { dataset } from '../../src/upstreams/problems/data/index.ts';
import { startRedis, type RedisServer } from '../helpers/redis-server.ts';
import { askWithHeaders } from '../helpers/ask-with-headers.ts';
import { startStack, type Stack } from '../helpers/start-stack.ts';

const ask = askWithHeaders;

const problem = (id: string) => dataset.problems.find((candidate) => candidate.id === id)!;

/** A curated file as an operator writes one: made from the problem's statement as it is, unless `madeFrom` says otherwise. */
function curatedFile(id: string, { title = `Título curado de ${id}`, madeFrom = problem(id).statement, body = `Enunciado curado de ${id}.\n\n$1 \\le n \\le 10^5$` } = {}) {
  return ['---', `title: ${title}`, `source_sha256: ${statementSha256(madeFrom)}`, 'source_language: en', 'made_at: 2026-03-01', '---', body, ''].join('\n');
}

async function write(dir: string, relative: string, text: string) {
  await mkdir(join(dir, relative, '..'), { recursive: true });
  await writeFile(join(dir, relative), text);
}

/** Polls `check` until it holds (the watcher's debounce and a rescan take a moment), failing after a few seconds. */
async function eventually(check: () => Promise<boolean>, what: string) {
  const deadline = Date.now() + 8000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within 8 s: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const PAGE = (args: string) => /* GraphQL */ `{
  problems(first: 20) { nodes { id translation${args} { language title statement provenance { kind sourceLanguage madeAt stale } } } }
}`;
const FIRST_PAGE = dataset.problems.slice(0, 20).map(({ id }) => id);

describe("readers' languages: curated translations", () => {
  let stack: Stack;
  let dir: string;
  const lines: string[] = [];
  // Calls for translations: the start-up check of the key (a detection of no text) is none.
  const translationRequests = () => stack.translation.stats.requests - (stack.translation.stats.byRoute['POST /detect'] ?? 0);
  const translateCalls = () => stack.translation.stats.byRoute['POST /translate'] ?? 0;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'curated-'));
    for (const id of FIRST_PAGE) await write(dir, `${id}/es.md`, curatedFile(id));
    // One made from an older statement; one that does not parse; one whose name is no language.
    await write(dir, 'p1030/es.md', curatedFile('p1030', { madeFrom: 'An older statement.' }));
    await write(dir, 'p1031/es.md', 'title: no front matter at all\n');
    await write(dir, 'p1032/klingon-tongue.md', curatedFile('p1032'));
    stack = await startStack({
      settings: { problemsCacheTtlSeconds: 0, translationCuratedDir: dir, translationCuratedRescanSeconds: 0 },
      log: (line) => lines.push(line),
    });
  });
  afterAll(async () => {
    await stack?.close();
    await rm(dir, { recursive: true, force: true });
  });
  beforeEach(() => stack.translation.resetStats());

  it('serves a page of 20 curated translations, marked curated with their source and date, with no call to the service at all', async () => {
    const started = performance.now();
    const page = await ask(stack.gatewayUrl, PAGE('(to: "es")'));
    const curatedMs = performance.now() - started;
    expect(page.errors).toBeUndefined();
    for (const node of page.data.problems.nodes) {
      expect(node.translation).toEqual({
        language: 'es',
        title: `Título curado de ${node.id}`,
        statement: `Enunciado curado de ${node.id}.\n\n$1 \\le n \\le 10^5$`,
        provenance: { kind: 'CURATED', sourceLanguage: 'en', madeAt: '2026-03-01T00:00:00.000Z', stale: false },
      });
    }
    // Not even the language list: a curated translation in the language asked for needs nothing of the service.
    expect(translationRequests()).toBe(0);

    // Negotiated from the header alike, when the reader's first choice is curated.
    const negotiated = await ask(stack.gatewayUrl, PAGE(''), { 'accept-language': 'es-MX, fr;q=0.5' });
    expect(negotiated.data).toEqual(page.data);
    expect(negotiated.headers.get('content-language')).toBe('es');
    expect(translationRequests()).toBe(0);
    console.log(`[figures] curated page of 20 (cold gateway): ${translateCalls()} POST /translate, ${translationRequests()} translation requests, ${curatedMs.toFixed(0)} ms`);
  });

  it('measures a cold machine page against a curated one on a warm gateway', async () => {
    // Warm what is not translation: the languages list, the statement worker, the problems path.
    await ask(stack.gatewayUrl, /* GraphQL */ `{ problem(id: "p1100") { translation(to: "it") { title } } }`);
    const timed = async (query: string) => {
      stack.translation.resetStats();
      const started = performance.now();
      const answer = await ask(stack.gatewayUrl, query);
      expect(answer.errors).toBeUndefined();
      return { ms: performance.now() - started, calls: translateCalls(), requests: translationRequests(), answer };
    };
    const cold = await timed(PAGE('(to: "de")'));
    const warm = await timed(PAGE('(to: "de")'));
    const curated = await timed(PAGE('(to: "es")'));
    expect(cold.calls).toBe(1);
    expect(warm.calls).toBe(0);
    expect(curated.requests).toBe(0);
    expect(cold.answer.data.problems.nodes.every((node: { translation: { provenance: { kind: string } } }) => node.translation.provenance.kind === 'MACHINE')).toBe(true);
    console.log(
      `[figures] page of 20, warm gateway: cold machine (de) ${cold.calls} POST /translate ${cold.ms.toFixed(0)} ms; ` +
        `warm machine ${warm.calls} calls ${warm.ms.toFixed(0)} ms; curated (es) ${curated.requests} translation requests ${curated.ms.toFixed(0)} ms`,
    );
  });

  it('replaces a stale curated translation with a machine one by default, saying so in one log line and the stale gauge', async () => {
    const query = /* GraphQL */ `{ problem(id: "p1030") { translation(to: "es") { title provenance { kind stale } } } }`;
    const first = await ask(stack.gatewayUrl, query);
    const second = await ask(stack.gatewayUrl, query);
    expect(first.data.problem.translation.provenance).toEqual({ kind: 'MACHINE', stale: false });
    expect(second.data).toEqual(first.data);
    expect(lines.filter((line) => line.includes('p1030/es.md') && line.includes('stale'))).toHaveLength(1);
    expect(lines.find((line) => line.includes('p1030/es.md'))).toMatch(/replaced by a machine translation \(TRANSLATION_CURATED_STALE=machine\)/);
    const metrics = await (await fetch(stack.gatewayUrl.replace(/graphql$/, 'metrics'))).text();
    expect(metrics).toMatch(/gateway_translation_curated_files\{state="stale"\} 1/);
    expect(metrics).toMatch(/gateway_translation_curated_files\{state="loaded"\} 21/);
    expect(metrics).toMatch(/gateway_translation_curated_files\{state="invalid"\} 2/);
  });

  it('serves it all the same, marked stale, under TRANSLATION_CURATED_STALE=serve', async () => {
    const serving = await stack.addGateway({ settings: { problemsCacheTtlSeconds: 0, translationCuratedDir: dir, translationCuratedStale: 'serve', translationCuratedRescanSeconds: 0 } });
    const answer = await ask(serving.gatewayUrl, /* GraphQL */ `{ problem(id: "p1030") { translation(to: "es") { title provenance { kind stale } } } }`);
    expect(answer.data.problem.translation).toEqual({ title: 'Título curado de p1030', provenance: { kind: 'CURATED', stale: true } });
    expect(translationRequests()).toBe(0);
    const metrics = await (await fetch(serving.gatewayUrl.replace(/graphql$/, 'metrics'))).text();
    expect(metrics).toMatch(/gateway_translation_curated_served_total\{stale="true"\} 1/);
  });

  it('names each file it cannot use in one log line and serves the rest', async () => {
    expect(lines.filter((line) => line.includes('p1031/es.md'))).toEqual([expect.stringMatching(/skipped: it does not start with a front matter line/)]);
    expect(lines.filter((line) => line.includes('p1032/klingon-tongue.md'))).toEqual([expect.stringMatching(/skipped: its name "klingon-tongue" is not a language tag/)]);
    const answer = await ask(stack.gatewayUrl, /* GraphQL */ `{ problem(id: "p1031") { translation(to: "es") { provenance { kind } } } }`);
    expect(answer.data.problem.translation.provenance.kind).toBe('MACHINE');
  });

  it('follows the directory while running: a file added, changed and removed is served at once, the response cache too', async () => {
    const cached = await stack.addGateway({ settings: { problemsCacheTtlSeconds: 0, responseCacheTtlSeconds: 60, translationCuratedDir: dir, translationCuratedRescanSeconds: 0 } });
    const query = /* GraphQL */ `{ problem(id: "p1040") { translation(to: "es") { title provenance { kind } } } }`;
    const translation = async () => (await ask(cached.gatewayUrl, query)).data.problem.translation;
    expect((await translation()).provenance.kind).toBe('MACHINE');
    await write(dir, 'p1040/es.md', curatedFile('p1040'));
    await eventually(async () => (await translation()).title === 'Título curado de p1040', 'the new file served');
    await write(dir, 'p1040/es.md', curatedFile('p1040', { title: 'Otro título' }));
    await eventually(async () => (await translation()).title === 'Otro título', 'the changed file served');
    await rm(join(dir, 'p1040'), { recursive: true });
    await eventually(async () => (await translation()).provenance.kind === 'MACHINE', 'the removed file no longer served');
    // The broken file was read once: rescans left it alone, and it was named only once.
    expect(lines.filter((line) => line.includes('p1031/es.md'))).toHaveLength(1);
    // Fixed, it is served.
    await write(dir, 'p1031/es.md', curatedFile('p1031'));
    const fixed = /* GraphQL */ `{ problem(id: "p1031") { translation(to: "es") { provenance { kind } } } }`;
    await eventually(async () => (await ask(cached.gatewayUrl, fixed)).data.problem.translation.provenance.kind === 'CURATED', 'the fixed file served');
  });

  it('finds changes with the periodic rescan alone, where no file watcher sees them', async () => {
    const seen: string[][] = [];
    const directory = await openCuratedDirectory({
      dir,
      log: () => undefined,
      rescanMs: 100,
      watch: false,
      onLoaded: (set) => seen.push([...(set.get('p1041')?.keys() ?? [])]),
    });
    try {
      expect(seen.at(-1)).toEqual([]);
      await write(dir, 'p1041/fr.md', curatedFile('p1041', { title: 'Titre' }));
      await eventually(async () => seen.at(-1)?.includes('fr') === true, 'the new file found by a rescan');
      const loads = seen.length;
      // Rescans that find nothing new load nothing (three of them, run here rather than waited for).
      for (let rescans = 0; rescans < 3; rescans += 1) await directory.rescan();
      expect(seen).toHaveLength(loads);
    } finally {
      directory.close();
    }
  });

  it('reads the example directory under examples/ whole, made from the stand-in\'s statements as they are', async () => {
    const skipped: string[] = [];
    let entries: CuratedEntry[] = [];
    const example = await openCuratedDirectory({
      dir: join(import.meta.dirname, '../../examples/curated-translations'),
      log: (line, level) => void (level === 'warn' && skipped.push(line)),
      rescanMs: 0,
      watch: false,
      onLoaded: (set) => (entries = [...set.values()].flatMap((languages) => [...languages.values()])),
    });
    example.close();
    expect(skipped).toEqual([]);
    // Every file of the example, each read: <problem id>/<language>.md.
    expect(entries.map((entry) => `${entry.problemId}/${entry.language}.md`).sort()).toEqual(
      readdirSync(join(import.meta.dirname, '../../examples/curated-translations'), { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.md')).sort(),
    );
    for (const entry of entries) expect(entry.sourceSha256).toBe(statementSha256(problem(entry.problemId).statement));
  });

  it('stops start-up when TRANSLATION_CURATED_DIR is no directory, naming the variable', async () => {
    await expect(
      createGateway({ log: () => undefined, requestLog: false, settings: { ...stack.upstreamSettings, translationCuratedDir: join(dir, 'missing') } }),
    ).rejects.toThrow(/TRANSLATION_CURATED_DIR: ".*missing" is not a directory/);
  });
});

describe("readers' languages: curated translations shared by replicas through Redis", () => {
  let stack: Stack;
  let redis: RedisServer;
  let dir: string;

  beforeAll(async () => {
    redis = await startRedis();
    dir = await mkdtemp(join(tmpdir(), 'curated-shared-'));
    await write(dir, 'p1001/pt.md', curatedFile('p1001', { title: 'Título partilhado' }));
    // The replica that holds the files publishes them.
    stack = await startStack({ settings: { problemsCacheTtlSeconds: 0, redisUrl: redis.url, translationCuratedDir: dir, translationCuratedRescanSeconds: 1 } });
  });
  afterAll(async () => {
    await stack?.close();
    await redis?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('serves a replica without the directory what the one with it publishes, and its changes', async () => {
    const follower = await stack.addGateway({ settings: { problemsCacheTtlSeconds: 0, redisUrl: redis.url, translationCuratedRescanSeconds: 1 } });
    const query = /* GraphQL */ `{ problem(id: "p1001") { translation { language title provenance { kind } } } }`;
    const translation = async () => (await ask(follower.gatewayUrl, query, { 'accept-language': 'pt-PT' })).data.problem.translation;
    await eventually(async () => (await translation()).title === 'Título partilhado', 'the published set served by the follower');
    stack.translation.resetStats();
    expect(await translation()).toEqual({ language: 'pt', title: 'Título partilhado', provenance: { kind: 'CURATED' } });
    expect(stack.translation.stats.requests).toBe(0);
    await write(dir, 'p1001/pt.md', curatedFile('p1001', { title: 'Título revisto' }));
    await eventually(async () => (await translation()).title === 'Título revisto', 'the change served by the follower');
  });
});
