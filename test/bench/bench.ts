/**
 * `npm run bench`: what the gateway costs, measured side by side with what bounds it, on loopback, as
 * ratios (timings on a shared machine are noisy; ratios within one run, slice by slice, less so).
 *
 * Processes, each started here and stopped at the end: a plain graphql-js problems service (the
 * stand-in's schema and data on node:http, no framework), the translation stand-in, two gateways
 * (compiled into dist/ first, as production runs it; through tsx with BENCH_RUNTIME=sources): one
 * with its answer caches off for the pass-through and the page, one on its defaults for the cache
 * hit; a minimal Node proxy (minimal-proxy.ts: the floor under the pass-through and the page) and a
 * bare node:http server answering the same bytes every time (the ceiling for a cache hit).
 *
 * How it measures (docs/performance.md, "Method"):
 * - every process is warmed first, BENCH_WARM_REQUESTS requests each (a fresh Node process settles
 *   only after tens of thousands), all at once, each with the mix it will serve;
 * - scenarios alternate in slices of BENCH_SECONDS, BENCH_ROUNDS times, the gateway's each beside
 *   what bounds it, so whatever else the machine does weighs on both alike;
 * - CPU is every thread's on-CPU time (`/proc/<pid>/task/<tid>/schedstat`: V8's compiler and
 *   collector threads included), bytes allocated per request come from V8's own counters read in
 *   each process (allocation-probe.mjs), and the one-minute load average is read at every slice;
 * - with BENCH_BUSY_PROCESSES=N, the same rounds run again with N busy processes started here, and
 *   the report gives each ratio quiet, loaded, and loaded over quiet.
 *
 *   BENCH_SECONDS=2 BENCH_ROUNDS=6 BENCH_CONNECTIONS=16 BENCH_WARM_REQUESTS=40000 BENCH_BUSY_PROCESSES=2 npm run bench
 *
 * The gateway's RSS is read after it has sat idle (BENCH_IDLE_SECONDS), sampled through a sustained
 * load (BENCH_SUSTAIN_SECONDS), and read again once idle. Then the refused-bodies bench
 * (refused-bodies.ts; BENCH_REFUSED=false skips it) and the replicas scenario (BENCH_REPLICAS=false
 * skips it). BENCH_REPORT_PATH moves the JSON report.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { availableParallelism, platform } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { ALLOCATION_PROBE, allocatedBytes, loadAverage, outputLines, preciseCpuMicros, rssMiB, type OutputLines } from './process-stats.ts';
// Imported here, not on demand: once the main scenarios have stopped every process they started,
// nothing keeps the event loop alive while tsx loads a module in its own thread, and Node ended the
// run (exit 13, an unsettled top-level await) before the replicas scenario began. The two modules
// import each other; neither uses the other's exports until it runs.
import { runReplicasBench } from './replicas.ts';
import { runRefusedBodiesBench, type RefusedBodiesReport } from './refused-bodies.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CLOCK_TICKS_PER_SECOND = 100;

export interface BenchOptions {
  /** Length of one slice of a scenario. @default 2 */
  seconds?: number;
  connections?: number;
  /** Slices of each scenario, in turn with the others. @default 6 */
  rounds?: number;
  /** Requests each process serves before anything is measured. @default 40000 */
  warmRequests?: number;
  /** Busy processes started for a second, loaded, pass of the same rounds; 0 measures quiet only. @default 0 */
  busyProcesses?: number;
  /**
   * Run the gateway from `dist/` (built first, as production runs it) or from the TypeScript sources
   * through tsx. @default 'compiled'
   */
  runtime?: 'compiled' | 'sources';
  /**
   * How long the gateway sits idle after start before its idle RSS is read: V8 gives back the
   * memory of start-up (schema building) within 28 s of start (src/cli/release-start-up-memory.ts). @default 30
   */
  idleSeconds?: number;
  /** The sustained load, pass-through and warm page mixed, over which RSS is sampled for growth. @default 60 */
  sustainSeconds?: number;
  /** Run the refused-bodies bench after the scenarios (refused-bodies.ts). @default true */
  refusedBodies?: { counts: number[]; connections: number; rounds: number } | false;
  /** Where the JSON report goes. @default test-artifacts/bench.json */
  reportPath?: string | false;
  log?: (line: string) => void;
}

export interface ScenarioResult {
  name: string;
  requests: number;
  errors: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** On-CPU time of every thread of the process serving the scenario, per request, in microseconds. */
  cpuMicrosPerRequest: number;
  /** Bytes the serving process allocated on V8's heap per request (allocation-probe.mjs). */
  allocatedBytesPerRequest: number;
  /** The machine's one-minute load average, the mean of its readings at each slice of this scenario. */
  loadAverage: number;
  /** Upstream HTTP calls per request (gateway scenarios), from the gateway's own counters. */
  upstreamCallsPerRequest?: { problems: number; translation: number };
}

