import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSchema, printSchema } from 'graphql';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createGateway, type Gateway } from '../../src/gateway/create-gateway.ts';
import { withHash } from '../../src/gateway/schema/introspection.ts';
import { describeOverBound, overBound, sizeOf } from '../../src/gateway/schema/schema-size.ts';
import type { SettingsOptions } from '../../src/gateway/create-gateway.ts';
import { listen, type RunningServer } from '../../src/shared/listen.ts';
import { createTranslationService } from '../../src/upstreams/translation/service.ts';
import { createChangingProblemsService, SCHEMAS, type ChangingProblemsService } from '../helpers/changing-problems-service.ts';
import { postGraphQL, PROBLEMS_KEY, TRANSLATION_KEY } from '../helpers/start-stack.ts';

describe('the size of a schema', () => {
  const schema = buildSchema(/* GraphQL */ `
    type Query { a(x: Int, y: Int): String b: Kind }
    interface Named { name: String }
    type Thing implements Named { name: String }
    input Filter { kind: Kind limit: Int }
    enum Kind { ONE TWO THREE }
    scalar Date
  `);

  it('counts named types (not built-in scalars or introspection types), fields with their arguments, and enum values', () => {
    // Query, Named, Thing, Filter, Kind, Date; Query.a with 2 arguments, Query.b, Named.name, Thing.name, 2 input fields.
    expect(sizeOf(schema)).toEqual({ types: 6, fields: 8, enumValues: 3 });
  });

  it('names the first bound a size is over, with the count and the setting', () => {
    expect(overBound({ types: 6, fields: 8, enumValues: 3 }, { maxTypes: 6, maxFields: 8, maxEnumValues: 3 })).toBeUndefined();
    const over = overBound({ types: 6, fields: 9, enumValues: 4 }, { maxTypes: 6, maxFields: 8, maxEnumValues: 3 });
    expect(over).toEqual({ measure: 'fields', count: 9, bound: 8, variable: 'PROBLEMS_SCHEMA_MAX_FIELDS' });
    expect(describeOverBound(over!)).toBe('9 fields and arguments, over PROBLEMS_SCHEMA_MAX_FIELDS=8');
  });
});

describe('a problems schema over the bounds', () => {
  let translation: RunningServer;
  const closing: (() => Promise<void>)[] = [];
  const base = sizeOf(SCHEMAS.base);
  beforeAll(async () => {
    translation = await listen(createTranslationService({ apiKey: TRANSLATION_KEY }).listener);
  });
  afterEach(async () => {
    while (closing.length > 0) await closing.pop()!();
  });
  afterAll(async () => {
    await translation.close();
  });

  async function upstream(): Promise<{ service: ChangingProblemsService; url: string }> {
    const service = createChangingProblemsService({ apiKey: PROBLEMS_KEY });
    const server = await listen(service.listener);
    closing.push(() => server.close());
    return { service, url: server.url };
  }

  function gatewayOver(problemsUrl: string, settings: SettingsOptions, logs: string[], problemsSchemaPath?: string): Promise<Gateway> {
    return createGateway({
      log: (line) => void logs.push(line),
      requestLog: false,
      problemsSchemaPath,
      settings: { problemsUrl, problemsApiKey: PROBLEMS_KEY, translationUrl: translation.url, translationApiKey: TRANSLATION_KEY, rateLimitRequests: 1_000_000, ...settings },
    });
  }

  it("at start: the gateway does not start, and says which setting the service's schema is over and by how much (never the snapshot in its place)", async () => {
    const { service, url } = await upstream();
    const logs: string[] = [];
    await expect(gatewayOver(url, { problemsSchemaMaxTypes: base.types - 1 }, logs)).rejects.toThrow(
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
    const { url } = await upstream();
    await expect(gatewayOver(url, { problemsSchemaMaxEnumValues: base.enumValues - 1 }, [], path)).rejects.toThrow(
      `the problems schema ${path} is too large to build (${base.enumValues} enum values, over PROBLEMS_SCHEMA_MAX_ENUM_VALUES=${base.enumValues - 1})`,
    );
  });

  it('while running: a new schema over a bound is refused before any build, said once, counted once, shown in /readiness; the schema served stays, until the service is within the bound again', async () => {
    const { service, url } = await upstream();
    const logs: string[] = [];
    // The stand-in's schema exactly at the bound: one field more is over it.
    const gateway = await gatewayOver(url, { problemsSchemaMaxFields: base.fields, problemsSchemaPollSeconds: 0.2 }, logs);
    const server = await listen(gateway.listener);
    closing.push(async () => {
      await server.close();
      await gateway.close();
    });
    const readiness = async () => (await (await fetch(`${server.url}/readiness`)).json()).schema as { hash: string; refused?: string };
    const metrics = async () => (await (await fetch(`${server.url}/metrics`)).text()).split('\n');
    const metric = async (name: string) => Number((await metrics()).find((line) => line.startsWith(name))?.split(' ').at(-1));
    const served = withHash(SCHEMAS.base).hash;
    const added = withHash(SCHEMAS.fieldAdded).hash;
    expect(await readiness()).toMatchObject({ hash: served });
    expect((await readiness()).refused).toBeUndefined();

    service.setSchema(SCHEMAS.fieldAdded);
    await expect.poll(() => metric('gateway_problems_schema_check_failures_total{reason="bound"}'), { timeout: 30_000, interval: 100 }).toBe(1);
    const refusedLine = `problems schema: ${added.slice(0, 12)} refused, not built (${base.fields + 1} fields and arguments, over PROBLEMS_SCHEMA_MAX_FIELDS=${base.fields}); still serving ${served.slice(0, 12)} (live)`;
    expect(await readiness()).toEqual(expect.objectContaining({ hash: served, lastCheck: 'ok', refused: `${added.slice(0, 12)} not built: ${base.fields + 1} fields and arguments, over PROBLEMS_SCHEMA_MAX_FIELDS=${base.fields}` }));
    // Nothing built: one engine, no reload, and the new field is not served.
    expect(await metric('gateway_problems_schema_engines')).toBe(1);
    expect(await metric('gateway_problems_schema_reloads_total')).toBe(0);
    expect(gateway.schema.getType('Problem')?.toConfig()).not.toHaveProperty('fields.editorial');
    const { errors } = await postGraphQL(`${server.url}/graphql`, '{ problems(first: 1) { nodes { editorial } } }');
    expect(errors?.[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');

    // Polls go on finding the same schema: not parsed, not said, not counted again.
    const seen = await metric('gateway_problems_schema_introspections_total{answer="unchanged"}');
    await expect.poll(() => metric('gateway_problems_schema_introspections_total{answer="unchanged"}'), { timeout: 30_000, interval: 100 }).toBeGreaterThanOrEqual(seen + 3);
    expect(await metric('gateway_problems_schema_check_failures_total{reason="bound"}')).toBe(1);
    expect(logs.filter((line) => line.includes('refused, not built'))).toEqual([refusedLine]);

    // Back within the bound (the schema served): nothing refused any more.
    service.setSchema(SCHEMAS.base);
    await expect.poll(async () => (await readiness()).refused, { timeout: 30_000, interval: 100 }).toBeUndefined();
    expect((await readiness()).hash).toBe(served);
  }, 60_000);
});
