/**
 * `npm run bench:refused-bodies`: what requests the gateway refuses cost it, against what merely
 * reading them costs a bare node:http server, side by side in one run.
 *
 * Clients without a key, whose requests budget is already spent, send bodies just under
 * MAX_BODY_BYTES from several connections at once, while a keyed client asks again for a query the
 * response cache holds. A gateway that checks the head first refuses them (401) without reading or
 * parsing the bodies; the figure is its CPU per refused request over the bare server's CPU per request
 * read. The keyed client's latency during the flood is reported beside it.
 *
 *   BENCH_REFUSED_REQUESTS=60 BENCH_REFUSED_CONNECTIONS=4 npm run bench:refused-bodies
 */
import { request as httpRequest } from 'node:http';
import { fileURLToPath } from 'node:url';
import { cpuMicros, start, startBenchGateway, startUpstreams, type Server } from './bench.ts';

const BODY_BYTES = 900_000;

export interface RefusedBodiesReport {
  requests: number;
  connections: number;
  bodyBytes: number;
  gatewayCpuMicrosPerRequest: number;
  bareCpuMicrosPerRequest: number;
  ratio: number;
  statuses: Record<string, number>;
  /** The keyed client's cached query, asked once before and repeatedly during the flood (ms). */
  cachedQueryMs: { before: number; duringMedian: number; duringMax: number };
}

/** One POST of `body`, resolving with the status once the answer is read (or the connection ends). */
function post(url: string, body: Buffer, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(body.byteLength), ...headers } }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    // A server that answers before reading may close while the body is still going out.
    request.on('error', (error: NodeJS.ErrnoException) => (error.code === 'EPIPE' || error.code === 'ECONNRESET' ? resolve(-1) : reject(error)));
    request.end(body);
  });
}

async function flood(url: string, requests: number, connections: number, body: Buffer, headers: Record<string, string>): Promise<Record<string, number>> {
  const statuses: Record<string, number> = {};
  let sent = 0;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (sent < requests) {
        sent += 1;
        const status = await post(url, body, headers);
        statuses[status] = (statuses[status] ?? 0) + 1;
      }
    }),
  );
  return statuses;
}

export async function runRefusedBodiesBench({ requests = 60, connections = 4 } = {}): Promise<RefusedBodiesReport> {
  const servers: Server[] = [];
  try {
    const upstreams = await startUpstreams(servers);
    const gateway = await startBenchGateway(upstreams, { RATE_LIMIT_REQUESTS: '20', RESPONSE_CACHE_TTL_SECONDS: '300' }, false, servers);
    const bare = await start('test/bench/bare-server.ts', { BODY: '{"data":{}}' }, /(http:\/\/127\.0\.0\.1:\d+)/);
    servers.push(bare);
    const graphql = `${gateway.url}/graphql`;
    const small = Buffer.from(JSON.stringify({ query: '{ __typename }' }));
    // The keyed client's query, now in the response cache.
    const cached = Buffer.from(JSON.stringify({ query: 'query Cached { problem(id: "p1001") { id title } }' }));
    const keyed = { authorization: 'Bearer bench-client' };
    await post(graphql, cached, keyed);
    const timed = async () => {
      const startedAt = performance.now();
      await post(graphql, cached, keyed);
      return performance.now() - startedAt;
    };
    const before = await timed();
    // The anonymous clients (one address: 127.0.0.1) spend their budget.
    for (let index = 0; index < 25; index += 1) await post(graphql, small, {});
    const large = Buffer.from(JSON.stringify({ query: '{ __typename }', variables: { pad: 'x'.repeat(BODY_BYTES - 60) } }));

    const gatewayCpuBefore = cpuMicros(gateway.child.pid!);
    const during: number[] = [];
    let flooding = true;
    const probe = (async () => {
      while (flooding) during.push(await timed());
    })();
    const statuses = await flood(graphql, requests, connections, large, {});
    flooding = false;
    await probe;
    // The probe's own requests are cache hits; their CPU is counted against the gateway too.
    const gatewayCpu = cpuMicros(gateway.child.pid!) - gatewayCpuBefore;

    const bareCpuBefore = cpuMicros(bare.child.pid!);
    await flood(`${bare.url}/`, requests, connections, large, {});
    const bareCpu = cpuMicros(bare.child.pid!) - bareCpuBefore;

    during.sort((a, b) => a - b);
    const round = (value: number) => Math.round(value * 10) / 10;
    return {
      requests,
      connections,
      bodyBytes: large.byteLength,
      gatewayCpuMicrosPerRequest: Math.round(gatewayCpu / requests),
      bareCpuMicrosPerRequest: Math.round(bareCpu / requests),
      ratio: Math.round((gatewayCpu / Math.max(1, bareCpu)) * 100) / 100,
      statuses,
      cachedQueryMs: { before: round(before), duringMedian: round(during[Math.floor(during.length / 2)] ?? 0), duringMax: round(during.at(-1) ?? 0) },
    };
  } finally {
    for (const server of servers) server.child.kill('SIGTERM');
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const report = await runRefusedBodiesBench({
    requests: Number(process.env.BENCH_REFUSED_REQUESTS ?? 60),
    connections: Number(process.env.BENCH_REFUSED_CONNECTIONS ?? 4),
  });
  console.log(JSON.stringify(report, null, 2));
}