/** The issue's three targets, each the gateway's figure over what bounds it in the same slices. */
export interface TargetRatios {
  /** Gateway pass-through CPU per request over the minimal proxy's (target ≤ 1.5). */
  passThroughCpuVsProxy: number;
  /** Gateway warm page CPU per request over the minimal proxy's page (target ≤ 1.5). */
  warmPageCpuVsProxyPage: number;
  /** Gateway cache hits' req/s over the bare server's (target ≥ 0.6). */
  cacheHitReqPerSecVsBare: number;
  /** Gateway pass-through CPU per request over the upstream's, for the record. */
  passThroughCpuVsUpstream: number;
}

/** One pass of the scenarios' rounds: quiet, or with busy processes beside. */
export interface BenchPass {
  busyProcesses: number;
  loadAverage: number;
  results: ScenarioResult[];
  ratios: TargetRatios;
}

export interface BenchReport {
  date: string;
  machine: string;
  node: string;
  seconds: number;
  connections: number;
  rounds: number;
  warmRequests: number;
  gatewayRuntime: 'compiled' | 'tsx';
  quiet: BenchPass;
  /**
   * A user's traffic as it comes: every connection asking a pass-through and a warm page in turn, the
   * gateway's beside the proxy's, in slices after the quiet pass (its three target figures untouched).
   */
  steadyMix: SteadyMix;
  /** The same rounds with busy processes beside (BENCH_BUSY_PROCESSES), and each ratio loaded over quiet. */
  loaded?: BenchPass & { overQuiet: TargetRatios };
  /** One connection, sequential requests: the gateway's added latency over the direct call. */
  addedLatencyP50Ms: number;
  /** Cold page of 20 with translation: translation calls it caused. */
  coldPageTranslationCalls: number;
  memory: MemoryReport;
  refusedBodies?: RefusedBodiesReport & { loadAverage: number };
}

/** The pass-through and the warm page asked in turn on every connection, beside the same requests asked slice by slice. */
export interface SteadyMix {
  gateway: ScenarioResult;
  proxy: ScenarioResult;
  /** The gateway's CPU per request over the proxy's, mixed. */
  cpuVsProxy: number;
  /** The same over the mean of the quiet pass's pass-through and warm page (each side's): what mixing itself costs. */
  slicedCpuVsProxy: number;
}

/** The gateway's resident memory (MiB), from `/proc/<pid>/status`. */
export interface MemoryReport {
  /** Right after it said it was listening. */
  startedRssMiB: number;
  /** After `idleSeconds` without a request. */
  idleRssMiB: number;
  /** The sustained load: its length, RSS sampled every second, and the mean of its first and last quarters. */
  sustained: { seconds: number; samplesMiB: number[]; firstQuarterMiB: number; lastQuarterMiB: number; peakMiB: number };
  /** After the scenarios and the sustained load, once idle again for `idleSeconds`. */
  afterLoadIdleRssMiB: number;
}

export interface Server {
  child: ChildProcess;
  url: string;
  /** Its output, for the allocation probe's answers. */
  lines?: OutputLines;
}

interface Scenario {
  name: string;
  url: string;
  /** The process whose CPU and allocations count for this scenario. */
  server: Server;
  headers: Record<string, string>;
  body: (index: number) => string;
  /** Checks an answer is right, not only fast. */
  check: (payload: { data?: any; errors?: unknown[] }) => boolean;
  /** The gateway whose upstream call counters are read around it (its base URL). */
  gateway?: string;
}

/** Whether this Node runs TypeScript itself (type stripping), as `npm start` runs the sources. */
const STRIPS_TYPES = Boolean((process.features as { typescript?: unknown }).typescript);

/**
 * Starts a project entry as its own process; resolves once its output matches `ready` (group 1: its
 * URL). Every process loads the allocation probe first (allocation-probe.mjs), so each bears its
 * small cost alike and any can be asked what it has allocated. A TypeScript entry runs on Node's own
 * type stripping, as `npm start` runs the sources (under tsx on a Node without it).
 */
