import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compiledBuild } from '../helpers/compiled-build.ts';
import { runCommand } from '../helpers/run-command.ts';
import { alive, logLinesOf, sendSlowQuery, startHeldProblems, STATEMENT, type HeldProblems } from './held-problems.ts';
import { newConnection } from './new-connection.ts';

/**
 * A real terminal that closes: an interactive bash in a pty (python3's `pty` module) is given the
 * command line an operator would type, and once the gateway listens the terminal's master side is
 * closed, as a terminal window or an ssh session does. The kernel hangs up the shell, which hangs up
 * its jobs (SIGHUP), the gateway among them.
 */
const CLOSE_TERMINAL = String.raw`
import os, pty, re, select, sys
command, log = sys.argv[1], sys.argv[2]
pid, fd = pty.fork()
if pid == 0:
    os.execvp('bash', ['bash', '--norc', '--noprofile', '-i'])
os.write(fd, (command + ' & echo "gateway-pid:$!"\n').encode())
out, said = b'', False
while True:
    # The pid as soon as the shell prints it, so that the test can stop the gateway whatever happens next.
    found = re.search(rb'gateway-pid:(\d+)', out)
    if found and not said:
        print('gateway-pid=' + found.group(1).decode(), flush=True)
        said = True
    try:
        text = open(log).read()
    except FileNotFoundError:
        text = ''
    if said and ('listening' in text or 'failed to start' in text or 'cannot start' in text):
        break
    if select.select([fd], [], [], 0.1)[0]:
        try:
            out += os.read(fd, 4096)
        except OSError:
            break
os.close(fd)
os.waitpid(pid, 0)
print('terminal closed', flush=True)
`;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The compiled entry as a deploy script or an operator starts it in production, `nohup node
 * dist/src/cli/start.js &`, and then the terminal goes: the gateway outlives the shell that started
 * it, and SIGTERM to its pid (what a service manager or `kill` sends) stops it gracefully. Its exit
 * code goes to whoever reaps an orphan, not to this test: its last line says how it ended.
 */
describe('a hang-up', () => {
  let slow: HeldProblems;
  let built: string;
  const cleanups: (() => Promise<void>)[] = [];
  beforeAll(async () => {
    slow = await startHeldProblems();
    built = await compiledBuild();
  });
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
    slow?.release();
    await slow?.server.close();
  });

  it('nohup … & in a terminal that then closes: one line for SIGHUP, serving on with its shell gone; SIGTERM then lets the request in flight finish, refuses new connections and stops it with its stand-in', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gateway-hang-up-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const log = join(dir, 'nohup.log');
    // Ten minutes: a gateway that waited for its shutdown timeout instead of the answer would outlast the test.
    const terminal = runCommand('python3', ['-c', CLOSE_TERMINAL, `nohup ${process.execPath} ${join(built, 'dist/src/cli/start.js')} >${log} 2>&1`, log], {
      PORT: '0',
      PROBLEMS_URL: slow.server.url,
      SHUTDOWN_TIMEOUT_MS: '600000',
    });
    cleanups.push(async () => void terminal.child.kill('SIGKILL'));
    const gatewayPid = Number((await terminal.waitFor(/gateway-pid=(\d+)/))[1]);
    cleanups.push(async () => {
      if (alive(gatewayPid)) process.kill(gatewayPid, 'SIGKILL');
    });
    await terminal.waitFor(/terminal closed/);
    const logText = () => readFile(log, 'utf8').catch(() => '');
    const waitForLine = async (pattern: RegExp) => {
      while (!pattern.test(await logText())) await pause(50);
    };
    const port = Number((await logText()).match(/listening: http:\/\/localhost:(\d+)\/graphql/)?.[1]);
    expect(port, await logText()).toBeGreaterThan(0);
    const [, standInPort] = (await logText()).match(/translation: local stand-in with fake data at http:\/\/127\.0\.0\.1:(\d+)/)!;
    // The hang-up reaches the gateway a moment after the shell's end: wait for its line (or its death).
    while (!/SIGHUP/.test(await logText()) && alive(gatewayPid)) await pause(50);

    // Several answers over more than a second after the shell is gone: a gateway that watched its
    // parent, or stopped on the hang-up, would have stopped by then.
    for (let answered = 0; answered < 5; answered += 1) {
      const response = await fetch(`http://127.0.0.1:${port}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ __typename }' }),
      });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ data: { __typename: 'Query' } });
      await pause(300);
    }
    expect(alive(gatewayPid)).toBe(true);
    expect((await logText()).match(/SIGHUP.*/g)).toEqual(['SIGHUP (the terminal closed, or a reload was asked for): ignored, still serving; nothing is reloaded on a signal, stop with SIGTERM']);
    expect(await logText()).not.toMatch(/stopping/);

    const arrivedBefore = slow.arrived;
    const reply = sendSlowQuery(port, 'in-flight-1');
    await slow.arrivals(arrivedBefore + 1);
    process.kill(gatewayPid, 'SIGTERM');
    await waitForLine(/SIGTERM: stopping/);
    expect(await newConnection(port)).toBe('ECONNREFUSED');
    slow.release();
    const { status, body } = await reply;
    expect(status).toBe(200);
    expect(body).toEqual({ data: { problem: { id: 'p1', title: 'A slow problem', statement: STATEMENT } } });
    await waitForLine(/stopped: /);
    expect(await logText()).toContain('waiting up to 600000 ms for 1 request(s) in flight');
    expect(await logText()).toContain('stopped: every request answered');
    expect(await newConnection(Number(standInPort))).toBe('ECONNREFUSED');
    // The log line agrees with what the client got.
    expect(logLinesOf(await logText(), 'in-flight-1')).toMatchObject([{ msg: 'request', outcome: 'ok', status: 200 }]);
  });
});
