import { afterAll, describe, expect, it } from 'vitest';
import { RELEASE_AFTER_MS } from '../../src/cli/release-start-up-memory.ts';
import { listen } from '../../src/shared/listen.ts';
import { createProblemsService } from '../../src/upstreams/problems/service.ts';
import { postGraphQL } from '../helpers/start-stack.ts';
import { runEntry, type RunningCommand } from '../helpers/run-command.ts';
import { translatedTitleOf } from '../helpers/stand-in-translation.ts';

/** `npm start` advertises GraphiQL on its "listening" line only when it serves it. */
async function expectGraphiqlOff(command: RunningCommand, port: string): Promise<void> {
  const [line] = command.output().match(/listening: http:\/\/localhost:\d+\/graphql[^\n]*/)!;
  expect(line).toContain('GraphQL over HTTP; GraphiQL off');
  expect(line).not.toContain('GraphiQL in a browser');
  const page = await fetch(`http://127.0.0.1:${port}/graphql`, { headers: { accept: 'text/html' } });
  await page.arrayBuffer();
  expect(page.headers.get('content-type') ?? '').not.toMatch(/text\/html/);
}

/** Preloaded into the first configuration's process: the start-up release's timer, run on SIGUSR2 (see the file). */
const HELD_RELEASE_TIMER = new URL('../operations/held-release-timer.mjs', import.meta.url).pathname;

/**
 * The README's `npm start`, run as a user would: a separate process, stopped with Ctrl-C (SIGINT).
 * Each configuration starts once and is asked all its checks.
 */
