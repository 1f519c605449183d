import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRedis } from '../../src/gateway/redis/redis-connection.ts';
import { settingsVariables, unknownVariableLine, unknownVariables } from '../../src/gateway/settings.ts';
import { freePort } from '../helpers/redis-server.ts';
import { runEntry } from '../helpers/run-command.ts';

const PASSWORD = 'right-redis-password';
const WRONG_PASSWORD = 'wrong-redis-password';

/** A redis-server of its own that requires PASSWORD (`--requirepass`), on a free loopback port. */
async function startRedisWithPassword(): Promise<{ port: number; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--requirepass', PASSWORD], { stdio: 'ignore' });
  for (let attempt = 0; ; attempt += 1) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.on('connect', () => (socket.destroy(), resolve(true)));
      socket.on('error', () => resolve(false));
    });
    if (open) return { port, child };
    if (attempt > 200) throw new Error(`redis-server did not listen on ${port}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('variables the gateway does not read', () => {
  it('names a misspelt variable of its own families with the nearest known name, in one line, without its value', () => {
    const unknown = unknownVariables({ RATE_LIMIT_REQUSTS: '5', RATE_LIMIT_REQUESTS: '7', HOME: '/root', PATH: '/bin' });
    expect(unknown).toEqual([{ name: 'RATE_LIMIT_REQUSTS', nearest: 'RATE_LIMIT_REQUESTS' }]);
    expect(unknown.map(unknownVariableLine)).toEqual(['RATE_LIMIT_REQUSTS is not a variable the gateway reads; did you mean RATE_LIMIT_REQUESTS?']);
  });

  it("covers every family its known variables use, and suggests by words first, spelling next", () => {
    const env = { PROBLEMS_KEY: 'k', TRANSLATION_API_TOKEN: 't', MAX_DEPHT: '3', GATEWAY_API_KEY: 'k', REDIS_PASSWORD: 'p', UPSTREAM_RETRY: '1', STAND_IN: 'true', max_depth: '4' };
    expect(Object.fromEntries(unknownVariables(env).map(({ name, nearest }) => [name, nearest]))).toEqual({
      PROBLEMS_KEY: 'PROBLEMS_API_KEY',
      TRANSLATION_API_TOKEN: 'TRANSLATION_API_KEY',
      MAX_DEPHT: 'MAX_DEPTH',
      GATEWAY_API_KEY: 'GATEWAY_API_KEYS',
      REDIS_PASSWORD: 'REDIS_URL',
      UPSTREAM_RETRY: 'UPSTREAM_RETRIES',
      STAND_IN: 'STAND_INS',
      max_depth: 'MAX_DEPTH',
    });
  });

  it('knows every variable the settings read (the families come from them), and leaves Node, OpenTelemetry and Kubernetes service links alone', () => {
    const known = settingsVariables();
    expect(known).toEqual(expect.arrayContaining(['PORT', 'PROBLEMS_URL', 'RATE_LIMIT_REQUESTS', 'TRANSLATION_RATE_LIMIT_REQUESTS', 'MAX_BODY_BYTES', 'REDIS_URL', 'TRUST_PROXY']));
    expect(unknownVariables(Object.fromEntries(known.map((name) => [name, 'x'])))).toEqual([]);
    const others = {
      NODE_OPTIONS: '--max-old-space-size=512',
      NODE_EXTRA_CA_CERTS: '/ca.pem',
      OTEL_SERVICE_NAME: 'gateway',
      // What Kubernetes sets for Services named redis and translation.
      REDIS_SERVICE_HOST: '10.0.0.5',
      REDIS_SERVICE_PORT: '6379',
      REDIS_PORT: 'tcp://10.0.0.5:6379',
      REDIS_PORT_6379_TCP_ADDR: '10.0.0.5',
      TRANSLATION_SERVICE_HOST: '10.0.0.6',
      TRANSLATION_PORT: 'tcp://10.0.0.6:5000',
    };
    expect(unknownVariables(others)).toEqual([]);
    // Without its service host, REDIS_PORT is an operator's guess at a variable: the port goes in REDIS_URL.
    expect(unknownVariables({ REDIS_PORT: '6379' })).toEqual([{ name: 'REDIS_PORT', nearest: 'REDIS_URL' }]);
  });
});

describe('a Redis that refuses the credential', () => {
  let redis: Awaited<ReturnType<typeof startRedisWithPassword>>;
  beforeAll(async () => {
    redis = await startRedisWithPassword();
  });
  afterAll(() => {
    redis?.child.kill('SIGTERM');
  });

  it('stops the entry with one line naming REDIS_URL, never the password; a misspelt variable is named first', async () => {
    const command = runEntry('src/cli/start.ts', {
      PORT: '0',
      REDIS_URL: `redis://:${WRONG_PASSWORD}@127.0.0.1:${redis.port}`,
      RATE_LIMIT_REQUSTS: '5',
    });
    const code = await command.exited;
    const output = command.output();
    expect(code).toBe(1);
    expect(output).toContain('warning: RATE_LIMIT_REQUSTS is not a variable the gateway reads; did you mean RATE_LIMIT_REQUESTS?');
    const refusals = output.split('\n').filter((line) => /cannot start|failed to start/.test(line));
    expect(refusals).toEqual([`[gateway] cannot start: REDIS_URL: Redis at 127.0.0.1:${redis.port} refused the credential (WRONGPASS): set the password (and user, if any) Redis expects in REDIS_URL (redis://[user]:password@host:port)`]);
    expect(output).not.toContain(WRONG_PASSWORD);
    expect(output).not.toContain('in-process rate limits');
    expect(output).not.toContain('listening');
  });

  it('refuses a missing password (NOAUTH) as a wrong one, and says in one line when the right one connects', async () => {
    await expect(connectRedis({ url: `redis://127.0.0.1:${redis.port}`, timeoutMs: 100, log: () => undefined })).rejects.toThrow(/^REDIS_URL: .*refused the credential \(NOAUTH\)/);
    const lines: string[] = [];
    const connection = await connectRedis({ url: `redis://:${PASSWORD}@127.0.0.1:${redis.port}`, timeoutMs: 100, log: (line) => lines.push(line) });
    try {
      expect(await connection.check()).toBe('ok');
      expect(lines).toEqual([`redis: connected to 127.0.0.1:${redis.port}; caches and rate limits are shared with the other replicas`]);
    } finally {
      await connection.close();
    }
  });
});
