/**
 * `npm run bench:refused-bodies`: what requests the gateway refuses cost it, against what merely
 * reading them costs a bare node:http server, side by side in one run.
 *
 * Clients without a key, whose requests budget is already spent, send bodies just under
 * MAX_BODY_BYTES from several connections at once, while a keyed client asks again and again for a
 * query the response cache holds. A gateway that checks the head first refuses them (429) without
 * reading or parsing the bodies. The same bodies then go to a bare node:http server that reads them
 * and answers; the two floods alternate, round after round, for each flood size.
 *
 * CPU is each process's on-CPU time summed over its threads (`/proc/<pid>/task/<tid>/schedstat`, in
 * nanoseconds: process-stats.ts), since a flood of 60 lasts a few tens of milliseconds of CPU and `/proc/<pid>/stat`
 * counts in 10 ms ticks. The keyed client's cache hits during a flood are the gateway's work too:
 * the report gives the ratio with them and, the hits' cost measured alone and taken off, without.
 *
 *   BENCH_REFUSED_REQUESTS=60,240 BENCH_REFUSED_CONNECTIONS=4 BENCH_REFUSED_ROUNDS=3 npm run bench:refused-bodies
 */
import { request as httpRequest } from 'node:http';
import { fileURLToPath } from 'node:url';
import { start, startBenchGateway, startUpstreams, type Server } from './bench.ts';
import { preciseCpuMicros } from './process-stats.ts';

const BODY_BYTES = 900_000;

export interface RefusedBodiesFigures {
  requests: number;
  rounds: number;
  /** Gateway CPU per refused request, the keyed client's hits during the flood included (µs). */
  gatewayCpuMicrosPerRequest: number;
  /** The same, the hits' cost (measured alone, per hit) taken off. */
  gatewayCpuMicrosPerRequestWithoutHits: number;
  bareCpuMicrosPerRequest: number;
  /** Gateway over bare, per round and over all rounds, hits included. */
  ratioPerRound: number[];
  ratio: number;
  /** Hits taken off. */
  ratioWithoutHits: number;
  /** Cache hits the keyed client made during the gateway's floods. */
  hitsDuringFloods: number;
  statuses: Record<string, number>;
  /** The keyed client's cached query during the floods (ms). */
  cachedQueryMs: { duringMedian: number; duringMax: number };
}

export interface RefusedBodiesReport {
  connections: number;
  bodyBytes: number;
  /** The keyed client's cached query, asked alone (ms), and its CPU per hit in the gateway (µs). */
  cachedQuery: { aloneMs: number; cpuMicrosPerHit: number };
  byRequests: RefusedBodiesFigures[];
}

/**
 * Resolves once the process has spent under 2% of a core for two seconds running (at most 30 s): a
 * gateway keeps working for a second or more after it says it is listening, which would otherwise
 * land in the first figures.
 */
async function settled(pid: number): Promise<void> {
  let quiet = 0;
  for (let second = 0; second < 30 && quiet < 2; second += 1) {
    const before = preciseCpuMicros(pid);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    quiet = preciseCpuMicros(pid) - before < 20_000 ? quiet + 1 : 0;
  }
}

/**
 * One POST of `body`, resolving with the status once the answer is read in full; a connection that
 * failed is counted, not thrown, as `<status> then <code>` when the answer had come, `<code>` when
 * none had (a refusal the client never saw is a finding).
 */
function post(url: string, body: Buffer, headers: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    let status: number | undefined;
    const request = httpRequest(url, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(body.byteLength), ...headers } }, (response) => {
      status = response.statusCode;
      response.resume();
      response.on('end', () => resolve(String(status)));
    });
    request.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE' && error.code !== 'ECONNRESET') reject(error);
      else resolve(status === undefined ? error.code : `${status} then ${error.code}`);
    });
    request.end(body);
  });
}

async function flood(url: string, requests: number, connections: number, body: Buffer, statuses: Record<string, number>): Promise<void> {
  let sent = 0;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (sent < requests) {
        sent += 1;
        const status = await post(url, body, {});
        statuses[status] = (statuses[status] ?? 0) + 1;
      }
    }),
  );
}

const round1 = (value: number) => Math.round(value * 10) / 10;
const round2 = (value: number) => Math.round(value * 100) / 100;

