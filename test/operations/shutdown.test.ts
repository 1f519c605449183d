import { execFile } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen, type RunningServer } from '../../src/shared/listen.ts';
import { compiledBuild } from '../helpers/compiled-build.ts';
import { runCommand, type RunningCommand } from '../helpers/run-command.ts';
import { newConnection } from './new-connection.ts';

const run = promisify(execFile);

/** 200 kB, so a reply cut short would show. */
const STATEMENT = 'Print the answer. '.repeat(11_000);
const QUERY = /* GraphQL */ `{ problem(id: "p1") { id title statement } }`;

/**
 * A problems service that holds every request until the test lets it go (`release()`): a request stays
 * in flight exactly as long as a test needs, however slow the machine, with no timer to outwait.
 */
async function startHeldProblems() {
  const waiting: (() => void)[] = [];
  const watchers = new Set<() => void>();
  const held = {
    arrived: 0,
    answered: 0,
    server: undefined as unknown as RunningServer,
    /** Answers every request held so far. */
    release: () => {
      for (const answer of waiting.splice(0)) answer();
    },
    /** Resolves once `count` requests have arrived in all (counted from the service's start): no polling. */
    arrivals: (count: number) =>
      new Promise<void>((resolve) => {
        const watcher = () => {
          if (held.arrived < count) return;
          watchers.delete(watcher);
          resolve();
        };
        watchers.add(watcher);
        watcher();
      }),
  };
  held.server = await listen((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.once('end', () => {
      const answer = () => {
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify({ data: { problem: { __typename: 'Problem', id: 'p1', title: 'A slow problem', statement: STATEMENT } } }));
      };
      // The gateway's introspection at start (answered with nothing it can use: it keeps its snapshot) is not a request in flight.
      if (body.includes('__schema')) return answer();
      held.arrived += 1;
      for (const watcher of [...watchers]) watcher();
      waiting.push(() => {
        held.answered += 1;
        answer();
      });
    });
  });
  return held;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const sendSlowQuery = (port: number, requestId?: string, query = QUERY) =>
  fetch(`http://127.0.0.1:${port}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(requestId ? { 'x-request-id': requestId } : {}) },
    body: JSON.stringify({ query }),
  }).then(async (response) => ({ status: response.status, body: await response.json() }));

const logLinesOf = (command: RunningCommand, requestId: string) =>
  command
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{') && line.includes(`"requestId":"${requestId}"`))
    .map((line) => JSON.parse(line));

/**
 * SIGTERM while a request is in flight, sent to the process that runs the gateway: the compiled entry
 * as production runs it (`node dist/src/cli/start.js`), and `npm start` from the npm process.
 */
describe('stopping the gateway with requests in flight', () => {
  let slow: Awaited<ReturnType<typeof startHeldProblems>>;
  const running: RunningCommand[] = [];
  let built: string;
  beforeAll(async () => {
    slow = await startHeldProblems();
    built = await compiledBuild();
  });
  afterAll(async () => {
    for (const command of running) command.child.kill('SIGKILL');
    slow?.release();
    await slow?.server.close();
  });

  const startCompiled = (env: Record<string, string> = {}) => {
    const command = runCommand(process.execPath, [join(built, 'dist/src/cli/start.js')], { PORT: '0', PROBLEMS_URL: slow.server.url, ...env });
    running.push(command);
    return command;
  };

  it('node dist/src/cli/start.js: SIGTERM lets the request finish, refuses new connections, then exits with its stand-in', async () => {
    // Ten minutes: a gateway that waited for its shutdown timeout instead of the answer would outlast the test.
    const command = startCompiled({ SHUTDOWN_TIMEOUT_MS: '600000' });
    const [, port] = await command.waitFor(/listening: http:\/\/localhost:(\d+)\/graphql/);
    const [, standInPort] = command.output().match(/translation: local stand-in with fake data at http:\/\/127\.0\.0\.1:(\d+)/)!;
    const arrivedBefore = slow.arrived;
    const reply = sendSlowQuery(Number(port), 'in-flight-1');
    await slow.arrivals(arrivedBefore + 1);

    command.child.kill('SIGTERM');
    await command.waitFor(/SIGTERM: stopping/);
    expect(await newConnection(Number(port))).toBe('ECONNREFUSED');
    slow.release();
    const { status, body } = await reply;
    expect(status).toBe(200);
    expect(body).toEqual({ data: { problem: { id: 'p1', title: 'A slow problem', statement: STATEMENT } } });
    expect(await command.exited).toBe(0);
    expect(alive(command.child.pid!)).toBe(false);
    expect(await newConnection(Number(standInPort))).toBe('ECONNREFUSED');
    expect(command.output()).toContain('waiting up to 600000 ms for 1 request(s) in flight');
    expect(command.output()).toContain('stopped: every request answered');
    // The log line agrees with what the client got.
    expect(logLinesOf(command, 'in-flight-1')).toMatchObject([{ msg: 'request', outcome: 'ok', status: 200 }]);
  });

  it('node dist/src/cli/start.js: a request still running at SHUTDOWN_TIMEOUT_MS is cut off, logged as such, and the exit code says so', async () => {
    const command = startCompiled({ SHUTDOWN_TIMEOUT_MS: '300' });
    const [, port] = await command.waitFor(/listening: http:\/\/localhost:(\d+)\/graphql/);
    const arrivedBefore = slow.arrived;
    const replies = [sendSlowQuery(Number(port), 'cut-1'), sendSlowQuery(Number(port), undefined, QUERY.replace('p1', 'p2'))].map((reply) =>
      reply.then(
        () => 'answered',
        () => 'no answer',
      ),
    );
    await slow.arrivals(arrivedBefore + 2);
    const answeredBefore = slow.answered;

    command.child.kill('SIGTERM');
    expect(await command.exited).toBe(1);
    // Gone while the upstream still held both requests.
    expect(slow.answered).toBe(answeredBefore);
    expect(await Promise.all(replies)).toEqual(['no answer', 'no answer']);
    const cutOffLines = command
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line));
    // Only the cut-off lines: nothing claims these requests were answered.
    expect(cutOffLines).toMatchObject([
      { level: 'warn', msg: 'request cut off at shutdown', method: 'POST', path: '/graphql' },
      { level: 'warn', msg: 'request cut off at shutdown', method: 'POST', path: '/graphql' },
    ]);
    // The client's id, or else the one the gateway gave the request.
    const ids = cutOffLines.map(({ requestId }) => requestId as string);
    expect(ids).toContain('cut-1');
    expect(ids.find((id) => id !== 'cut-1')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(command.output()).toContain('stopped: 2 request(s) cut off after 300 ms');
  });

  it('node dist/src/cli/start.js: keeps serving after the shell that started it exits (nohup … &), and stops on SIGTERM to its pid', async () => {
    const log = join(await mkdtemp(join(tmpdir(), 'gateway-nohup-')), 'nohup.log');
    // A deploy script's way: the shell starts the gateway in the background, waits until it listens
    // and exits, leaving it reparented (to init or a subreaper) once it is running.
    const script = `nohup ${process.execPath} ${join(built, 'dist/src/cli/start.js')} >${log} 2>&1 & echo "pid=$!"; until grep -q listening ${log}; do sleep 0.1; done`;
    const shell = runCommand('sh', ['-c', script], {
      PORT: '0',
      PROBLEMS_URL: slow.server.url,
    });
    const [, pidText] = await shell.waitFor(/pid=(\d+)/);
    const gatewayPid = Number(pidText);
    expect(await shell.exited).toBe(0);
    const logText = () => readFile(log, 'utf8').catch(() => '');
    let port: string | undefined;
    while (!(port = (await logText()).match(/listening: http:\/\/localhost:(\d+)\/graphql/)?.[1])) {
      if (!alive(gatewayPid)) throw new Error(`the gateway exited before listening:\n${await logText()}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    try {
      // Several answers over more than a second after the shell is gone: a gateway that watched its
      // parent would have stopped by then.
      for (let answered = 0; answered < 6; answered += 1) {
        const response = await fetch(`http://127.0.0.1:${port}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query: '{ __typename }' }),
        });
        expect(response.status).toBe(200);
        expect(await response.json()).toEqual({ data: { __typename: 'Query' } });
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
      expect(alive(gatewayPid)).toBe(true);
      expect(await logText()).not.toMatch(/stopping/);
    } finally {
      process.kill(gatewayPid, 'SIGTERM');
    }
    // Its last line, rather than its pid, says it is gone: whoever reaps an orphan is not this test.
    while (!/stopped: /.test(await logText())) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await logText()).toMatch(/SIGTERM: stopping/);
    expect(await logText()).toMatch(/stopped: every request answered/);
    expect(await newConnection(Number(port))).toBe('ECONNREFUSED');
  });

  it('npm start: SIGTERM to the npm process reaches the gateway, which finishes the request; nothing is left running', async () => {
    const command = runCommand('npm', ['start', '--silent'], { PORT: '0', PROBLEMS_URL: slow.server.url });
    running.push(command);
    const [, port] = await command.waitFor(/listening: http:\/\/localhost:(\d+)\/graphql/);
    // `exec` in the script: npm's only child is node itself (types stripped by Node), no shell or tsx in between.
    const { stdout } = await run('ps', ['-o', 'pid=,args=', '--ppid', String(command.child.pid)]);
    const children = stdout.trim().split('\n');
    expect(children).toHaveLength(1);
    expect(children[0]).toMatch(/\d+ node src\/cli\/start\.ts$/);
    const gatewayPid = Number(children[0]!.trim().split(/\s+/)[0]);

    const arrivedBefore = slow.arrived;
    const reply = sendSlowQuery(Number(port), 'npm-1');
    await slow.arrivals(arrivedBefore + 1);
    command.child.kill('SIGTERM');
    // Answered only once the gateway has the signal: the request is in flight while it stops.
    await command.waitFor(/SIGTERM: stopping/);
    slow.release();
    const { status, body } = await reply;
    expect(status).toBe(200);
    expect(body.data.problem.statement).toBe(STATEMENT);
    await command.exited;
    expect(alive(command.child.pid!)).toBe(false);
    expect(alive(gatewayPid)).toBe(false);
    expect(await newConnection(Number(port))).toBe('ECONNREFUSED');
    expect(command.output()).toContain('stopped: every request answered');
  });
});
