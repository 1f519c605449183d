import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withHash } from '../../src/gateway/schema/introspection.ts';
import { listen, type RunningServer } from '../../src/shared/listen.ts';
import { createTranslationService } from '../../src/upstreams/translation/service.ts';
import { createChangingProblemsService, SCHEMAS } from '../helpers/changing-problems-service.ts';
import { compiledBuild } from '../helpers/compiled-build.ts';
import { freePort } from '../helpers/redis-server.ts';
import { runCommand, type RunningCommand } from '../helpers/run-command.ts';
import { postGraphQL } from '../helpers/start-stack.ts';


/**
 * The compiled entry as production runs it (`node dist/src/cli/start.js`), over a problems service
 * that is down when it starts and changes its schema while it serves: snapshot, then live, then 20
 * swaps under load, every replaced engine released and the process's resident memory read from the
 * system. Each swap builds an engine: the in-process tests (live-schema*.test.ts) swap more.
 */
describe('node dist/src/cli/start.js follows the problems schema', () => {
  let built: string;
  let translation: RunningServer;
  const closing: (() => Promise<unknown>)[] = [];
  let command: RunningCommand | undefined;
  beforeAll(async () => {
    translation = await listen(createTranslationService({ apiKey: 'translation-key' }).listener);
    // The run's one build of the package, shared with the other compiled-entry tests.
    built = await compiledBuild();
  });
  afterAll(async () => {
    command?.child.kill('SIGKILL');
    for (const close of closing) await close();
    await translation?.close();
  });

  it('starts on the snapshot while the service is down, goes live when it is up, refuses a removed field itself, releases every replaced engine and holds its memory over 40 swaps without failing a request', async () => {
    const port = await freePort();
    const service = createChangingProblemsService({ apiKey: 'problems-key' });
    service.setSchema(SCHEMAS.fieldAdded);
    command = runCommand(process.execPath, [join(built, 'dist/src/cli/start.js')], {
      PORT: '0',
      PROBLEMS_URL: `http://127.0.0.1:${port}`,
      PROBLEMS_API_KEY: 'problems-key',
      TRANSLATION_URL: translation.url,
      TRANSLATION_API_KEY: 'translation-key',
      PROBLEMS_SCHEMA_POLL_SECONDS: '0.2',
      RATE_LIMIT_REQUESTS: '1000000',
    });
    const [, gatewayPort] = await command.waitFor(/listening: http:\/\/localhost:(\d+)\/graphql/);
    const base = `http://127.0.0.1:${gatewayPort}`;
    const readiness = async () => (await (await fetch(`${base}/readiness`)).json()).schema;
    const served = (hash: string) => expect.poll(async () => (await readiness()).hash, { timeout: 30_000, interval: 100 }).toBe(hash);
    expect(command.output()).toMatch(/problems schema: serving the committed snapshot [0-9a-f]{12}, since it could not be introspected: could not reach http:\/\/127\.0\.0\.1:\d+\/graphql: ECONNREFUSED; checking again every 0\.2 s/);
    expect((await readiness()).source).toBe('snapshot');

    const up = await listen(service.listener, { port });
    closing.push(() => up.close());
    await served(withHash(SCHEMAS.fieldAdded).hash);
    expect(await readiness()).toMatchObject({ source: 'live', lastCheck: 'ok' });
    expect((await postGraphQL(`${base}/graphql`, '{ problems(first: 1) { nodes { editorial } } }')).errors).toBeUndefined();

    service.setSchema(SCHEMAS.fieldRemoved);
    await served(withHash(SCHEMAS.fieldRemoved).hash);
    const calls = service.operations();
    const refused = await postGraphQL(`${base}/graphql`, '{ problems(first: 1) { nodes { rating } } }');
    expect(refused.errors?.[0].extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(service.operations()).toBe(calls);

    // 40 swaps under four clients; the gateway's resident memory once its heap has grown to what swaps
    // need (it grows for about the first 20, then stays within a few MiB), and at the end.
    let stop = false;
    const failures: string[] = [];
    const client = async (index: number) => {
      while (!stop) {
        const result = await postGraphQL(`${base}/graphql`, `{ problems(first: ${index + 1}) { nodes { id title } } }`);
        if (result.errors) failures.push(JSON.stringify(result.errors));
      }
    };
    const clients = Array.from({ length: 4 }, (_, index) => client(index));
    const rssMiB: number[] = [];
    try {
      for (let swap = 1; swap <= 40; swap += 1) {
        const next = swap % 2 === 1 ? SCHEMAS.base : SCHEMAS.fieldRemoved;
        service.setSchema(next);
        await served(withHash(next).hash);
        if (swap === 20 || swap === 40) rssMiB.push(await residentMiB(command.child.pid!));
      }
    } finally {
      stop = true;
      await Promise.all(clients);
    }
    console.log(`resident memory of the compiled gateway at swaps 20 and 40: ${rssMiB.join(', ')} MiB`);
    expect(failures).toEqual([]);
    const metric = async (name: string) => (await (await fetch(`${base}/metrics`)).text()).split('\n').find((line) => line.startsWith(`${name} `));
    expect(await metric('gateway_problems_schema_reloads_total')).toBe('gateway_problems_schema_reloads_total 42');
    // Every replaced engine is disposed once its last request ends: one left, the one serving.
    await expect.poll(() => metric('gateway_problems_schema_engines'), { timeout: 30_000 }).toBe('gateway_problems_schema_engines 1');
    // Memory as the system sees it, which the engines' count does not: whatever else a swap might leave
    // behind (a cache keyed by schema, a listener per engine) grows with the 20 swaps between the reads.
    expect(rssMiB[1]! - rssMiB[0]!).toBeLessThan(16);
    command.child.kill('SIGTERM');
    expect(await command.exited).toBe(0);
  });
});

/** The process's resident set size, as the system reports it (VmRSS), in MiB. */
async function residentMiB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024);
}
