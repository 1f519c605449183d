import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer, connect } from 'node:net';

export interface RedisServer {
  url: string;
  port: number;
  /** PID of the running redis-server (changes on restart). */
  readonly pid: number;
  /** Kills it by PID (SIGKILL: no goodbye to clients, as a crash) and waits for it to exit. */
  kill(): Promise<void>;
  /** Starts it again on the same port (empty: nothing is saved). */
  restart(): Promise<void>;
  /** SIGSTOP / SIGCONT: a Redis that holds connections open and answers nothing. */
  pause(): void;
  resume(): void;
  stop(): Promise<void>;
}

/** A port free right now on loopback (the OS picks it; it is closed again at once). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * A redis-server of its own for one test file, on a free loopback port, persisting nothing; stopped
 * by its PID. test/setup/ensure-redis.sh (pretest) installs Debian's redis-server when missing.
 */
export async function startRedis(): Promise<RedisServer> {
  if (spawnSync('redis-server', ['--version']).error) {
    throw new Error('redis-server is not installed: run test/setup/ensure-redis.sh (apt-get install redis-server)');
  }
  const port = await freePort();
  let child: ChildProcess;
  const launch = async () => {
    child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'yes'], {
      stdio: 'ignore',
    });
    await waitForPing(port);
  };
  const exited = (process: ChildProcess) =>
    process.exitCode !== null || process.signalCode !== null ? Promise.resolve() : new Promise<void>((resolve) => process.once('exit', () => resolve()));
  const killWith = async (signal: NodeJS.Signals) => {
    const running = child;
    process.kill(running.pid!, 'SIGCONT');
    process.kill(running.pid!, signal);
    await exited(running);
  };
  await launch();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    get pid() {
      return child.pid!;
    },
    kill: () => killWith('SIGKILL'),
    restart: launch,
    pause: () => process.kill(child.pid!, 'SIGSTOP'),
    resume: () => process.kill(child.pid!, 'SIGCONT'),
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) await killWith('SIGTERM');
    },
  };
}

async function waitForPing(port: number, deadlineMs = 5000): Promise<void> {
  const until = Date.now() + deadlineMs;
  for (;;) {
    const pong = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.setTimeout(200, () => (socket.destroy(), resolve(false)));
      socket.on('error', () => resolve(false));
      socket.on('connect', () => socket.write('PING\r\n'));
      socket.on('data', (data) => (socket.destroy(), resolve(data.toString().startsWith('+PONG'))));
    });
    if (pong) return;
    if (Date.now() > until) throw new Error(`redis-server did not answer on port ${port}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