describe('npm start (src/cli/start.ts)', () => {
  const running: RunningCommand[] = [];
  afterAll(() => {
    for (const command of running) command.child.kill('SIGKILL');
  });

  /**
   * The first configuration (no upstream URL: both stand-ins, in development), started once for the
   * two tests that follow. It runs with V8's GC trace and the start-up release's timer held
   * (test/operations/held-release-timer.mjs), which add lines of their own and change nothing the
   * other checks read.
   */
  let standIns: RunningCommand | undefined;
  const startedOnStandIns = () => {
    if (!standIns) {
      // DEBUG=1 would make Mesh print upstream requests with their keys: the gateway ignores it.
      standIns = runEntry('src/cli/start.ts', { PORT: '0', DEBUG: '1' }, ['--trace-gc', '--import', HELD_RELEASE_TIMER]);
      running.push(standIns);
    }
    return standIns;
  };

  it('releases the memory start-up left behind once it listens: one requested full collection, RELEASE_AFTER_MS later, needing no --expose-gc and leaving no gc() behind', async () => {
    // V8's GC trace names a collection asked for by gc() "testing"; none of V8's own is. The timer's
    // clock is injected: it says its delay, and runs on SIGUSR2.
    const command = startedOnStandIns();
    await command.waitFor(/listening: http:\/\/localhost:\d+\/graphql/);
    const [, delay] = await command.waitFor(/timer: releaseStartUpMemory in (\d+) ms/);
    expect(Number(delay)).toBe(RELEASE_AFTER_MS);
    expect(command.output()).not.toMatch(/testing; GC in old space requested/);
    command.child.kill('SIGUSR2');
    await command.waitFor(/testing; GC in old space requested/);
    const [, globals] = await command.waitFor(/released: (.*)/);
    expect(JSON.parse(globals!)).toEqual({ before: 'undefined', after: 'undefined', inNewContext: 'undefined' });
  });

  it('starts both stand-ins and a gateway that answers a cross-source query, and stops on SIGINT', async () => {
    const command = startedOnStandIns();
    const [, port] = await command.waitFor(/listening: http:\/\/localhost:(\d+)\/graphql/);
    expect(command.output()).toContain('DEBUG is ignored by the gateway');
    // In development GraphiQL is served, and the line says so (the configurations below turn it off).
    expect(command.output()).toMatch(/listening: http:\/\/localhost:\d+\/graphql \(GraphiQL in a browser/);
    expect(command.output()).toMatch(/schema ready in \d+\.\d s: \d+ types, all links in place/);
    expect(command.output()).toMatch(/problems: local stand-in with fake data at http:\/\/127\.0\.0\.1:\d+/);
    expect(command.output()).toMatch(/translation: local stand-in with fake data at http:\/\/127\.0\.0\.1:\d+/);
    expect(command.output().match(/warning: GATEWAY_API_KEYS is not set/g)).toHaveLength(1);
    // Fake data is never served unsaid.
    const readiness = await (await fetch(`http://127.0.0.1:${port}/readiness`)).json();
    expect(readiness).toMatchObject({ status: 'ready', standIns: true });

    const result = await postGraphQL(
      `http://127.0.0.1:${port}/graphql`,
      /* GraphQL */ `{ problems(first: 2) { nodes { title translation(to: "es") { title } } } }`,
    );
    expect(result.errors).toBeUndefined();
    for (const node of result.data.problems.nodes) expect(node.translation.title).not.toBe(node.title);

    command.child.kill('SIGINT');
    expect(await command.exited).toBe(0);
    // The generated stand-in keys are never printed.
    expect(command.output()).not.toMatch(/local-[A-Za-z0-9_-]{20,}/);
  });

  it('uses the services PROBLEMS_URL and TRANSLATION_URL name, starting no stand-in; never prints a key or the credentials a URL carries; with GATEWAY_GRAPHIQL=false, says GraphiQL is off and serves none', async () => {
    const upstream = await listen(createProblemsService({ apiKey: 'real-key' }).listener);
    try {
      const command = runEntry('src/cli/start.ts', {
        PORT: '0',
        PROBLEMS_URL: upstream.url,
        PROBLEMS_API_KEY: 'real-key',
        TRANSLATION_URL: 'http://reader:s3cret-pass@127.0.0.1:9',
        GATEWAY_GRAPHIQL: 'false',
      });
      running.push(command);
      const [, port] = await command.waitFor(/listening: http:\/\/localhost:(\d+)\/graphql/);
      expect(command.output()).toContain(`problems: ${upstream.url} (from PROBLEMS_URL)`);
      expect(command.output()).toContain('translation: http://127.0.0.1:9 (from TRANSLATION_URL)');
      expect(command.output()).not.toMatch(/local stand-in/);
      await expectGraphiqlOff(command, port!);
      const result = await postGraphQL(`http://127.0.0.1:${port}/graphql`, /* GraphQL */ `{ problems(first: 1) { totalCount } }`);
      expect(result.errors).toBeUndefined();
      expect(result.data.problems.totalCount).toBeGreaterThanOrEqual(150);
      command.child.kill('SIGTERM');
      expect(await command.exited).toBe(0);
      expect(command.output()).not.toContain('real-key');
      expect(command.output()).not.toContain('s3cret-pass');
    } finally {
      await upstream.close();
    }
  });

  it('refuses to start in production without the upstream URLs, naming them, rather than serve fake data', async () => {
    const neither = runEntry('src/cli/start.ts', { PORT: '0', NODE_ENV: 'production' });
    const onlyProblems = runEntry('src/cli/start.ts', { PORT: '0', NODE_ENV: 'production', PROBLEMS_URL: 'http://127.0.0.1:9' });
    running.push(neither, onlyProblems);
    // In production every line is a JSON object, this one too.
    expect(await neither.exited).toBe(1);
    expect(JSON.parse(neither.output().trim())).toMatchObject({
      level: 'error',
      msg: "cannot start: PROBLEMS_URL, TRANSLATION_URL: not set, and in production (NODE_ENV=production) the gateway runs no stand-ins with fake data: set them to the services' base URLs (or STAND_INS=true to run the local stand-ins on purpose)",
    });
    expect(await onlyProblems.exited).toBe(1);
    expect(onlyProblems.output().trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(onlyProblems.output()).msg).toMatch(/^cannot start: TRANSLATION_URL: not set, and in production/);
  });

  it('starts with NODE_ENV=production and STAND_INS=true, and every line and /readiness say the stand-ins serve it', async () => {
    const command = runEntry('src/cli/start.ts', { PORT: '0', NODE_ENV: 'production', STAND_INS: 'true' });
    running.push(command);
    const [, port] = await command.waitFor(/listening: http:\/\/localhost:(\d+)\/graphql/);
    // Production: stdout is one JSON stream, and every start-up line says the stand-ins serve it.
    const lines = command
      .output()
      .split('\n')
      .filter((line) => line.trim())
      .map((line) => JSON.parse(line) as { level: string; msg: string; standIns?: boolean });
    expect(lines.length).toBeGreaterThanOrEqual(5);
    for (const line of lines) expect(line).toMatchObject({ level: expect.any(String), msg: expect.any(String), standIns: true });
    expect(command.output()).toMatch(/listening: .*fake data from the local stand-ins for problems and translation\)/);
    await expectGraphiqlOff(command, port!);
    const readiness = await (await fetch(`http://127.0.0.1:${port}/readiness`)).json();
    expect(readiness).toEqual({ status: 'ready', services: { problems: 'ok', translation: 'ok' }, standIns: true, schema: expect.objectContaining({ source: 'live', lastCheck: 'ok' }) });
    const result = await postGraphQL(`http://127.0.0.1:${port}/graphql`, /* GraphQL */ `{ problem(id: "p1001") { translation(to: "es") { title } } }`);
    expect(result.errors).toBeUndefined();
    expect(result.data.problem.translation.title).toBe(translatedTitleOf('p1001', 'es'));
    command.child.kill('SIGTERM');
    expect(await command.exited).toBe(0);
    // The request's log line and the shutdown lines are in the same JSON stream; nothing else is.
    const all = command
      .output()
      .split('\n')
      .filter((line) => line.trim())
      .map((line) => JSON.parse(line) as { msg: string });
    expect(all.map((line) => line.msg)).toEqual(expect.arrayContaining(['request', 'stopped: every request answered']));
  });

  it('refuses a malformed setting with one line naming the variable', async () => {
    const command = runEntry('src/cli/start.ts', { PORT: 'eighty' });
    running.push(command);
    expect(await command.exited).toBe(1);
    expect(command.output().trim()).toBe('[gateway] cannot start: PORT: expected a port number from 0 to 65535, got "eighty"');
  });
});
