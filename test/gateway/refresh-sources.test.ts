import { copyFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSchema, createYoga } from 'graphql-yoga';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshProblemsSnapshot } from '../../src/gateway/schema/problems-snapshot.ts';
import { listen, type RunningServer } from '../../src/shared/listen.ts';
import { createProblemsService } from '../../src/upstreams/problems/service.ts';
import { PROJECT_ROOT, runEntry } from '../helpers/run-command.ts';

const COMMITTED = join(PROJECT_ROOT, 'sources/problems/schema.graphql');

describe('npm run sources:refresh', () => {
  let standIn: RunningServer;
  let dir: string;
  beforeAll(async () => {
    standIn = await listen(createProblemsService({ apiKey: 'refresh-key' }).listener);
    dir = await mkdtemp(join(tmpdir(), 'snapshot-'));
  });
  afterAll(async () => {
    await standIn?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('the committed snapshot is what the stand-in serves today', async () => {
    const target = join(dir, 'fresh.graphql');
    const { diff } = await refreshProblemsSnapshot({ url: standIn.url, apiKey: 'refresh-key', snapshotPath: target });
    expect(diff).toBeUndefined();
    expect(await readFile(target, 'utf8')).toBe(await readFile(COMMITTED, 'utf8'));
  });

  it('rewrites the snapshot from a changed upstream and reports what changed, including a link it loses', async () => {
    const changed = await listen(
      createYoga({
        schema: createSchema({
          typeDefs: /* GraphQL */ `
            type Query { problem(id: ID!): Problem, hello: String }
            type Problem { id: ID!, title: String! }
          `,
        }),
      }),
    );
    try {
      const target = join(dir, 'changed.graphql');
      await copyFile(COMMITTED, target);
      const { diff, linksLeftOut } = await refreshProblemsSnapshot({ url: changed.url, snapshotPath: target });
      const paths = (impact: string) => diff!.filter((change) => change.impact === impact).map((change) => change.path);
      expect(paths('safe')).toContain('Query.hello');
      expect(paths('breaking')).toEqual(expect.arrayContaining(['Query.problem.slug', 'Problem.statement', 'Contest']));
      expect(linksLeftOut).toEqual([
        { name: 'Problem.translation', reason: 'Problem in the problems schema has no statement field' },
        { name: 'Problem.translations', reason: 'Problem in the problems schema has no statement field' },
      ]);
      expect(await readFile(target, 'utf8')).toContain('hello: String');
    } finally {
      await changed.close();
    }
  });

  it('says the key was refused, without printing it', async () => {
    const attempt = refreshProblemsSnapshot({ url: standIn.url, apiKey: 'not-the-key', snapshotPath: join(dir, 'never.graphql') });
    await expect(attempt).rejects.toThrow('the problems service refused PROBLEMS_API_KEY (HTTP 401)');
    await expect(readFile(join(dir, 'never.graphql'))).rejects.toThrow();
  });

  it('runs as a command against PROBLEMS_URL and prints the summary', async () => {
    const command = runEntry('src/cli/refresh-sources.ts', { PROBLEMS_URL: standIn.url, PROBLEMS_API_KEY: 'refresh-key' });
    expect(await command.exited).toBe(0);
    const output = command.output();
    expect(output).toContain(`Introspecting PROBLEMS_URL (${standIn.url}/graphql)`);
    expect(output).toContain('Changes since the previous snapshot:\nno changes');
    expect(output).toContain('Wrote ' + join(PROJECT_ROOT, 'schema.graphql'));
    expect(output).not.toContain('refresh-key');
  });
});
