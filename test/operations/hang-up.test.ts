import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCommand } from '../helpers/run-command.ts';

/**
 * A real terminal that closes: an interactive bash in a pty (python3's `pty` module) is given the
 * command line an operator would type, and once the gateway listens the terminal's master side is
 * closed, as a terminal window or an ssh session does. The kernel hangs up the shell, which hangs up
 * its jobs (SIGHUP), the gateway among them.
 */
const CLOSE_TERMINAL = String.raw`
import os, pty, re, select, sys, time
command, log = sys.argv[1], sys.argv[2]
pid, fd = pty.fork()
if pid == 0:
    os.execvp('bash', ['bash', '--norc', '--noprofile', '-i'])
os.write(fd, (command + ' & echo "gateway-pid:$!"\n').encode())
out, deadline = b'', time.time() + 120
while time.time() < deadline:
    try:
        text = open(log).read()
    except FileNotFoundError:
        text = ''
    if 'listening' in text or 'failed to start' in text:
        break
    if select.select([fd], [], [], 0.1)[0]:
        try:
            out += os.read(fd, 4096)
        except OSError:
            break
found = re.search(rb'gateway-pid:(\d+)', out)
print('gateway-pid=' + (found.group(1).decode() if found else 'none'), flush=True)
os.close(fd)
os.waitpid(pid, 0)
print('terminal closed', flush=True)
`;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('a hang-up', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups) await cleanup();
  });

  it('nohup … & in a terminal that then closes: the gateway logs one line for SIGHUP and keeps answering /healthcheck', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gateway-hang-up-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const log = join(dir, 'nohup.log');
    const typeStripping = Boolean((process.features as { typescript?: unknown }).typescript);
    const node = `${process.execPath}${typeStripping ? '' : ' --import tsx'}`;
    const terminal = runCommand('python3', ['-c', CLOSE_TERMINAL, `nohup ${node} src/cli/start.ts >${log} 2>&1`, log], { PORT: '0' });
    const [, pidText] = await terminal.waitFor(/gateway-pid=(\w+)/, 120_000);
    expect(pidText).toMatch(/^\d+$/);
    const gatewayPid = Number(pidText);
    cleanups.push(async () => {
      if (alive(gatewayPid)) process.kill(gatewayPid, 'SIGTERM');
    });
    await terminal.waitFor(/terminal closed/);
    const logText = () => readFile(log, 'utf8').catch(() => '');
    const port = (await logText()).match(/listening: http:\/\/localhost:(\d+)\/graphql/)?.[1];
    expect(port, await logText()).toMatch(/^\d+$/);
    // The hang-up reaches the gateway a moment after the shell's end: wait for its line (or its death).
    while (!/SIGHUP/.test(await logText()) && alive(gatewayPid)) await new Promise((resolve) => setTimeout(resolve, 50));
    for (let answered = 0; answered < 3; answered += 1) {
      const response = await fetch(`http://127.0.0.1:${port}/healthcheck`);
      expect(response.status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(alive(gatewayPid)).toBe(true);
    expect((await logText()).match(/SIGHUP.*/g)).toEqual(['SIGHUP (the terminal closed, or a reload was asked for): ignored, still serving; nothing is reloaded on a signal, stop with SIGTERM']);
    process.kill(gatewayPid, 'SIGTERM');
    while (!/stopped: /.test(await logText())) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await logText()).toMatch(/stopped: every request answered/);
  }, 180_000);
});
