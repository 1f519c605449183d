import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createGateway } from '../../src/gateway/create-gateway.ts';
import { freePort, startRedis, type RedisServer } from '../helpers/redis-server.ts';
import { startStack, type GraphQLResponse, type Stack } from '../helpers/start-stack.ts';
import { standInTranslation, translatedTitleOf } from '../helpers/stand-in-translation.ts';

/** Turns of the event loop a close may take with timers frozen: sockets close within a few; a timer never fires. */
const CLOSE_TURNS = 1000;

type Replica = Pick<Stack, 'query'>;

async function timed(replica: Replica, query: string): Promise<GraphQLResponse & { ms: number }> {
  const started = performance.now();
  const answer = await replica.query(query);
  return { ...answer, ms: performance.now() - started };
}

/** Measured figures, printed for the record (tests assert that answers came, never these). */
function summary(answers: { ms: number }[]): string {
  const sorted = answers.map((answer) => answer.ms).sort((x, y) => x - y);
  return `${sorted.length} answers, median ${sorted[Math.floor(sorted.length / 2)].toFixed(0)} ms, slowest ${sorted[sorted.length - 1].toFixed(0)} ms`;
}

async function waitFor(condition: () => boolean, what: string, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('several replicas, one Redis: Redis down, slow or restarting', () => {
  let redis: RedisServer;
  let stack: Stack;
  let replicaB: Replica;
  const logs: { A: string[]; B: string[] } = { A: [], B: [] };

  beforeAll(async () => {
    redis = await startRedis();
    const settings = { redisUrl: redis.url, problemsCacheTtlSeconds: 60 };
    stack = await startStack({ settings, log: (line: string) => logs.A.push(line) });
    replicaB = await stack.addGateway({ settings, log: (line: string) => logs.B.push(line) });
  });
  afterAll(async () => {
    await stack?.close();
    await redis?.stop();
  });

  // No time is asserted: each answer is awaited while Redis is still down (or paused), and Redis comes
  // back only after the last one. A gateway that waited for Redis (an offline queue, a reconnection,
  // a command with no timeout) would answer only once it came back, which it never would.
  it('MUST answer every request while Redis is killed mid-run, before it is back, and share again once it is', async () => {
    const replicas = [stack, replicaB];
    const answers: (GraphQLResponse & { ms: number; asked: string })[] = [];
    let round = 0;
    const run = async (rounds: number) => {
      for (const end = round + rounds; round < end; round++) {
        // A new text and a new problem query each round: every round reads and writes Redis.
        const text = `Print the answer ${round}.`;
        const query = /* GraphQL */ `{ problem(id: "p10${10 + (round % 80)}") { id title } translation { translate(text: "${text}", to: "es") { text } } }`;
        const answered = await Promise.all(replicas.flatMap((replica) => [timed(replica, query), timed(replica, query)]));
        answers.push(...answered.map((answer) => ({ ...answer, asked: text })));
      }
    };
    await run(5);
    await redis.kill();
    await run(10);
    expect(answers).toHaveLength(60);
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.errors).toBeUndefined();
      expect(answer.data.translation.translate.text).toBe(standInTranslation(answer.asked, 'es'));
    }
    console.log(`[redis faults] Redis up: ${summary(answers.slice(0, 20))}; killed: ${summary(answers.slice(20))}`);
    // One line per replica says so, however many reconnection attempts fail.
    expect(logs.A.filter((line) => line.includes('connection to') && line.includes('lost'))).toHaveLength(1);
    expect(logs.B.filter((line) => line.includes('lost'))).toHaveLength(1);

    await redis.restart();
    await waitFor(() => [logs.A, logs.B].every((log) => log.some((line) => line.includes('reachable again'))), 'both replicas to reconnect');
    const query = /* GraphQL */ `{ translation { translate(text: "Each test case, after the restart.", to: "fr") { text } } }`;
    const calls = stack.translation.stats.requests;
    expect((await stack.query(query)).errors).toBeUndefined();
    expect(stack.translation.stats.requests).toBe(calls + 1);
    expect((await replicaB.query(query)).errors).toBeUndefined();
    expect(stack.translation.stats.requests).toBe(calls + 1);
  });

  it('MUST answer every request while Redis holds its connections and answers nothing, before it answers again', async () => {
    const round = (label: string) =>
      Promise.all(
        Array.from({ length: 20 }, (_, index) =>
          timed(index % 2 ? stack : replicaB, /* GraphQL */ `{ translation { translate(text: "Print the number ${label} ${index}.", to: "es") { text } } }`),
        ),
      );
    const control = await round('before');
    redis.pause();
    try {
      const answers = await round('paused');
      answers.forEach((answer, index) => {
        expect(answer.status).toBe(200);
        expect(answer.errors).toBeUndefined();
        expect(answer.data.translation.translate.text).toBe(standInTranslation(`Print the number paused ${index}.`, 'es'));
      });
      console.log(`[redis faults] same load, Redis answering: ${summary(control)}; Redis paused: ${summary(answers)}`);
    } finally {
      redis.resume();
    }
  });
});

