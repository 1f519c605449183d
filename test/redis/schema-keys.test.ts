import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedis, type RedisServer } from '../helpers/redis-server.ts';
import { PROJECT_ROOT } from '../helpers/run-command.ts';
import { startStack, type Stack } from '../helpers/start-stack.ts';

// Replicas sharing one Redis while they serve different problems schemas (one caught a change the
// other has not yet): neither is served what the other kept. Replicas on the same schema still share.
describe('several replicas, one Redis, two problems schemas', () => {
  let redis: RedisServer;
  let stack: Stack;
  let dir: string;
  beforeAll(async () => {
    redis = await startRedis();
    dir = await mkdtemp(join(tmpdir(), 'schema-keys-'));
    stack = await startStack({ settings: { redisUrl: redis.url, problemsCacheTtlSeconds: 60, responseCacheTtlSeconds: 60 } });
  });
  afterAll(async () => {
    await stack?.close();
    await redis?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('MUST NOT serve an answer kept under another schema, and MUST share it under the same one', async () => {
    // Replica B serves the service's schema with one more field (as if the service had just added it).
    const changed = join(dir, 'changed.graphql');
    await writeFile(changed, `${await readFile(join(PROJECT_ROOT, 'sources/problems/schema.graphql'), 'utf8')}\nextend type Problem { editorial: String }\n`);
    const settings = { redisUrl: redis.url, problemsCacheTtlSeconds: 60, responseCacheTtlSeconds: 60 };
    const replicaB = await stack.addGateway({ settings, problemsSchemaPath: changed });
    const replicaC = await stack.addGateway({ settings });
    const query = /* GraphQL */ `{ problems(first: 4) { nodes { id title } } }`;
    const calls = () => stack.problems.stats.requests;

    const fromA = await stack.query(query);
    expect(fromA.errors).toBeUndefined();
    const afterA = calls();
    // Another schema: neither the whole answer nor the problems answer A kept.
    const fromB = await replicaB.query(query);
    expect(fromB.data).toEqual(fromA.data);
    expect(calls()).toBe(afterA + 1);
    // The same schema as A's: served from what A kept, with no call.
    const fromC = await replicaC.query(query);
    expect(fromC.data).toEqual(fromA.data);
    expect(calls()).toBe(afterA + 1);
  });
});
