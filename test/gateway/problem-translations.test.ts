import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statementSha256 } from '../../src/gateway/translation/curated/curated-translations.ts';
import { dataset } from '../../src/upstreams/problems/data/index.ts';
import { lanesTaken } from '../helpers/ask-three-ways.ts';
import { askWithHeaders as ask } from '../helpers/ask-with-headers.ts';
import { startRedis, type RedisServer } from '../helpers/redis-server.ts';
import { sharedStack } from '../helpers/shared-stack.ts';
import type { Stack } from '../helpers/start-stack.ts';

/**
 * A problem's language menu (`Problem.translations`): every language it can be read in, each as
 * `translation(to:)` would serve it, for a listing page at no translation call.
 */
const LISTING = (args = '') => /* GraphQL */ `{
  problems(first: 20) { nodes { id translations${args} { language availability kind madeAt stale partial prewarmed } } }
}`;
type Entry = { language: string; availability: string; kind: string; madeAt: string | null; stale: boolean; partial: boolean; prewarmed: boolean };
type Listing = { problems: { nodes: { id: string; translations: Entry[] }[] } };

/** The stand-in's languages other than English: what it translates an English problem into. */
const OFFERED = ['de', 'es', 'fr', 'it', 'pt'];
const onRequest = (languages: string[], prewarmed: string[] = []): Entry[] =>
  languages.map((language) => ({ language, availability: 'ON_REQUEST', kind: 'MACHINE', madeAt: null, stale: false, partial: false, prewarmed: prewarmed.includes(language) }));
const original = (language: string): Entry => ({ language, availability: 'ORIGINAL', kind: 'ORIGINAL', madeAt: null, stale: false, partial: false, prewarmed: false });
const cached = (language: string, prewarmed = false) => ({ language, availability: 'CACHED', kind: 'MACHINE', madeAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), stale: false, partial: false, prewarmed });
const menuOf = (listing: Listing, id: string) => listing.problems.nodes.find((node) => node.id === id)!.translations;

const problem = (id: string) => dataset.problems.find((candidate) => candidate.id === id)!;

describe('Problem.translations: a listing page', () => {
  let stack: Stack;
  const routes = () => ({ ...stack.translation.stats.byRoute });
  /** Calls of each route since `before`, the routes with none left out. */
  const callsSince = (before: Record<string, number>) =>
    Object.fromEntries(Object.entries(stack.translation.stats.byRoute).flatMap(([route, count]) => (count > (before[route] ?? 0) ? [[route, count - (before[route] ?? 0)]] : [])));

  beforeAll(async () => {
    stack = await sharedStack('open');
  });
  afterAll(async () => stack?.close());

  it('lists the original, the cached and the makeable languages of a page of 20 with no call to the translation service', async () => {
    const gateway = await stack.addGateway({ settings: { problemsCacheTtlSeconds: 0 } });
    const made = await gateway.query(/* GraphQL */ `{ a: problem(id: "p1001") { translation(to: "es") { language } } b: problem(id: "p1002") { translation(to: "es") { language } } }`);
    expect(made.errors).toBeUndefined();

    const before = routes();
    const listing = await gateway.query<Listing>(LISTING());
    expect(listing.errors).toBeUndefined();
    expect(callsSince(before)).toEqual({});
    expect(listing.data!.problems.nodes).toHaveLength(20);
    // Translated once: English, learned from that call; Spanish cached; the rest on request.
    expect(menuOf(listing.data!, 'p1001')).toEqual([original('en'), cached('es'), ...onRequest(OFFERED.filter((language) => language !== 'es'))]);
    expect(menuOf(listing.data!, 'p1002')).toEqual(menuOf(listing.data!, 'p1001').map((entry) => ({ ...entry, madeAt: entry.madeAt === null ? null : expect.any(String) })));
    // Never translated: its language is not known yet, so English is a language the service would make.
    expect(menuOf(listing.data!, 'p1003')).toEqual([original('und'), ...onRequest(['de', 'en', ...OFFERED.slice(1)])]);

    // What the menu says holds: the cached language costs no call, one on request costs one.
    const again = routes();
    const spanish = await gateway.query(/* GraphQL */ `{ problem(id: "p1001") { translation(to: "es") { provenance { kind } } } }`);
    expect(spanish.data.problem.translation).toEqual({ provenance: { kind: 'MACHINE' } });
    expect(callsSince(again)).toEqual({});
    const german = await gateway.query(/* GraphQL */ `{ problem(id: "p1001") { translation(to: "de") { provenance { kind } } } }`);
    expect(german.data.problem.translation).toEqual({ provenance: { kind: 'MACHINE' } });
    expect(callsSince(again)).toEqual({ 'POST /translate': 1 });
    const after = await gateway.query<Listing>(LISTING('(availability: [ORIGINAL, CACHED])'));
    expect(menuOf(after.data!, 'p1001')).toEqual([original('en'), cached('de'), cached('es')]);
  });

  it('costs no call either with only the languages served at once, even before the service\'s list was ever fetched', async () => {
    const gateway = await stack.addGateway({ settings: { problemsCacheTtlSeconds: 0 } });
    const before = routes();
    const listing = await gateway.query<Listing>(LISTING('(availability: [ORIGINAL, CURATED, CACHED])'));
    expect(listing.errors).toBeUndefined();
    for (const node of listing.data!.problems.nodes) expect(node.translations).toEqual([original('und')]);
    expect(callsSince(before)).toEqual({});
    const none = await gateway.query<Listing>(LISTING('(availability: [])'));
    for (const node of none.data!.problems.nodes) expect(node.translations).toEqual([]);
  });

  it('lists no language on request when the service\'s list cannot be had, and still answers', async () => {
    const gateway = await stack.addGateway({ settings: { problemsCacheTtlSeconds: 0, translationSourceLanguage: 'en' } });
    stack.translation.setFaults({ status: 503, body: JSON.stringify({ error: 'down' }), routes: ['GET /languages'] });
    try {
      const listing = await gateway.query<Listing>(LISTING());
      expect(listing.errors).toBeUndefined();
      for (const node of listing.data!.problems.nodes) expect(node.translations).toEqual([original('en')]);
    } finally {
      stack.translation.clearFaults();
    }
  });
});

