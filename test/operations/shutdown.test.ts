import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compiledBuild } from '../helpers/compiled-build.ts';
import { runCommand, type RunningCommand } from '../helpers/run-command.ts';
import { alive, logLinesOf, QUERY, sendSlowQuery, startHeldProblems, STATEMENT, type HeldProblems } from './held-problems.ts';
import { newConnection } from './new-connection.ts';

const run = promisify(execFile);

/**
 * SIGTERM while requests are in flight, sent to the process that runs the gateway: the compiled entry
 * as production runs it (`node dist/src/cli/start.js`) cut off at SHUTDOWN_TIMEOUT_MS, and `npm start`
 * from the npm process, which finishes them. The compiled entry finishing a request after its terminal
 * closed is test/operations/hang-up.test.ts's.
 */
describe('stopping the gateway with requests in flight', () => {
  let slow: HeldProblems;
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

  it('npm start: SIGTERM to the npm process reaches the gateway, which refuses new connections, finishes the request and stops with its stand-in; nothing is left running', async () => {
    // Ten minutes: a gateway that waited for its shutdown timeout instead of the answer would outlast the test.
    const command = runCommand('npm', ['start', '--silent'], { PORT: '0', PROBLEMS_URL: slow.server.url, SHUTDOWN_TIMEOUT_MS: '600000' });
    running.push(command);
    const [, port] = await command.waitFor(/listening: http:\/\/localhost:(\d+)\/graphql/);
    const [, standInPort] = command.output().match(/translation: local stand-in with fake data at http:\/\/127\.0\.0\.1:(\d+)/)!;
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
    expect(await newConnection(Number(port))).toBe('ECONNREFUSED');
    slow.release();
    const { status, body } = await reply;
    expect(status).toBe(200);
    expect(body).toEqual({ data: { problem: { id: 'p1', title: 'A slow problem', statement: STATEMENT } } });
    await command.exited;
    expect(alive(command.child.pid!)).toBe(false);
    expect(alive(gatewayPid)).toBe(false);
    expect(await newConnection(Number(standInPort))).toBe('ECONNREFUSED');
    expect(command.output()).toContain('waiting up to 600000 ms for 1 request(s) in flight');
    expect(command.output()).toContain('stopped: every request answered');
    // The log line agrees with what the client got.
    expect(logLinesOf(command.output(), 'npm-1')).toMatchObject([{ msg: 'request', outcome: 'ok', status: 200 }]);
  });
});