export async function runRefusedBodiesBench({ counts = [60, 240], connections = 4, rounds = 3 } = {}): Promise<RefusedBodiesReport> {
  const servers: Server[] = [];
  try {
    const upstreams = await startUpstreams(servers);
    // A budget large enough for the keyed client's hits over the whole run, in a window longer than the run.
    const budget = 3000;
    const gateway = await startBenchGateway(
      upstreams,
      { RATE_LIMIT_REQUESTS: String(budget), RATE_LIMIT_WINDOW_SECONDS: '1800', RESPONSE_CACHE_TTL_SECONDS: '1800' },
      false,
      servers,
    );
    const bare = await start('test/bench/bare-server.ts', { BODY: '{"data":{}}' }, /(http:\/\/127\.0\.0\.1:\d+)/);
    servers.push(bare);
    const graphql = `${gateway.url}/graphql`;
    const small = Buffer.from(JSON.stringify({ query: '{ __typename }' }));
    // The keyed client's query, now in the response cache (its budget is its own: it counts per key).
    const cached = Buffer.from(JSON.stringify({ query: 'query Cached { problem(id: "p1001") { id title } }' }));
    const keyed = { authorization: 'Bearer bench-client' };
    const timed = async () => {
      const startedAt = performance.now();
      const status = await post(graphql, cached, keyed);
      if (status !== '200') throw new Error(`the keyed client's cached query was answered ${status}`);
      return performance.now() - startedAt;
    };
    await settled(gateway.child.pid!);
    await timed();
    // What a hit costs alone, so it can be taken off the floods' figures.
    for (let index = 0; index < 50; index += 1) await timed();
    const HITS_ALONE = 300;
    const aloneBefore = preciseCpuMicros(gateway.child.pid!);
    const alone: number[] = [];
    for (let index = 0; index < HITS_ALONE; index += 1) alone.push(await timed());
    const cpuMicrosPerHit = (preciseCpuMicros(gateway.child.pid!) - aloneBefore) / HITS_ALONE;
    alone.sort((a, b) => a - b);
    // The anonymous clients (one address: 127.0.0.1) spend their budget.
    let spent = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (spent <= budget) {
          spent += 1;
          await post(graphql, small, {});
        }
      }),
    );
    const large = Buffer.from(JSON.stringify({ query: '{ __typename }', variables: { pad: 'x'.repeat(BODY_BYTES - 60) } }));
    // Both servers' paths warmed before anything counts.
    await flood(graphql, 8, connections, large, {});
    await flood(`${bare.url}/`, 8, connections, large, {});

    const byRequests: RefusedBodiesFigures[] = [];
    for (const requests of counts) {
      const statuses: Record<string, number> = {};
      const during: number[] = [];
      const ratioPerRound: number[] = [];
      let gatewayCpu = 0;
      let bareCpu = 0;
      for (let round = 0; round < rounds; round += 1) {
        const gatewayBefore = preciseCpuMicros(gateway.child.pid!);
        let flooding = true;
        const probe = (async () => {
          while (flooding) during.push(await timed());
        })();
        await flood(graphql, requests, connections, large, statuses);
        flooding = false;
        await probe;
        const gatewayRound = preciseCpuMicros(gateway.child.pid!) - gatewayBefore;

        const bareBefore = preciseCpuMicros(bare.child.pid!);
        await flood(`${bare.url}/`, requests, connections, large, {});
        const bareRound = preciseCpuMicros(bare.child.pid!) - bareBefore;
        gatewayCpu += gatewayRound;
        bareCpu += bareRound;
        ratioPerRound.push(round2(gatewayRound / Math.max(1, bareRound)));
      }
      during.sort((a, b) => a - b);
      const refused = requests * rounds;
      const withoutHits = gatewayCpu - during.length * cpuMicrosPerHit;
      byRequests.push({
        requests,
        rounds,
        gatewayCpuMicrosPerRequest: Math.round(gatewayCpu / refused),
        gatewayCpuMicrosPerRequestWithoutHits: Math.round(withoutHits / refused),
        bareCpuMicrosPerRequest: Math.round(bareCpu / refused),
        ratioPerRound,
        ratio: round2(gatewayCpu / Math.max(1, bareCpu)),
        ratioWithoutHits: round2(withoutHits / Math.max(1, bareCpu)),
        hitsDuringFloods: during.length,
        statuses,
        cachedQueryMs: { duringMedian: round1(during[Math.floor(during.length / 2)] ?? 0), duringMax: round1(during.at(-1) ?? 0) },
      });
    }
    return {
      connections,
      bodyBytes: large.byteLength,
      cachedQuery: { aloneMs: round1(alone[Math.floor(alone.length / 2)]), cpuMicrosPerHit: Math.round(cpuMicrosPerHit) },
      byRequests,
    };
  } finally {
    for (const server of servers) server.child.kill('SIGTERM');
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const report = await runRefusedBodiesBench({
    counts: (process.env.BENCH_REFUSED_REQUESTS ?? '60,240').split(',').map(Number),
    connections: Number(process.env.BENCH_REFUSED_CONNECTIONS ?? 4),
    rounds: Number(process.env.BENCH_REFUSED_ROUNDS ?? 3),
  });
  console.log(JSON.stringify(report, null, 2));
}