describe('Problem.translations: curated, declared, prewarmed, on every way of answering', () => {
  let stack: Stack;
  let dir: string;
  const settings = () => ({ problemsCacheTtlSeconds: 0, translationCuratedDir: dir, translationCuratedRescanSeconds: 0, translationCuratedStale: 'serve' as const, translationSourceLanguage: 'en' });
  const curatedFile = (id: string, madeFrom: string) =>
    ['---', `title: Titre de ${id}`, `source_sha256: ${statementSha256(madeFrom)}`, 'source_language: en', 'made_at: 2026-03-01', '---', `Énoncé de ${id}.`, ''].join('\n');

  beforeAll(async () => {
    stack = await sharedStack('open');
    dir = await mkdtemp(join(tmpdir(), 'curated-menu-'));
    await mkdir(join(dir, 'p1001'));
    await mkdir(join(dir, 'p1002'));
    await writeFile(join(dir, 'p1001', 'fr.md'), curatedFile('p1001', problem('p1001').statement));
    await writeFile(join(dir, 'p1002', 'fr.md'), curatedFile('p1002', 'An older statement.'));
  });
  afterAll(async () => {
    await stack?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('lists curated translations (stale ones marked) and the declared language, the same forwarded, delegated and from the response cache', async () => {
    const log = lanesTaken();
    const forwarded = await stack.addGateway({ requestLog: log.requestLog, settings: { ...settings(), responseCacheTtlSeconds: 60 } });
    const delegated = await stack.addGateway({ requestLog: log.requestLog, settings: { ...settings(), fastPathEnabled: false } });
    const curatedFr = (stale: boolean) => ({ language: 'fr', availability: 'CURATED', kind: 'CURATED', madeAt: '2026-03-01T00:00:00.000Z', stale, partial: false, prewarmed: false });
    const expected = (id: string) =>
      id === 'p1001' || id === 'p1002' ? [original('en'), curatedFr(id === 'p1002'), ...onRequest(OFFERED.filter((language) => language !== 'fr'))] : [original('en'), ...onRequest(OFFERED)];
    const lanes: string[] = [];
    const answers: unknown[] = [];
    for (const url of [forwarded.gatewayUrl, delegated.gatewayUrl, forwarded.gatewayUrl]) {
      const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: LISTING() }) });
      lanes.push(log.laneOf(response));
      answers.push(await response.json());
    }
    expect(lanes).toEqual(['direct', 'delegated', 'cache']);
    const [first] = answers as { data: Listing }[];
    for (const node of first.data.problems.nodes) expect(node.translations).toEqual(expected(node.id));
    expect(answers[1]).toEqual(first);
    expect(answers[2]).toEqual(first);
    // As served: the curated translations are what `translation(to: "fr")` gives.
    const french = await forwarded.query(/* GraphQL */ `{ a: problem(id: "p1001") { translation(to: "fr") { provenance { kind stale } } } b: problem(id: "p1002") { translation(to: "fr") { provenance { kind stale } } } }`);
    expect(french.data).toEqual({ a: { translation: { provenance: { kind: 'CURATED', stale: false } } }, b: { translation: { provenance: { kind: 'CURATED', stale: true } } } });
  });

  it('marks the prewarmed language, which turns CACHED as prewarming walks the catalogue', async () => {
    const prewarming = await stack.addGateway({ settings: { ...settings(), translationPrewarm: ['it'], translationPrewarmCallsPerSecond: 20 } });
    const menu = async (id: string) => menuOf((await prewarming.query<Listing>(LISTING())).data!, id);
    await expect.poll(async () => (await menu('p1003')).find((entry) => entry.language === 'it')?.availability, { timeout: 60_000, interval: 200 }).toBe('CACHED');
    expect(await menu('p1003')).toEqual([original('en'), cached('it', true), ...onRequest(['de', 'es', 'fr', 'pt'])]);
    // A curated language is the operator's, whatever prewarming does.
    expect((await menu('p1001')).map(({ language, availability, prewarmed }) => [language, availability, prewarmed])).toEqual([
      ['en', 'ORIGINAL', false],
      ['fr', 'CURATED', false],
      ['it', 'CACHED', true],
      ['de', 'ON_REQUEST', false],
      ['es', 'ON_REQUEST', false],
      ['pt', 'ON_REQUEST', false],
    ]);
  });
});

