import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { printSchema } from 'graphql';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createGateway, type Gateway, type GatewayOptions } from '../../src/gateway/create-gateway.ts';
import type { RequestLogEntry } from '../../src/gateway/observability/request-log.ts';
import { withHash } from '../../src/gateway/schema/introspection.ts';
import { sizeOf } from '../../src/gateway/schema/schema-size.ts';
import { readSnapshot } from '../../src/gateway/schema/problems-snapshot.ts';
import { listen, type RunningServer } from '../../src/shared/listen.ts';
import { createTranslationService } from '../../src/upstreams/translation/service.ts';
import { createChangingProblemsService, SCHEMAS, type ChangingProblemsService } from '../helpers/changing-problems-service.ts';
import { postGraphQL, PROBLEMS_KEY, TRANSLATION_KEY, type GraphQLResponse } from '../helpers/start-stack.ts';
import { freePort } from '../helpers/redis-server.ts';
import { PROJECT_ROOT } from '../helpers/run-command.ts';

/**
 * Short, so that a test waits a few milliseconds for a change to show rather than a fifth of a second
 * per poll; a poll of the stand-in costs a millisecond or two, so that polling keeps no core busy.
 */
const POLL_SECONDS = 0.05;

interface Running {
  gateway: Gateway;
  url: string;
  service: ChangingProblemsService;
  logs: string[];
  entries: RequestLogEntry[];
  query: (query: string, extensions?: Record<string, unknown>) => Promise<GraphQLResponse>;
  readiness(): Promise<{ schema: { source: string; hash: string; checkedAt?: string; lastCheck?: string; refused?: string } }>;
  metric(name: string): Promise<string>;
}

const LINK = /* GraphQL */ `{ problems(first: 2) { nodes { id editorial translation(to: "es") { language title provenance { kind } } } } translation { languages { code } } }`;
const LEFT_OUT = 'names of the problems service left out, since the gateway uses them itself: type ProblemTranslation, type TranslationQuery, field Query.translation, field Problem.translation, field Problem.translations, field Query.translationQuery (of a type left out)';