describe('several replicas, one Redis: rate limits while Redis is away', () => {
  it('MUST fall back to per-replica counters: 40 requests over two replicas admit 5 on each, then 5 in all once Redis is back', async () => {
    const redis = await startRedis();
    const logs: string[] = [];
    const settings = { redisUrl: redis.url, redisTimeoutMs: 150, rateLimitRequests: 5, rateLimitWindowSeconds: 60 };
    const stack = await startStack({ settings, log: (line: string) => logs.push(line) });
    const replicaB = await stack.addGateway({ settings, log: (line: string) => logs.push(line) });
    const query = /* GraphQL */ `{ problem(id: "p1001") { id } }`;
    const admitted = async () => {
      const answers = await Promise.all(Array.from({ length: 40 }, (_, index) => (index % 2 ? stack : replicaB).query(query)));
      for (const answer of answers) expect([200, 429]).toContain(answer.status);
      return answers.filter((answer) => answer.status === 200).length;
    };
    try {
      await redis.kill();
      expect(await admitted()).toBe(10);
      await redis.restart();
      await waitFor(() => logs.filter((line) => line.includes('reachable again')).length === 2, 'both replicas to reconnect');
      // Redis restarted empty: a new shared window.
      expect(await admitted()).toBe(5);
    } finally {
      await stack.close();
      await redis.stop();
    }
  });
});

describe('REDIS_URL pointing at nothing', () => {
  // The stand-ins, started once: each test builds its own gateway over them.
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('MUST start, say so in one line, and serve', async () => {
    const lines: string[] = [];
    const port = await freePort();
    const replica = await stack.addGateway({ settings: { redisUrl: `redis://:s3cret-password@127.0.0.1:${port}` }, log: (line: string) => lines.push(line) });
    try {
      const redisLines = lines.filter((line) => line.includes('redis'));
      expect(redisLines).toEqual([expect.stringContaining(`redis: not reachable at 127.0.0.1:${port}`)]);
      expect(redisLines[0]).not.toContain('s3cret-password');
      const answer = await replica.query(/* GraphQL */ `{ problem(id: "p1001") { id translation(to: "es") { title } } }`);
      expect(answer.status).toBe(200);
      expect(answer.errors).toBeUndefined();
      expect(answer.data.problem.translation.title).toBe(translatedTitleOf('p1001', 'es'));
    } finally {
      await replica.close();
    }
  });

  it('MUST say nothing about a lost connection when the gateway itself closes', async () => {
    const redis = await startRedis();
    const lines: string[] = [];
    try {
      const gateway = await createGateway({ settings: { ...stack.upstreamSettings, redisUrl: redis.url }, log: (line) => lines.push(line), requestLog: false });
      await gateway.close();
      await new Promise((resolve) => setTimeout(resolve, 50));
      // Only that it connected: not a word of a lost connection.
      expect(lines.filter((line) => line.includes('redis') && !line.includes('maxmemory'))).toEqual([`redis: connected to 127.0.0.1:${redis.port}; caches and rate limits are shared with the other replicas`]);
    } finally {
      await redis.stop();
    }
  });

  it('MUST close promptly while Redis is unreachable (no wait for a reconnection)', async () => {
    const port = await freePort();
    const gateway = await createGateway({ settings: { ...stack.upstreamSettings, redisUrl: `redis://127.0.0.1:${port}` }, log: () => undefined, requestLog: false });
    // Closing must wait on no timer. With timers frozen, a close that waited for a reconnection
    // (the client backs off up to 1 s between attempts) or for a timeout (connecting gives up after
    // 500 ms) never ends, however fast the machine; one that waits only on sockets ends within a
    // few turns of the event loop. Counted in turns, not in time.
    vi.useFakeTimers({ toFake: ['setTimeout', 'setInterval'] });
    let turns = 0;
    let closed = false;
    let closing: Promise<void> | undefined;
    try {
      closing = gateway.close().finally(() => (closed = true));
      while (!closed && turns < CLOSE_TURNS) {
        await new Promise((resolve) => setImmediate(resolve));
        turns += 1;
      }
    } finally {
      vi.useRealTimers();
    }
    expect(closed, `still closing after ${turns} turns of the event loop`).toBe(true);
    await closing;
  });
});