export function start(entry: string, env: Record<string, string>, ready: RegExp, typeScript = true): Promise<Server> {
  const args = ['--import', ALLOCATION_PROBE, ...(typeScript && !STRIPS_TYPES ? ['--import', 'tsx'] : []), entry];
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines = outputLines();
  return new Promise((resolve, reject) => {
    let output: string | null = '';
    const onData = (chunk: Buffer) => {
      // Keep draining after start-up (the gateway logs a line per request); only the probe's lines are read.
      if (output === null) return lines.push(chunk.toString());
      output += chunk.toString();
      const match = output.match(ready);
      if (match) {
        output = null;
        resolve({ child, url: match[1], lines });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${entry} exited (${code}) before it was ready: ${output}`)));
  });
}

/** User + system CPU time of a process so far, in microseconds. */
export function cpuMicros(pid: number): number {
  // Fields after the command name (which may hold spaces) start at state; utime and stime are 14 and 15.
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / CLOCK_TICKS_PER_SECOND;
}

/**
 * Processes started together (each mostly waits on its own start-up, and the cores are shared): every
 * one that starts is in `servers` before this returns, so that whoever stops `servers` stops it, even
 * when another failed to start.
 */
export async function startTogether<T extends Server[]>(starts: { [K in keyof T]: Promise<T[K]> }, servers: Server[]): Promise<T> {
  const settled = await Promise.allSettled(starts);
  for (const outcome of settled) if (outcome.status === 'fulfilled' && !servers.some((server) => server.child === outcome.value.child)) servers.push(outcome.value);
  const failed = settled.find((outcome) => outcome.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((outcome) => (outcome as PromiseFulfilledResult<Server>).value) as T;
}

/** The two upstreams every bench runs against: the plain graphql-js problems service and the translation stand-in. */
export async function startUpstreams(servers: Server[]): Promise<{ problems: Server; translation: Server }> {
  const [problems, translation] = await startTogether<[Server, Server]>(
    [
      start('test/bench/plain-problems-service.ts', { PORT: '0', PROBLEMS_API_KEY: 'bench-problems' }, /(http:\/\/127\.0\.0\.1:\d+)/),
      start('src/upstreams/translation/main.ts', { PORT: '0', TRANSLATION_API_KEY: 'bench-translation' }, /(http:\/\/127\.0\.0\.1:\d+)/),
    ],
    servers,
  );
  return { problems, translation };
}

/** The environment of a bench gateway over `upstreams` (see startBenchGateway); `env` adds or overrides variables. */
export function benchGatewayEnv(upstreams: { problems: Server; translation: Server }, env: Record<string, string> = {}): Record<string, string> {
  return {
    PORT: '0',
    NODE_ENV: 'production',
    PROBLEMS_URL: upstreams.problems.url,
    PROBLEMS_API_KEY: 'bench-problems',
    TRANSLATION_URL: upstreams.translation.url,
    TRANSLATION_API_KEY: 'bench-translation',
    GATEWAY_API_KEYS: 'bench-client',
    RATE_LIMIT_REQUESTS: '1000000000',
    TRANSLATION_RATE_LIMIT_REQUESTS: '1000000000',
    ...env,
  };
}

/**
 * A gateway process over `upstreams`, as a deployment runs it (`NODE_ENV=production` set before
 * start, so graphql-js loads in production mode), with the bench's client key and rate limits out of
 * the way; `env` adds or overrides variables. Its `url` is the base, on 127.0.0.1.
 */
export async function startBenchGateway(
  upstreams: { problems: Server; translation: Server },
  env: Record<string, string>,
  compiled: boolean,
  servers: Server[],
): Promise<Server> {
  const gateway = await start(compiled ? 'dist/src/cli/start.js' : 'src/cli/start.ts', benchGatewayEnv(upstreams, env), /listening: (http:\/\/localhost:\d+)\/graphql/, !compiled);
  servers.push(gateway);
  return { ...gateway, url: gateway.url.replace('localhost', '127.0.0.1') };
}

async function upstreamCalls(gatewayBase: string): Promise<{ problems: number; translation: number }> {
  const text = await (await fetch(`${gatewayBase}/metrics`)).text();
  const sum = (service: string) =>
    [...text.matchAll(new RegExp(`^gateway_upstream_requests_total\\{service="${service}",[^}]*\\} (\\d+)`, 'gm'))].reduce((total, match) => total + Number(match[1]), 0);
  return { problems: sum('problems'), translation: sum('translation') };
}

/** `connections` clients asking the scenario, for `seconds` or until `requests` are answered. */
async function load(scenario: Scenario, seconds: number, connections: number, requests = Number.POSITIVE_INFINITY) {
  const origin = new URL(scenario.url);
  const pool = new Pool(origin.origin, { connections, pipelining: 1 });
  const latencies: number[] = [];
  let errors = 0;
  let index = 0;
  const deadline = performance.now() + seconds * 1000;
  const worker = async () => {
    while (performance.now() < deadline && index < requests) {
      const started = performance.now();
      try {
        const response = await pool.request({
          method: 'POST',
          path: origin.pathname,
          headers: { 'content-type': 'application/json', ...scenario.headers },
          body: scenario.body(index++),
        });
        const payload = (await response.body.json()) as { data?: unknown; errors?: unknown[] };
        if (response.statusCode !== 200 || !scenario.check(payload)) errors += 1;
      } catch {
        errors += 1;
      }
      latencies.push(performance.now() - started);
    }
  };
  const { pid } = scenario.server.child;
  const allocatedBefore = await allocatedBytes(pid!, scenario.server.lines!);
  const cpuBefore = preciseCpuMicros(pid!);
  const loadAtStart = loadAverage();
  const began = performance.now();
  await Promise.all(Array.from({ length: connections }, worker));
  const elapsed = (performance.now() - began) / 1000;
  const cpu = preciseCpuMicros(pid!) - cpuBefore;
  const allocated = (await allocatedBytes(pid!, scenario.server.lines!)) - allocatedBefore;
  await pool.close();
  return { latencies, errors, elapsed, cpu, allocated, loadAtStart };
}

function mean(values: number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}

/** Starts `count` processes that only spin, for the loaded pass; stopped by whoever kept `servers`. */
function startBusyProcesses(count: number, servers: Server[]): void {
  for (let index = 0; index < count; index += 1) {
    const child = spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
    servers.push({ child, url: '' });
  }
}

/** Runs the scenarios in turn, one slice each, `rounds` times; each scenario's figures over all its slices. */
async function runPass(scenarios: Scenario[], { seconds, connections, rounds, busyProcesses }: { seconds: number; connections: number; rounds: number; busyProcesses: number }): Promise<BenchPass> {
  const results = await runSlices(scenarios, { seconds, connections, rounds });
  const [direct, passThrough, proxyPassThrough, warm, proxyWarm, hit, bare] = results;
  return {
    busyProcesses,
    loadAverage: mean(results.map((result) => result.loadAverage)),
    results,
    ratios: {
      passThroughCpuVsProxy: passThrough.cpuMicrosPerRequest / proxyPassThrough.cpuMicrosPerRequest,
      warmPageCpuVsProxyPage: warm.cpuMicrosPerRequest / proxyWarm.cpuMicrosPerRequest,
      cacheHitReqPerSecVsBare: hit.requestsPerSecond / bare.requestsPerSecond,
      passThroughCpuVsUpstream: passThrough.cpuMicrosPerRequest / direct.cpuMicrosPerRequest,
    },
  };
}

/** The scenarios' slices in turn, `rounds` times: each scenario's figures over all its slices. */
async function runSlices(scenarios: Scenario[], { seconds, connections, rounds }: { seconds: number; connections: number; rounds: number }): Promise<ScenarioResult[]> {
  const totals = scenarios.map(() => ({ latencies: [] as number[], errors: 0, elapsed: 0, cpu: 0, allocated: 0, loads: [] as number[], calls: { problems: 0, translation: 0 } }));
  for (let round = 0; round < rounds; round += 1) {
    for (const [index, scenario] of scenarios.entries()) {
      const before = scenario.gateway ? await upstreamCalls(scenario.gateway) : undefined;
      const run = await load(scenario, seconds, connections);
      const total = totals[index];
      // One by one: a spread of a fast scenario's hundreds of thousands of latencies overflows the stack.
      for (const latency of run.latencies) total.latencies.push(latency);
      total.errors += run.errors;
      total.elapsed += run.elapsed;
      total.cpu += run.cpu;
      total.allocated += run.allocated;
      total.loads.push(run.loadAtStart);
      if (before) {
        const after = await upstreamCalls(scenario.gateway!);
        total.calls.problems += after.problems - before.problems;
        total.calls.translation += after.translation - before.translation;
      }
    }
  }
  const results: ScenarioResult[] = scenarios.map((scenario, index) => {
    const { latencies, errors, elapsed, cpu, allocated, loads, calls } = totals[index];
    latencies.sort((a, b) => a - b);
    const requests = latencies.length;
    return {
      name: scenario.name,
      requests,
      errors,
      requestsPerSecond: requests / elapsed,
      p50Ms: quantile(latencies, 0.5),
      p99Ms: quantile(latencies, 0.99),
      cpuMicrosPerRequest: cpu / Math.max(1, requests),
      allocatedBytesPerRequest: allocated / Math.max(1, requests),
      loadAverage: mean(loads),
      ...(scenario.gateway ? { upstreamCallsPerRequest: { problems: calls.problems / requests, translation: calls.translation / requests } } : {}),
    };
  });
  return results;
}

/** The scenario names, in the order every pass runs them: each of the gateway's beside what bounds it. */
export const SCENARIO_NAMES = [
  'upstream direct: problem(id)',
  'gateway pass-through: problem(id)',
  'minimal proxy pass-through: problem(id)',
  'gateway warm page: 20 with translation',
  'minimal proxy warm page: 20 with translation',
  'gateway cache hit: a repeated query',
  'bare node:http, same bytes',
] as const;

export async function runBench({
  seconds = 2,
  connections = 16,
  rounds = 6,
  warmRequests = 40_000,
  busyProcesses = 0,
  idleSeconds = 30,
  sustainSeconds = 60,
  refusedBodies = { counts: [60, 240], connections: 4, rounds: 3 },
  runtime = 'compiled',
  reportPath = `${ROOT}test-artifacts/bench.json`,
  log = console.log,
}: BenchOptions = {}): Promise<BenchReport> {
  const servers: Server[] = [];
  try {
    const upstreams = await startUpstreams(servers);
    const { problems } = upstreams;
    const compiled = runtime === 'compiled';
    if (compiled) {
      // Built now, so the measured code is the checked-out code, never a stale dist/.
      execFileSync(process.execPath, [`${ROOT}node_modules/typescript/bin/tsc`, '-p', 'tsconfig.build.json'], { cwd: ROOT, stdio: 'inherit' });
    }
    // Distinct ids and pages cycle through the dataset: this gateway keeps its answer caches out of
    // the way, so pass-through and page measure the path itself.
    let startedAt = 0;
    let startedRssMiB = 0;
    const [gatewayEntry, defaultsGateway] = await startTogether<[Server, Server]>(
      [
        startBenchGateway(upstreams, { PROBLEMS_CACHE_TTL_SECONDS: '0', RESPONSE_CACHE_TTL_SECONDS: '0' }, compiled, servers).then((gateway) => {
          startedAt = performance.now();
          startedRssMiB = rssMiB(gateway.child.pid!);
          return gateway;
        }),
        // The cache hits go to a gateway on its defaults, response cache included.
        startBenchGateway(upstreams, {}, compiled, servers),
      ],
      servers,
    );
    const gatewayPid = gatewayEntry.child.pid!;
    const gatewayBase = gatewayEntry.url;
    const gatewayUrl = `${gatewayBase}/graphql`;
    // Nothing has asked this gateway anything yet: it has been idle since it started.
    await sleep(idleSeconds * 1000 - (performance.now() - startedAt));
    const idleRssMiB = rssMiB(gatewayPid);
    const client = { authorization: 'Bearer bench-client' };

    const problemQuery = /* GraphQL */ `query ($id: ID!) { problem(id: $id) { id title } }`;
    const byId = (index: number) => JSON.stringify({ query: problemQuery, variables: { id: `p${1001 + (index % 165)}` } });
    const pageQuery = /* GraphQL */ `query ($after: String, $to: String!) { problems(first: 20, after: $after) { nodes { id translation(to: $to) { title statement } } } }`;
    const cursor = (offset: number) => (offset === 0 ? null : Buffer.from(`problems:${offset - 1}`).toString('base64'));
    // More distinct pages than connections, so no two identical requests are in flight together.
    const PAGES = Math.max(40, connections * 3);
    const page = (to: string) => (index: number) => JSON.stringify({ query: pageQuery, variables: { after: cursor(index % PAGES), to } });
    const repeated = JSON.stringify({ query: /* GraphQL */ `{ problems(first: 10) { nodes { id title difficulty } } }` });
    const translated = (payload: { data?: any; errors?: unknown[] }) =>
      !payload.errors && payload.data?.problems?.nodes?.length === 20 && payload.data.problems.nodes.every((node: any) => typeof node.translation?.statement === 'string');

    // The gateway asks the service for its language list once an hour (to map language tags); that
    // call is made first, so the cold page below counts the translation calls of the page itself.
    await (await fetch(gatewayUrl, { method: 'POST', headers: { 'content-type': 'application/json', ...client }, body: JSON.stringify({ query: '{ translation { languages { code } } }' }) })).text();
    // A cold page: nothing cached for German yet, so its 20 titles and statements cost exactly one call.
    const beforeCold = await upstreamCalls(gatewayBase);
    const cold = await (await fetch(gatewayUrl, { method: 'POST', headers: { 'content-type': 'application/json', ...client }, body: page('de')(0) })).json();
    if (!translated(cold)) throw new Error(`the cold page was not answered right: ${JSON.stringify(cold).slice(0, 300)}`);
    const coldPageTranslationCalls = (await upstreamCalls(gatewayBase)).translation - beforeCold.translation;

    const repeatedAnswer = await (await fetch(gatewayUrl, { method: 'POST', headers: { 'content-type': 'application/json', ...client }, body: repeated })).text();
    const [bare, proxy] = await startTogether<[Server, Server]>(
      [
        start('test/bench/bare-server.ts', { BODY: repeatedAnswer }, /(http:\/\/127\.0\.0\.1:\d+)/),
        start(
          'test/bench/minimal-proxy.ts',
          { PROBLEMS_URL: problems.url, PROBLEMS_API_KEY: 'bench-problems', TRANSLATION_URL: upstreams.translation.url, TRANSLATION_API_KEY: 'bench-translation' },
          /(http:\/\/127\.0\.0\.1:\d+)/,
        ),
      ],
      servers,
    );

    const isProblem = (payload: { data?: any; errors?: unknown[] }) => !payload.errors && typeof payload.data?.problem?.title === 'string';
    const [directName, passName, proxyPassName, pageName, proxyPageName, hitName, bareName] = SCENARIO_NAMES;
    const scenarios: Scenario[] = [
      { name: directName, url: `${problems.url}/graphql`, server: problems, headers: { authorization: 'Bearer bench-problems' }, body: byId, check: isProblem },
      { name: passName, url: gatewayUrl, server: gatewayEntry, headers: client, body: byId, check: isProblem, gateway: gatewayBase },
      { name: proxyPassName, url: `${proxy.url}/graphql`, server: proxy, headers: {}, body: byId, check: isProblem },
      { name: pageName, url: gatewayUrl, server: gatewayEntry, headers: client, body: page('es'), check: translated, gateway: gatewayBase },
      { name: proxyPageName, url: `${proxy.url}/graphql`, server: proxy, headers: {}, body: page('es'), check: translated },
      {
        name: hitName,
        url: `${defaultsGateway.url}/graphql`,
        server: defaultsGateway,
        headers: client,
        body: () => repeated,
        check: (payload) => !payload.errors && payload.data?.problems?.nodes?.length === 10,
        gateway: defaultsGateway.url,
      },
      { name: bareName, url: `${bare.url}/`, server: bare, headers: {}, body: () => repeated, check: (payload) => payload.data !== undefined },
    ];

    // Warm-up: every Spanish page's translations first (in the gateway and in the minimal proxy, each
    // page after the other, the two side by side), then every process serves `warmRequests` of the mix
    // it will serve, all processes at once.
    await Promise.all(
      [gatewayUrl, `${proxy.url}/graphql`].map(async (url) => {
        for (let index = 0; index < PAGES; index += 1) {
          await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...client }, body: page('es')(index) }).then((response) => response.text());
        }
      }),
    );
    const mixOf = (first: Scenario, second: Scenario): Scenario => ({
      ...first,
      body: (index) => (index % 2 === 0 ? first.body(index >> 1) : second.body(index >> 1)),
      check: (payload) => first.check(payload) || second.check(payload),
    });
    const [direct, passThrough, proxyPassThrough, warmPage, proxyPage, hit, ceiling] = scenarios;
    log(`warming every process: ${warmRequests} requests each`);
    const warmed = await Promise.all(
      [direct, mixOf(passThrough, warmPage), mixOf(proxyPassThrough, proxyPage), hit, ceiling].map((scenario) => load(scenario, Number.POSITIVE_INFINITY, connections, warmRequests)),
    );
    const warmErrors = warmed.reduce((sum, run) => sum + run.errors, 0);
    if (warmErrors > 0) throw new Error(`the warm-up had ${warmErrors} wrong answer(s)`);

    log(`quiet pass: ${rounds} round(s) of ${scenarios.length} slices of ${seconds} s`);
    const quiet = await runPass(scenarios, { seconds, connections, rounds, busyProcesses: 0 });
    // The steady mix after the quiet pass, in slices of its own: the alternation the targets are
    // measured in stays as it was.
    log(`steady mix: ${rounds} round(s) of 2 slices of ${seconds} s`);
    const [gatewayMix, proxyMix] = await runSlices(
      [
        { ...mixOf(passThrough, warmPage), name: 'gateway steady mix: pass-through and warm page in turn' },
        { ...mixOf(proxyPassThrough, proxyPage), name: 'minimal proxy steady mix: the same requests' },
      ],
      { seconds, connections, rounds },
    );
    const ratioOf = (gateway: ScenarioResult, proxy: ScenarioResult) => gateway.cpuMicrosPerRequest / proxy.cpuMicrosPerRequest;
    const steadyMix: SteadyMix = {
      gateway: gatewayMix,
      proxy: proxyMix,
      cpuVsProxy: ratioOf(gatewayMix, proxyMix),
      slicedCpuVsProxy:
        (quiet.results[1].cpuMicrosPerRequest + quiet.results[3].cpuMicrosPerRequest) / (quiet.results[2].cpuMicrosPerRequest + quiet.results[4].cpuMicrosPerRequest),
    };
    let loaded: BenchReport['loaded'];
    if (busyProcesses > 0) {
      const busy: Server[] = [];
      log(`loaded pass: the same rounds beside ${busyProcesses} busy process(es)`);
      startBusyProcesses(busyProcesses, busy);
      try {
        const pass = await runPass(scenarios, { seconds, connections, rounds, busyProcesses });
        const over = (key: keyof TargetRatios) => pass.ratios[key] / quiet.ratios[key];
        loaded = {
          ...pass,
          overQuiet: {
            passThroughCpuVsProxy: over('passThroughCpuVsProxy'),
            warmPageCpuVsProxyPage: over('warmPageCpuVsProxyPage'),
            cacheHitReqPerSecVsBare: over('cacheHitReqPerSecVsBare'),
            passThroughCpuVsUpstream: over('passThroughCpuVsUpstream'),
          },
        };
      } finally {
        for (const { child } of busy) child.kill('SIGKILL');
      }
    }

    // Added latency: one connection, the same distinct requests, direct and through the gateway.
    const p50 = async (scenario: Scenario) => {
      const run = await load(scenario, Math.min(2, seconds), 1);
      return quantile(run.latencies.sort((a, b) => a - b), 0.5);
    };
    const directP50 = await p50(direct);
    const gatewayP50 = await p50(passThrough);

    // Memory under a sustained load: pass-through and warm pages in turn, RSS read every second. A
    // gateway that keeps what it should not grows from the first quarter to the last.
    log(`memory: ${sustainSeconds} s of sustained load, then ${idleSeconds} s idle`);
    const mixed = { ...mixOf(passThrough, warmPage), name: 'sustained: pass-through and warm page in turn' };
    const samplesMiB: number[] = [];
    const sampler = setInterval(() => samplesMiB.push(rssMiB(gatewayPid)), 1000);
    const sustainedRun = await load(mixed, sustainSeconds, connections).finally(() => clearInterval(sampler));
    if (sustainedRun.errors > 0) throw new Error(`the sustained load had ${sustainedRun.errors} wrong answer(s)`);
    if (samplesMiB.length === 0) samplesMiB.push(rssMiB(gatewayPid));
    await sleep(idleSeconds * 1000);
    const afterLoadIdleRssMiB = rssMiB(gatewayPid);
    // Its own processes, so stopped before the refused bodies start theirs.
    for (const { child } of servers.splice(0).reverse()) child.kill('SIGTERM');

    let refused: BenchReport['refusedBodies'];
    if (refusedBodies) {
      const loadAtStart = loadAverage();
      const report = await runRefusedBodiesBench(refusedBodies);
      refused = { ...report, loadAverage: (loadAtStart + loadAverage()) / 2 };
    }

    const report: BenchReport = {
      date: new Date().toISOString().slice(0, 10),
      machine: `${availableParallelism()}-core ${platform()}`,
      node: process.version,
      seconds,
      connections,
      rounds,
      warmRequests,
      gatewayRuntime: compiled ? 'compiled' : 'tsx',
      quiet,
      steadyMix,
      ...(loaded ? { loaded } : {}),
      addedLatencyP50Ms: gatewayP50 - directP50,
      coldPageTranslationCalls,
      memory: {
        startedRssMiB,
        idleRssMiB,
        sustained: {
          seconds: sustainSeconds,
          samplesMiB,
          firstQuarterMiB: mean(samplesMiB.slice(0, Math.ceil(samplesMiB.length / 4))),
          lastQuarterMiB: mean(samplesMiB.slice(-Math.ceil(samplesMiB.length / 4))),
          peakMiB: Math.max(...samplesMiB),
        },
        afterLoadIdleRssMiB,
      },
      ...(refused ? { refusedBodies: refused } : {}),
    };
    for (const line of formatReport(report)) log(line);
    if (reportPath) {
      await mkdir(new URL('.', `file://${reportPath}`), { recursive: true });
      await writeFile(reportPath, JSON.stringify(report, null, 2));
    }
    return report;
  } finally {
    for (const { child } of servers.reverse()) child.kill('SIGTERM');
  }
}

export const RESULTS_START = '<!-- bench results: written by npm run bench (test/bench/bench.ts) -->';
export const RESULTS_END = '<!-- end of bench results -->';

/** docs/performance.md with its latest results (between the markers) replaced by this report's. */
export function withLatestResults(markdown: string, report: BenchReport): string {
  const start = markdown.indexOf(RESULTS_START);
  const end = markdown.indexOf(RESULTS_END);
  if (start < 0 || end < start) throw new Error('docs/performance.md has no bench results markers');
  return `${markdown.slice(0, start)}${RESULTS_START}\n${formatReport(report).join('\n')}\n${markdown.slice(end)}`;
}

/** The report as docs/performance.md carries it: a table per pass, then the ratios with their load averages. */
export function formatReport(report: BenchReport): string[] {
  const fixed = (value: number, digits = 0) => value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
  const table = (pass: BenchPass) => [
    '| scenario | req/s | p50 / p99 ms | CPU µs/req | KiB allocated/req | load average | upstream calls/req |',
    '|---|---|---|---|---|---|---|',
    ...pass.results.map(
      (result) =>
        `| ${result.name} | ${fixed(result.requestsPerSecond)} | ${fixed(result.p50Ms, 1)} / ${fixed(result.p99Ms, 1)} | ${fixed(result.cpuMicrosPerRequest)} | ${fixed(result.allocatedBytesPerRequest / 1024, 1)} | ${fixed(result.loadAverage, 1)} | ${
          result.upstreamCallsPerRequest ? `${fixed(result.upstreamCallsPerRequest.problems, 2)} problems, ${fixed(result.upstreamCallsPerRequest.translation, 2)} translation` : '–'
        } |`,
    ),
  ];
  const ratios = (pass: BenchPass, label: string) => [
    `- ${label}, load average ${fixed(pass.loadAverage, 1)}: pass-through CPU/req ${fixed(pass.ratios.passThroughCpuVsProxy, 2)}× the minimal proxy's (target ≤ 1.5×); warm page ${fixed(
      pass.ratios.warmPageCpuVsProxyPage,
      2,
    )}× the proxy's page (target ≤ 1.5×); cache hit ${fixed(pass.ratios.cacheHitReqPerSecVsBare, 2)}× the bare server's req/s (target ≥ 0.6×); pass-through ${fixed(pass.ratios.passThroughCpuVsUpstream, 2)}× the upstream's CPU/req`,
  ];
  const { loaded, refusedBodies } = report;
  const lines = [
    `${report.date}, ${report.machine}, Node ${report.node}, ${report.connections} connections, ${report.warmRequests} warm-up requests per process, ${report.seconds} s slices × ${report.rounds} rounds per scenario, gateway ${report.gatewayRuntime}`,
    '',
    'Quiet:',
    '',
    ...table(report.quiet),
    ...(loaded ? ['', `Loaded (${loaded.busyProcesses} busy process(es)):`, '', ...table(loaded)] : []),
    '',
    ...ratios(report.quiet, 'quiet'),
    `- steady mix (pass-through and warm page in turn on every connection), load average ${fixed(report.steadyMix.gateway.loadAverage, 1)}: gateway ${fixed(report.steadyMix.gateway.cpuMicrosPerRequest)} µs/req, proxy ${fixed(
      report.steadyMix.proxy.cpuMicrosPerRequest,
    )}: ${fixed(report.steadyMix.cpuVsProxy, 2)}× (the same requests in the quiet pass's slices: ${fixed(report.steadyMix.slicedCpuVsProxy, 2)}×)`,
    ...(loaded
      ? [
          ...ratios(loaded, `loaded (${loaded.busyProcesses} busy process(es))`),
          `- loaded over quiet (target ≤ 1.3× for the first two): pass-through ${fixed(loaded.overQuiet.passThroughCpuVsProxy, 2)}×, warm page ${fixed(loaded.overQuiet.warmPageCpuVsProxyPage, 2)}×, cache hit ${fixed(
            loaded.overQuiet.cacheHitReqPerSecVsBare,
            2,
          )}×`,
        ]
      : []),
    `- cold page: ${report.coldPageTranslationCalls} translation call(s) (target 1); added latency at one connection (p50): ${fixed(report.addedLatencyP50Ms, 2)} ms (target ≤ 1 ms)`,
    `- gateway RSS: ${fixed(report.memory.startedRssMiB)} MiB at start, ${fixed(report.memory.idleRssMiB)} MiB idle (target ≤ 150 MiB); over a ${fixed(report.memory.sustained.seconds)} s load, ${fixed(
      report.memory.sustained.firstQuarterMiB,
    )} MiB in its first quarter, ${fixed(report.memory.sustained.lastQuarterMiB)} MiB in its last (target: flat), peak ${fixed(report.memory.sustained.peakMiB)}; idle again, ${fixed(report.memory.afterLoadIdleRssMiB)} MiB`,
    ...(refusedBodies
      ? refusedBodies.byRequests.map(
          (figures) =>
            `- refused bodies (${fixed(refusedBodies.bodyBytes / 1024)} KiB each, ${figures.requests} per flood × ${figures.rounds}), load average ${fixed(refusedBodies.loadAverage, 1)}: gateway ${figures.gatewayCpuMicrosPerRequest} µs/req (${figures.gatewayCpuMicrosPerRequestWithoutHits} without its cache hits) against the bare server's ${figures.bareCpuMicrosPerRequest}: ${fixed(figures.ratioWithoutHits, 2)}× (target ≤ 1×)`,
        )
      : []),
    `- errors: ${[...report.quiet.results, ...(loaded?.results ?? [])].reduce((sum, result) => sum + result.errors, 0)}`,
  ];
  return lines;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const refusedOff = process.env.BENCH_REFUSED === 'false';
  const report = await runBench({
    seconds: Number(process.env.BENCH_SECONDS ?? 2),
    connections: Number(process.env.BENCH_CONNECTIONS ?? 16),
    rounds: Number(process.env.BENCH_ROUNDS ?? 6),
    warmRequests: Number(process.env.BENCH_WARM_REQUESTS ?? 40_000),
    busyProcesses: Number(process.env.BENCH_BUSY_PROCESSES ?? 0),
    idleSeconds: Number(process.env.BENCH_IDLE_SECONDS ?? 30),
    sustainSeconds: Number(process.env.BENCH_SUSTAIN_SECONDS ?? 60),
    refusedBodies: refusedOff
      ? false
      : {
          counts: (process.env.BENCH_REFUSED_REQUESTS ?? '60,240').split(',').map(Number),
          connections: Number(process.env.BENCH_REFUSED_CONNECTIONS ?? 4),
          rounds: Number(process.env.BENCH_REFUSED_ROUNDS ?? 3),
        },
    // For the suite's run of this entry: no build into dist/ (another test builds there) and the
    // report somewhere of its own.
    ...(process.env.BENCH_RUNTIME === 'sources' ? { runtime: 'sources' as const } : {}),
    ...(process.env.BENCH_REPORT_PATH ? { reportPath: process.env.BENCH_REPORT_PATH } : {}),
  });
  // A full run (compiled, as production runs) replaces the latest results in docs/performance.md;
  // the suite's tiny run from the sources, or BENCH_WRITE_DOCS=false, leaves them alone.
  if (process.env.BENCH_RUNTIME !== 'sources' && process.env.BENCH_WRITE_DOCS !== 'false') {
    const docs = new URL('../../docs/performance.md', import.meta.url);
    await writeFile(docs, withLatestResults(await readFile(docs, 'utf8'), report));
    console.log('latest results written to docs/performance.md');
  }
  // The replicas scenario: one gateway process against two over one Redis (needs redis-server; README
  // "Running several replicas"). BENCH_REPLICAS=false skips it.
  if (process.env.BENCH_REPLICAS !== 'false') {
    console.log('');
    await runReplicasBench();
  }
}