describe('the problems schema, live', () => {
  let translation: RunningServer;
  const closing: (() => Promise<void>)[] = [];
  beforeAll(async () => {
    translation = await listen(createTranslationService({ apiKey: TRANSLATION_KEY }).listener);
  });
  afterEach(async () => {
    while (closing.length > 0) await closing.pop()!();
  });
  afterAll(async () => {
    await translation.close();
  });

  /** A changing problems service (on `port` when given, else any) and a gateway over it. */
  async function start({ options = {}, service = createChangingProblemsService({ apiKey: PROBLEMS_KEY }), problemsUrl }: { options?: GatewayOptions; service?: ChangingProblemsService; problemsUrl?: string } = {}): Promise<Running> {
    let upstreamUrl = problemsUrl;
    if (!upstreamUrl) {
      const server = await listen(service.listener);
      closing.push(() => server.close());
      upstreamUrl = server.url;
    }
    const logs: string[] = [];
    const entries: RequestLogEntry[] = [];
    const gateway = await createGateway({
      log: (line) => void logs.push(line),
      requestLog: (entry) => void entries.push(entry),
      ...options,
      settings: {
        problemsUrl: upstreamUrl,
        problemsApiKey: PROBLEMS_KEY,
        translationUrl: translation.url,
        translationApiKey: TRANSLATION_KEY,
        rateLimitRequests: 1_000_000,
        translationRateLimitRequests: 1_000_000,
        responseCacheTtlSeconds: 0,
        upstreamBreakerFailures: 0,
        problemsSchemaPollSeconds: POLL_SECONDS,
        ...options.settings,
      },
    });
    const server = await listen(gateway.listener);
    closing.push(async () => {
      await server.close();
      await gateway.close();
    });
    const url = `${server.url}/graphql`;
    return {
      gateway,
      url,
      service,
      logs,
      entries,
      query: (query, extensions) =>
        extensions
          ? fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ extensions }) }).then(async (response) => {
              const text = await response.text();
              const body = JSON.parse(text);
              return { status: response.status, data: body.data, errors: body.errors, text };
            })
          : postGraphQL(url, query),
      readiness: async () => (await fetch(`${server.url}/readiness`)).json(),
      metric: async (name) => {
        const text = await (await fetch(`${server.url}/metrics`)).text();
        return text.split('\n').filter((line) => line.startsWith(name)).join('\n');
      },
    };
  }

  /** Resolves once the gateway serves the schema `hash` (checked as /readiness reports it). */
  async function served(running: Running, hash: string): Promise<void> {
    await expect.poll(async () => (await running.readiness()).schema.hash, { timeout: 20_000, interval: 50 }).toBe(hash);
  }

  const EDITORIAL = /* GraphQL */ `{ problems(first: 2) { nodes { id editorial } } }`;
  const RATING = /* GraphQL */ `{ problems(first: 2) { nodes { id rating } } }`;

  it('builds from the schema the service has at start, says how it differs from the snapshot, and shows it in /readiness', async () => {
    const service = createChangingProblemsService({ apiKey: PROBLEMS_KEY });
    service.setSchema(SCHEMAS.fieldAdded);
    const running = await start({ service, options: { settings: { problemsSchemaPollSeconds: 0 } } });
    const result = await running.query(EDITORIAL);
    expect(result.errors).toBeUndefined();
    expect(result.data.problems.nodes[0].editorial).toMatch(/^https:\/\/example\.org\/editorials\//);
    const differs = running.logs.filter((line) => line.includes('differs from the committed snapshot'));
    expect(differs).toHaveLength(1);
    expect(differs[0]).toMatch(/\d change\(s\): 0 breaking, 0 dangerous, \d safe; SAFE +Field 'editorial' was added to object type 'Problem'/);
    const { schema } = await running.readiness();
    expect(schema).toMatchObject({ source: 'live', hash: withHash(SCHEMAS.fieldAdded).hash, lastCheck: 'ok' });
    expect(Date.parse(schema.checkedAt!)).not.toBeNaN();
    expect(await running.metric('gateway_problems_schema_info')).toContain(`hash="${withHash(SCHEMAS.fieldAdded).hash}",source="live"`);
  });

  it('serves a field the service adds within a poll interval, without a restart', async () => {
    const running = await start();
    expect((await running.query(EDITORIAL)).errors?.[0].extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
    running.service.setSchema(SCHEMAS.fieldAdded);
    await expect.poll(async () => (await running.query(EDITORIAL)).errors, { timeout: 20_000, interval: 50 }).toBeUndefined();
    expect(running.gateway.schema.getType('Problem')?.toConfig()).toHaveProperty('fields.editorial');
    expect(await running.metric('gateway_problems_schema_reloads_total')).toMatch(/ 1$/);
    await expect.poll(() => running.logs.filter((line) => /^problems schema: now serving [0-9a-f]{12} \(was [0-9a-f]{12}\): \d change\(s\): 0 breaking/.test(line))).toHaveLength(1);
  });

  it("refuses a field the service removed with its own validation (GRAPHQL_VALIDATION_FAILED), and never passes it on", async () => {
    const running = await start();
    expect((await running.query(RATING)).errors).toBeUndefined();
    running.service.setSchema(SCHEMAS.fieldRemoved);
    await served(running, withHash(SCHEMAS.fieldRemoved).hash);
    const before = running.service.operations();
    const result = await running.query(RATING);
    expect(result.status).toBe(400);
    expect(result.errors?.[0]).toMatchObject({ message: 'Cannot query field "rating" on type "Problem".', extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } });
    expect(running.service.operations()).toBe(before);
  });

  it('follows a renamed type: the new name is served, queries not naming it go on working', async () => {
    const running = await start();
    running.service.setSchema(SCHEMAS.typeRenamed);
    await served(running, withHash(SCHEMAS.typeRenamed).hash);
    const result = await running.query(/* GraphQL */ `{ problems(first: 1) { nodes { statistics { __typename submissions } } } }`);
    expect(result.errors).toBeUndefined();
    expect(result.data.problems.nodes[0].statistics.__typename).toBe('ProblemStats');
    expect(running.gateway.schema.getType('ProblemStatistics')).toBeUndefined();
  });

  it('starts on the snapshot when the service is down, says so once, and goes live when it comes up', async () => {
    const port = await freePort();
    const service = createChangingProblemsService({ apiKey: PROBLEMS_KEY });
    service.setSchema(SCHEMAS.fieldAdded);
    const running = await start({ service, problemsUrl: `http://127.0.0.1:${port}` });
    const fallback = running.logs.filter((line) => line.startsWith('problems schema: serving the committed snapshot'));
    expect(fallback).toHaveLength(1);
    expect(fallback[0]).toMatch(/since it could not be introspected: could not reach http:\/\/127\.0\.0\.1:\d+\/graphql: ECONNREFUSED; checking again every 0\.05 s$/);
    const snapshot = await readSnapshot(join(PROJECT_ROOT, 'sources/problems/schema.graphql'));
    expect((await running.readiness()).schema).toMatchObject({ source: 'snapshot', hash: snapshot.hash });
    // Failed checks while it is down are counted, and said once.
    await expect.poll(async () => Number(/introspection"} (\d+)/.exec(await running.metric('gateway_problems_schema_check_failures_total'))?.[1]), { timeout: 10_000 }).toBeGreaterThan(1);
    expect(running.logs.filter((line) => line.startsWith('problems schema: check failed'))).toHaveLength(1);

    const up = await listen(service.listener, { port });
    closing.push(() => up.close());
    await served(running, withHash(SCHEMAS.fieldAdded).hash);
    expect((await running.readiness()).schema).toMatchObject({ source: 'live', lastCheck: 'ok' });
    expect((await running.query(EDITORIAL)).errors).toBeUndefined();
  });

  it.each([
    ['broken', 'answered an invalid schema', /answered an introspection that is not a schema/],
    ['enormous', 'answer too large', /the introspection answer is larger than 1048576 bytes/],
    ['slow', 'did not answer in time', /no answer from http:\/\/127\.0\.0\.1:\d+\/graphql within 1000 ms/],
  ] as const)('a %s introspection answer is a failed check: logged, counted, the last good schema kept', async (fault, summary, said) => {
    const service = createChangingProblemsService({ apiKey: PROBLEMS_KEY, slowMs: 3000 });
    const running = await start({ service, options: { settings: { problemsTimeoutMs: 1000, problemsMaxResponseBytes: 1024 * 1024 } } });
    const good = withHash(SCHEMAS.base).hash;
    service.setFault(fault);
    service.setSchema(SCHEMAS.fieldAdded);
    // /readiness says it in a few words (it is open: no URL, no service text); the log has the detail.
    await expect.poll(async () => (await running.readiness()).schema.lastCheck ?? '', { timeout: 20_000, interval: 50 }).toBe(summary);
    expect((await running.readiness()).schema).toMatchObject({ source: 'live', hash: good });
    expect(await running.metric('gateway_problems_schema_check_failures_total')).toMatch(/introspection"} [1-9]/);
    const failed = running.logs.filter((line) => line.startsWith('problems schema: check failed'));
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatch(said);
    expect((await running.query(RATING)).errors).toBeUndefined();
    // Once answers are whole again, the change is found.
    service.setFault(undefined);
    await served(running, withHash(SCHEMAS.fieldAdded).hash);
    expect(running.logs).toContain('problems schema: checks succeed again');
  });

  it('re-checks at once when the service refuses an operation the gateway validated, once for a burst, and logs the service\'s own words', async () => {
    const running = await start({ options: { settings: { problemsSchemaPollSeconds: 0 } } });
    expect((await running.query(RATING)).errors).toBeUndefined();
    const introspections = running.service.introspections();
    running.service.setSchema(SCHEMAS.fieldRemoved);
    // Ten different operations, so no two share an upstream call: each is refused by the service.
    const refused = await Promise.all(Array.from({ length: 10 }, (_, index) => running.query(`{ problems(first: ${index + 1}) { nodes { id rating } } }`)));
    for (const result of refused) expect(result.errors?.[0].extensions?.code).not.toBe('GRAPHQL_VALIDATION_FAILED');
    await served(running, withHash(SCHEMAS.fieldRemoved).hash);
    expect(running.service.introspections() - introspections).toBe(1);
    // The refusal's log line carries what the service said; now the gateway refuses it itself.
    const causes = running.entries.flatMap((entry) => entry.upstreamErrors ?? []).map((failure) => failure.cause);
    expect(causes).toContain('Cannot query field "rating" on type "Problem".');
    expect((await running.query(RATING)).errors?.[0].extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });

  it('keeps no answer cached under the old schema: neither whole answers nor problems answers', async () => {
    const running = await start({ options: { settings: { responseCacheTtlSeconds: 60, problemsCacheTtlSeconds: 60 } } });
    const TITLES = /* GraphQL */ `{ problems(first: 3) { nodes { id title } } }`;
    expect((await running.query(RATING)).errors).toBeUndefined();
    expect((await running.query(TITLES)).errors).toBeUndefined();
    const calls = running.service.operations();
    await running.query(TITLES);
    expect(running.service.operations()).toBe(calls);
    running.service.setSchema(SCHEMAS.fieldRemoved);
    await served(running, withHash(SCHEMAS.fieldRemoved).hash);
    // The answer cached with `rating` is not served: the new schema refuses the query.
    expect((await running.query(RATING)).errors?.[0].extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
    // And the same upstream call is made again rather than answered from the problems cache.
    const since = running.service.operations();
    expect((await running.query(TITLES)).errors).toBeUndefined();
    expect(running.service.operations()).toBe(since + 1);
  });

  it('names the trusted documents that no longer validate, which then answer a clear error', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'trusted-'));
    closing.push(() => rm(dir, { recursive: true, force: true }));
    const manifest = join(dir, 'manifest.json');
    await writeFile(manifest, JSON.stringify({ 'with-rating': RATING, titles: '{ problems(first: 1) { nodes { title } } }' }));
    const running = await start({ options: { settings: { trustedDocuments: manifest } } });
    expect((await running.query('', { persistedQuery: { version: 1, sha256Hash: 'with-rating' } })).errors).toBeUndefined();
    running.service.setSchema(SCHEMAS.fieldRemoved);
    await served(running, withHash(SCHEMAS.fieldRemoved).hash);
    expect(running.logs.filter((line) => line.startsWith('trusted documents that no longer validate'))).toEqual([
      `trusted documents that no longer validate against problems schema ${withHash(SCHEMAS.fieldRemoved).hash.slice(0, 12)} (they answer GRAPHQL_VALIDATION_FAILED): with-rating`,
    ]);
    const stale = await running.query('', { persistedQuery: { version: 1, sha256Hash: 'with-rating' } });
    expect(stale.errors?.[0]).toMatchObject({ message: 'Cannot query field "rating" on type "Problem".', extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } });
    expect((await running.query('', { persistedQuery: { version: 1, sha256Hash: 'titles' } })).errors).toBeUndefined();
  });

  it('never introspects a schema given as problemsSchemaPath', async () => {
    const running = await start({ options: { problemsSchemaPath: join(PROJECT_ROOT, 'sources/problems/schema.graphql') } });
    running.service.setSchema(SCHEMAS.fieldAdded);
    await new Promise((resolve) => setTimeout(resolve, POLL_SECONDS * 3000));
    expect(running.service.introspections()).toBe(0);
    expect((await running.readiness()).schema.source).toBe('given');
  });

  it('fails no request during 10 swaps under a bounded load, and releases every old engine', async () => {
    const running = await start();
    let stop = false;
    const failures: string[] = [];
    let answered = 0;
    // Eight clients, each sending its next query when the last is answered: through the node:http
    // adapter (direct lane and yoga) and through gateway.fetch.
    const client = async (index: number) => {
      while (!stop) {
        const query = index % 2 === 0 ? `{ problems(first: ${1 + (index % 4)}) { nodes { id title } } }` : `{ a${index}: problems(first: 2) { totalCount nodes { slug } } }`;
        const result =
          index % 4 === 3
            ? await running.gateway.fetch(new Request('http://gateway/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) })).then(async (response) => ({ status: response.status, ...(await response.json()) }))
            : await running.query(query);
        if (result.errors || result.status !== 200) failures.push(JSON.stringify(result.errors ?? result.status));
        answered += 1;
        // gateway.fetch answers from the problems cache without any I/O: let timers and sockets run.
        await new Promise(setImmediate);
      }
    };
    const clients = Array.from({ length: 8 }, (_, index) => client(index));
    try {
      for (let swap = 0; swap < 10; swap += 1) {
        const next = swap % 2 === 0 ? SCHEMAS.fieldAdded : SCHEMAS.base;
        running.service.setSchema(next);
        await served(running, withHash(next).hash);
      }
    } finally {
      stop = true;
      await Promise.all(clients);
    }
    expect(failures).toEqual([]);
    expect(answered).toBeGreaterThan(10);
    expect(await running.metric('gateway_problems_schema_reloads_total')).toMatch(/ 10$/);
    // Every engine replaced is released once its requests have ended.
    await expect.poll(() => running.metric('gateway_problems_schema_engines'), { timeout: 10_000 }).toMatch(/ 1$/);
  });

  describe('a schema over the bounds (PROBLEMS_SCHEMA_MAX_TYPES, _FIELDS, _ENUM_VALUES)', () => {
    const base = sizeOf(SCHEMAS.base);
    const counted = async (running: Running, name: string) => Number((await running.metric(name)).split(' ').at(-1));

    it("at start: the gateway does not start, and says which setting the service's schema is over and by how much (never the snapshot in its place)", async () => {
      const service = createChangingProblemsService({ apiKey: PROBLEMS_KEY });
      const logs: string[] = [];
      await expect(start({ service, options: { log: (line) => void logs.push(line), settings: { problemsSchemaMaxTypes: base.types - 1 } } })).rejects.toThrow(
        `the problems service's schema is too large to build (${base.types} types, over PROBLEMS_SCHEMA_MAX_TYPES=${base.types - 1}): building it would hold up every request; raise PROBLEMS_SCHEMA_MAX_TYPES to serve it`,
      );
      expect(service.introspections()).toBe(1);
      expect(logs.filter((line) => line.includes('snapshot'))).toEqual([]);
    });

    it('at start: a schema given as a file over a bound stops the start too', async () => {
      const dir = await mkdtemp(join(tmpdir(), 'schema-bounds-'));
      closing.push(() => rm(dir, { recursive: true, force: true }));
      const path = join(dir, 'problems.graphql');
      await writeFile(path, printSchema(SCHEMAS.base));
      await expect(start({ options: { problemsSchemaPath: path, settings: { problemsSchemaMaxEnumValues: base.enumValues - 1 } } })).rejects.toThrow(
        `the problems schema ${path} is too large to build (${base.enumValues} enum values, over PROBLEMS_SCHEMA_MAX_ENUM_VALUES=${base.enumValues - 1})`,
      );
    });

    it('while running: a new schema over a bound is refused before any build, said once, counted once, shown in /readiness; the schema served stays, until the service is within the bound again', async () => {
      // The stand-in's schema exactly at the bound: one field more is over it.
      const running = await start({ options: { settings: { problemsSchemaMaxFields: base.fields } } });
      const served = withHash(SCHEMAS.base).hash;
      const added = withHash(SCHEMAS.fieldAdded).hash;
      expect((await running.readiness()).schema).toEqual(expect.not.objectContaining({ refused: expect.anything() }));

      running.service.setSchema(SCHEMAS.fieldAdded);
      await expect.poll(() => counted(running, 'gateway_problems_schema_check_failures_total{reason="bound"}'), { timeout: 20_000, interval: 50 }).toBe(1);
      const words = `${base.fields + 1} fields and arguments, over PROBLEMS_SCHEMA_MAX_FIELDS=${base.fields}`;
      expect((await running.readiness()).schema).toMatchObject({ hash: served, lastCheck: 'ok', refused: `${added.slice(0, 12)} not built: ${words}` });
      // Nothing built: one engine, no reload, and the new field is refused by the gateway itself.
      expect(await counted(running, 'gateway_problems_schema_engines')).toBe(1);
      expect(await counted(running, 'gateway_problems_schema_reloads_total')).toBe(0);
      expect((await running.query(EDITORIAL)).errors?.[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');

      // Polls go on finding the same schema: not parsed, said or counted again.
      const unchanged = 'gateway_problems_schema_introspections_total{answer="unchanged"}';
      const seen = await counted(running, unchanged);
      await expect.poll(() => counted(running, unchanged), { timeout: 20_000, interval: 50 }).toBeGreaterThanOrEqual(seen + 3);
      expect(await counted(running, 'gateway_problems_schema_check_failures_total{reason="bound"}')).toBe(1);
      expect(running.logs.filter((line) => line.includes('refused, not built'))).toEqual([`problems schema: ${added.slice(0, 12)} refused, not built (${words}); still serving ${served.slice(0, 12)} (live)`]);

      // Back to the schema served: nothing refused any more.
      running.service.setSchema(SCHEMAS.base);
      await expect.poll(async () => (await running.readiness()).schema, { timeout: 20_000, interval: 50 }).toEqual(expect.not.objectContaining({ refused: expect.anything() }));
      expect((await running.readiness()).schema.hash).toBe(served);
    });
  });

  describe("a service that takes the gateway's names", () => {
    const hash = async (running: Running) => (await running.readiness()).schema.hash;
    async function expectLinkServed(url: string) {
      const result = await postGraphQL(url, LINK);
      expect(result.errors).toBeUndefined();
      expect(result.data.problems.nodes).toHaveLength(2);
      for (const node of result.data.problems.nodes) {
        expect(node.editorial).toBe(`https://example.org/editorials/${node.id}`);
        expect(node.translation).toMatchObject({ language: 'es', provenance: { kind: 'MACHINE' } });
        expect(typeof node.translation.title).toBe('string');
      }
      expect(result.data.translation.languages.length).toBeGreaterThan(0);
    }

    function expectGatewayNames(gateway: Gateway) {
      const problem = gateway.schema.getType('Problem') as { getFields(): Record<string, { type: { toString(): string } }> };
      expect(problem.getFields().translation.type.toString()).toBe('ProblemTranslation');
      // The service's own `translations` (of its ProblemTranslation) left out; the gateway's language menu served.
      expect(problem.getFields().translations.type.toString()).toBe('[ProblemTranslationAvailability!]!');
      expect(Object.keys((gateway.schema.getType('ProblemTranslation') as { getFields(): object }).getFields())).toEqual(['language', 'provenance', 'title', 'statement', 'statementHtml']);
      expect(gateway.schema.getQueryType()!.getFields().translation.type.toString()).toBe('TranslationQuery!');
      expect(gateway.schema.getQueryType()!.getFields().translationQuery).toBeUndefined();
      expect(Object.keys((gateway.schema.getType('TranslationQuery') as { getFields(): object }).getFields())).not.toContain('count');
    }

    it('at start: serves the live schema with the link, leaves the colliding names out with one line, and says so', async () => {
      const service = createChangingProblemsService({ apiKey: PROBLEMS_KEY });
      service.setSchema(SCHEMAS.gatewayNamesTaken);
      const running = await start({ service });
      expect(await hash(running)).toBe(withHash(SCHEMAS.gatewayNamesTaken).hash);
      expectGatewayNames(running.gateway);
      await expectLinkServed(running.url);
      expect(running.logs.filter((line) => line.startsWith('names '))).toEqual([LEFT_OUT]);
      expect(running.logs.filter((line) => /snapshot|cannot be built/.test(line) && !line.includes('differs from the committed snapshot'))).toEqual([]);
    });

    it('while running: follows the service into the collision and out of it, the link working throughout, said once', async () => {
      const service = createChangingProblemsService({ apiKey: PROBLEMS_KEY });
      const running = await start({ service });
      service.setSchema(SCHEMAS.gatewayNamesTaken);
      await expect.poll(() => hash(running), { timeout: 30_000, interval: 50 }).toBe(withHash(SCHEMAS.gatewayNamesTaken).hash);
      expectGatewayNames(running.gateway);
      await expectLinkServed(running.url);
      service.setSchema(SCHEMAS.fieldAdded);
      await expect.poll(() => hash(running), { timeout: 30_000, interval: 50 }).toBe(withHash(SCHEMAS.fieldAdded).hash);
      service.setSchema(SCHEMAS.gatewayNamesTaken);
      await expect.poll(() => hash(running), { timeout: 30_000, interval: 50 }).toBe(withHash(SCHEMAS.gatewayNamesTaken).hash);
      await expectLinkServed(running.url);
      expect(running.logs.filter((line) => line.startsWith('names '))).toEqual([LEFT_OUT]);
      expect(running.logs.filter((line) => line.includes('cannot be built'))).toEqual([]);
    });
  });
});
