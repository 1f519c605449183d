import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen, type RunningServer } from '../../src/shared/listen.ts';

const ROOT = new URL('../../', import.meta.url).pathname;

/** `npm start` on a port another process holds says so at once, before anything is built. */
describe('npm start on a busy port', () => {
  let holder: RunningServer;
  beforeAll(async () => {
    holder = await listen((_request, response) => response.end(), { host: '0.0.0.0' });
  });
  afterAll(async () => {
    await holder?.close();
  });

  it('stops with one line naming the port, before building the schema or starting stand-ins', async () => {
    const child = spawn(process.execPath, ['src/cli/start.ts'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: String(holder.port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code, output).toBe(1);
    expect(output).toContain(`port ${holder.port} on 0.0.0.0 is in use by another process`);
    expect(output).not.toContain('building the schema');
    expect(output).not.toContain('stand-in');
  }, 60_000);
});