describe('Problem.translations: replicas sharing Redis', () => {
  let stack: Stack;
  let redis: RedisServer;

  beforeAll(async () => {
    stack = await sharedStack('open');
    redis = await startRedis();
  });
  afterAll(async () => {
    await stack?.close();
    await redis?.stop();
  });

  it('reads what another replica translated, the whole page in one MGET, and notes each translation in one write', async () => {
    const settings = { problemsCacheTtlSeconds: 0, redisUrl: redis.url };
    const [replicaA, replicaB] = [await stack.addGateway({ settings }), await stack.addGateway({ settings })];
    const client = new Redis(redis.url);
    const monitor = await client.monitor();
    const commands: string[][] = [];
    const echoes: string[] = [];
    monitor.on('monitor', (_time: string, args: string[], source: string) => {
      if (args[0]?.toLowerCase() === 'echo') echoes.push(args[1]);
      // What a client sent, not what a script ran inside Redis.
      else if (source !== 'lua') commands.push(args);
    });
    // Everything Redis ran before it, the monitor has heard once it hears this.
    const heardSoFar = async (mark: string) => {
      await client.echo(mark);
      await expect.poll(() => echoes.includes(mark)).toBe(true);
    };
    // The gateway's commands naming its notes (not this test's own KEYS).
    const madeKeys = (args: string[]) => (args[0]?.toLowerCase() === 'keys' ? [] : args.filter((arg) => /:translation:made:/.test(arg)));
    try {
      const page = await replicaA.query(/* GraphQL */ `{ problems(first: 5) { nodes { id translation(to: "es") { language } } } }`);
      expect(page.errors).toBeUndefined();
      const ids = page.data.problems.nodes.map((node: { id: string }) => node.id);
      // Written in the background, after the answer.
      await expect.poll(async () => (await client.keys('*:translation:made:*')).length).toBe(5);
      await heardSoFar('noted');
      const writes = commands.filter((args) => madeKeys(args).length > 0);
      // One script call a problem (or fewer: what notes in one turn of the event loop goes in one), none a text.
      expect(writes.length).toBeGreaterThanOrEqual(1);
      expect(writes.length).toBeLessThanOrEqual(5);
      expect(writes.flatMap(madeKeys)).toHaveLength(5);
      for (const args of writes) expect(args[0].toLowerCase()).toMatch(/^eval(sha)?$/);

      commands.length = 0;
      const before = stack.translation.stats.byRoute['POST /translate'] ?? 0;
      const listing = await replicaB.query<Listing>(LISTING('(availability: [ORIGINAL, CACHED])'));
      expect(listing.errors).toBeUndefined();
      expect(stack.translation.stats.byRoute['POST /translate'] ?? 0).toBe(before);
      for (const node of listing.data!.problems.nodes) {
        // B never translated: the language and the cached Spanish come from A's notes.
        expect(node.translations).toEqual(ids.includes(node.id) ? [original('en'), cached('es')] : [original('und')]);
      }
      await heardSoFar('listed');
      const reads = commands.filter((args) => madeKeys(args).length > 0);
      expect(reads.map((args) => args[0].toLowerCase())).toEqual(['mget']);
      expect(madeKeys(reads[0])).toHaveLength(20);
    } finally {
      monitor.disconnect();
      client.disconnect();
    }
  });
});
