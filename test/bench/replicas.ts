/**
 * One gateway process against two, both behind one Redis: requests per second on this machine, and
 * the ratio. A standalone measurement (loopback only, a few seconds):
 *
 *   npx tsx test/bench/replicas.ts          (BENCH_SECONDS=2, BENCH_ROUNDS=3, BENCH_CONNECTIONS=16)
 *
 * Processes, each started here and stopped at the end: redis-server, the plain problems service and
 * the translation stand-in (test/bench/), and gateway processes with REDIS_URL (TypeScript through
 * tsx; the compiled `dist/` with BENCH_COMPILED=true after `npm run build`). The load is a warm
 * cross-source page (20 problems with their translations) cycling over more pages than connections,
 * so every request goes through Redis for its rate limit, its problems answer and its translations;
 * the response cache is off, so each request is executed. With two replicas the same connections are split between them, as a balancer would.
 * A third process without REDIS_URL is the control (Redis' own cost). The load generator runs in this
 * process and shares the machine's cores with what it measures.
 */
import { existsSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { startRedis } from '../helpers/redis-server.ts';
import { cpuMicros, startBenchGateway, startTogether, startUpstreams, type Server } from './bench.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SECONDS = Number(process.env.BENCH_SECONDS ?? 2);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);


const PAGE_QUERY = /* GraphQL */ `query ($after: String, $to: String!) { problems(first: 20, after: $after) { nodes { id translation(to: $to) { title } } } }`;
const PAGES = Math.max(40, CONNECTIONS * 3);
const cursor = (offset: number) => (offset === 0 ? null : Buffer.from(`problems:${offset - 1}`).toString('base64'));
const pageBody = (index: number) => JSON.stringify({ query: PAGE_QUERY, variables: { after: cursor(index % PAGES), to: 'es' } });
const HEADERS = { 'content-type': 'application/json', authorization: 'Bearer bench-client' };

function isRight(payload: { data?: any; errors?: unknown[] }): boolean {
  return !payload.errors && payload.data?.problems?.nodes?.length > 0 && payload.data.problems.nodes.every((node: any) => typeof node.translation?.title === 'string');
}


/**
 * `connections` workers for `seconds`, spread round-robin over the gateways; every answer checked.
 * CPU per request is the gateways' own: on a machine busy with other work it stays meaningful when
 * requests per second do not.
 */
async function load(gateways: Server[], seconds: number, connections: number) {
  const urls = gateways.map((gateway) => gateway.url);
  const pools = urls.map((url) => new Pool(new URL(url).origin, { connections: Math.ceil(connections / urls.length), pipelining: 1 }));
  let done = 0;
  let errors = 0;
  let index = 0;
  const deadline = performance.now() + seconds * 1000;
  const worker = async (pool: Pool) => {
    while (performance.now() < deadline) {
      try {
        const response = await pool.request({ method: 'POST', path: '/graphql', headers: HEADERS, body: pageBody(index++) });
        const payload = (await response.body.json()) as { data?: unknown; errors?: unknown[] };
        if (response.statusCode === 200 && isRight(payload)) done += 1;
        else errors += 1;
      } catch {
        errors += 1;
      }
    }
  };
  const pids = gateways.map((gateway) => gateway.child.pid!);
  const cpuBefore = pids.reduce((sum, pid) => sum + cpuMicros(pid), 0);
  const began = performance.now();
  await Promise.all(Array.from({ length: connections }, (_, worker_) => worker(pools[worker_ % pools.length])));
  const elapsed = (performance.now() - began) / 1000;
  await Promise.all(pools.map((pool) => pool.close()));
  const cpuMsPerRequest = (pids.reduce((sum, pid) => sum + cpuMicros(pid), 0) - cpuBefore) / 1000 / Math.max(1, done);
  return { requestsPerSecond: done / elapsed, cpuMsPerRequest, errors };
}

export async function runReplicasBench(log: (line: string) => void = console.log) {
  const redis = await startRedis();
  const servers: Server[] = [];
  try {
    const upstreams = await startUpstreams(servers);
    // The sources by default: a dist/ left from an older build would measure older code.
    const compiled = process.env.BENCH_COMPILED === 'true' && existsSync(`${ROOT}dist/src/cli/start.js`);
    const startGateway = (redisUrl: string | undefined) =>
      startBenchGateway(upstreams, { ...(redisUrl ? { REDIS_URL: redisUrl } : {}), RESPONSE_CACHE_TTL_SECONDS: '0' }, compiled, servers);
    // Started together (each waits mostly on its own start-up); the third is the control: one process
    // keeping everything in its own memory, as without REDIS_URL.
    const [first, second, alone] = await startTogether<[Server, Server, Server]>([startGateway(redis.url), startGateway(redis.url), startGateway(undefined)], servers);
    // Every page once through each process (JIT warm), the three side by side; Redis then holds every
    // answer and translation.
    await Promise.all(
      [first, second, alone].map(async ({ url }) => {
        for (let page = 0; page < PAGES; page++) {
          const response = await fetch(`${url}/graphql`, { method: 'POST', headers: HEADERS, body: pageBody(page) });
          if (!isRight((await response.json()) as { data?: unknown })) throw new Error(`page ${page} was not answered right`);
        }
      }),
    );

    log(`machine: ${availableParallelism()} cores, load average ${loadavg()[0].toFixed(1)}; ${ROUNDS} rounds of ${SECONDS} s per setup, ${CONNECTIONS} connections, warm page of 20 problems with translations, one Redis`);
    // Alternated, so a change in what else the machine runs weighs on both setups alike.
    type Run = Awaited<ReturnType<typeof load>>;
    const rounds: { one: Run; two: Run; inProcess: Run }[] = [];
    const figures = ({ requestsPerSecond, cpuMsPerRequest }: Pick<Run, 'requestsPerSecond' | 'cpuMsPerRequest'>) =>
      `${requestsPerSecond.toFixed(0)} req/s (${cpuMsPerRequest.toFixed(1)} ms CPU a request)`;
    for (let round = 0; round < ROUNDS; round++) {
      const one = await load([first], SECONDS, CONNECTIONS);
      const two = await load([first, second], SECONDS, CONNECTIONS);
      const inProcess = await load([alone], SECONDS, CONNECTIONS);
      rounds.push({ one, two, inProcess });
      log(
        `round ${round + 1}: one process ${figures(one)}, two processes ${figures(two)}, one process without Redis ${figures(inProcess)}; ` +
          `${one.errors + two.errors + inProcess.errors} wrong answers`,
      );
    }
    const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
    const medianOf = (setup: 'one' | 'two' | 'inProcess') => ({
      requestsPerSecond: median(rounds.map((round) => round[setup].requestsPerSecond)),
      cpuMsPerRequest: median(rounds.map((round) => round[setup].cpuMsPerRequest)),
    });
    const [one, two, inProcess] = [medianOf('one'), medianOf('two'), medianOf('inProcess')];
    const ratio = two.requestsPerSecond / one.requestsPerSecond;
    log(
      `median: one process ${figures(one)}, two processes ${figures(two)}, ratio two/one ${ratio.toFixed(2)}; ` +
        `one process without Redis ${figures(inProcess)} (load average now ${loadavg()[0].toFixed(1)})`,
    );
    return { rounds, one, two, inProcess, ratio };
  } finally {
    for (const server of servers) server.child.kill('SIGTERM');
    await redis.stop();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  runReplicasBench().then(
    () => process.exit(0),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
