/**
 * `npm run bench`: what the gateway costs, measured side by side with the services it fronts, on
 * loopback, as ratios (timings on a shared machine are noisy; ratios within one run are not).
 *
 * Processes, each started here and stopped at the end: a plain graphql-js problems service (the
 * stand-in's schema and data on node:http, no framework), the translation stand-in, the gateway
 * (compiled into dist/ first, as production runs it; through tsx with BENCH_RUNTIME=sources) and a bare node:http server
 * answering the same bytes every time (the machine's ceiling), and a minimal Node proxy doing only what
 * any proxy must for the pass-through and the warm page (minimal-proxy.ts: the floor under the
 * gateway's figures). CPU time is read from
 * `/proc/<pid>/stat` of each process, so "CPU per request" is the whole process's work, GC included.
 * Requests carry distinct variables (nothing is merged in flight) except in the repeated-query
 * scenario; scenarios alternate over `rounds`.
 *
 * The gateway's RSS is read after it has sat idle (V8 returns start-up's memory only then), sampled
 * through a sustained load, and read again once idle.
 *
 *   BENCH_SECONDS=5 BENCH_CONNECTIONS=16 BENCH_ROUNDS=2 BENCH_IDLE_SECONDS=30 BENCH_SUSTAIN_SECONDS=60 npm run bench
 *
 * BENCH_REPLICAS=false skips the replicas scenario; BENCH_RUNTIME=sources runs the gateway through tsx
 * without building dist/; BENCH_REPORT_PATH moves the JSON report.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
// Imported here, not on demand: once the main scenarios have stopped every process they started,
// nothing keeps the event loop alive while tsx loads a module in its own thread, and Node ended the
// run (exit 13, an unsettled top-level await) before the replicas scenario began. The two modules
// import each other; neither uses the other's exports until it runs.
import { runReplicasBench } from './replicas.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CLOCK_TICKS_PER_SECOND = 100;

export interface BenchOptions {
  seconds?: number;
  connections?: number;
  rounds?: number;
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
  /** CPU time of the process serving the scenario, per request, in microseconds. */
  cpuMicrosPerRequest: number;
  /** Upstream HTTP calls per request (gateway scenarios), from the gateway's own counters. */
  upstreamCallsPerRequest?: { problems: number; translation: number };
}

export interface BenchReport {
  date: string;
  machine: string;
  seconds: number;
  connections: number;
  rounds: number;
  gatewayRuntime: 'compiled' | 'tsx';
  results: ScenarioResult[];
  /** One connection, sequential requests: the gateway's added latency over the direct call. */
  addedLatencyP50Ms: number;
  /** Cold page of 20 with translation: translation calls it caused. */
  coldPageTranslationCalls: number;
  memory: MemoryReport;
  ratios: {
    passThroughCpuVsUpstream: number;
    warmPageCpuVsPassThrough: number;
    repeatedReqPerSecVsUpstream: number;
    bareReqPerSecVsUpstream: number;
    /** The floor under the first two targets: the minimal proxy's pass-through against the upstream, its warm page against its pass-through. */
    minimalProxyPassThroughCpuVsUpstream: number;
    minimalProxyWarmPageCpuVsPassThrough: number;
  };
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
}

interface Scenario {
  name: string;
  url: string;
  /** The process whose CPU counts for this scenario. */
  server: Server;
  headers: Record<string, string>;
  body: (index: number) => string;
  /** Checks an answer is right, not only fast. */
  check: (payload: { data?: any; errors?: unknown[] }) => boolean;
  /** The gateway whose upstream call counters are read around it (its base URL). */
  gateway?: string;
}

/** Starts a project entry as its own process; resolves once its output matches `ready` (group 1: its URL). */
export function start(entry: string, env: Record<string, string>, ready: RegExp, useTsx = true): Promise<Server> {
  const args = useTsx ? ['--import', 'tsx', entry] : [entry];
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let output: string | null = '';
    const onData = (chunk: Buffer) => {
      // Keep draining after start-up (the gateway logs a line per request).
      if (output === null) return;
      output += chunk.toString();
      const match = output.match(ready);
      if (match) {
        output = null;
        resolve({ child, url: match[1] });
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

function rssMiB(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : 0;
}

/** The two upstreams every bench runs against: the plain graphql-js problems service and the translation stand-in. */
export async function startUpstreams(servers: Server[]): Promise<{ problems: Server; translation: Server }> {
  const problems = await start('test/bench/plain-problems-service.ts', { PORT: '0', PROBLEMS_API_KEY: 'bench-problems' }, /(http:\/\/127\.0\.0\.1:\d+)/);
  servers.push(problems);
  const translation = await start('src/upstreams/translation/main.ts', { PORT: '0', TRANSLATION_API_KEY: 'bench-translation' }, /(http:\/\/127\.0\.0\.1:\d+)/);
  servers.push(translation);
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
  return { child: gateway.child, url: gateway.url.replace('localhost', '127.0.0.1') };
}

async function upstreamCalls(gatewayBase: string): Promise<{ problems: number; translation: number }> {
  const text = await (await fetch(`${gatewayBase}/metrics`)).text();
  const sum = (service: string) =>
    [...text.matchAll(new RegExp(`^gateway_upstream_requests_total\\{service="${service}",[^}]*\\} (\\d+)`, 'gm'))].reduce((total, match) => total + Number(match[1]), 0);
  return { problems: sum('problems'), translation: sum('translation') };
}

async function load(scenario: Scenario, seconds: number, connections: number) {
  const origin = new URL(scenario.url);
  const pool = new Pool(origin.origin, { connections, pipelining: 1 });
  const latencies: number[] = [];
  let errors = 0;
  let index = 0;
  const deadline = performance.now() + seconds * 1000;
  const worker = async () => {
    while (performance.now() < deadline) {
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
  const cpuBefore = cpuMicros(scenario.server.child.pid!);
  const began = performance.now();
  await Promise.all(Array.from({ length: connections }, worker));
  const elapsed = (performance.now() - began) / 1000;
  const cpu = cpuMicros(scenario.server.child.pid!) - cpuBefore;
  await pool.close();
  return { latencies, errors, elapsed, cpu };
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

export async function runBench({
  seconds = 5,
  connections = 16,
  rounds = 2,
  idleSeconds = 30,
  sustainSeconds = 60,
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
    const gatewayEntry = await startBenchGateway(upstreams, { PROBLEMS_CACHE_TTL_SECONDS: '0', RESPONSE_CACHE_TTL_SECONDS: '0' }, compiled, servers);
    const gatewayPid = gatewayEntry.child.pid!;
    const startedAt = performance.now();
    const startedRssMiB = rssMiB(gatewayPid);
    // The repeated query runs against a gateway on its defaults, response cache included.
    const defaultsGateway = await startBenchGateway(upstreams, {}, compiled, servers);
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
    const bare = await start('test/bench/bare-server.ts', { BODY: repeatedAnswer }, /(http:\/\/127\.0\.0\.1:\d+)/);
    servers.push(bare);
    const proxy = await start(
      'test/bench/minimal-proxy.ts',
      { PROBLEMS_URL: problems.url, PROBLEMS_API_KEY: 'bench-problems', TRANSLATION_URL: upstreams.translation.url, TRANSLATION_API_KEY: 'bench-translation' },
      /(http:\/\/127\.0\.0\.1:\d+)/,
    );
    servers.push(proxy);

    const scenarios: Scenario[] = [
      {
        name: 'upstream direct: problem(id)',
        url: `${problems.url}/graphql`,
        server: problems,
        headers: { authorization: 'Bearer bench-problems' },
        body: byId,
        check: (payload) => !payload.errors && typeof payload.data?.problem?.title === 'string',
      },
      {
        name: 'gateway pass-through: problem(id)',
        url: gatewayUrl,
        server: gatewayEntry,
        headers: client,
        body: byId,
        check: (payload) => !payload.errors && typeof payload.data?.problem?.title === 'string',
        gateway: gatewayBase,
      },
      { name: 'gateway warm page: 20 with translation', url: gatewayUrl, server: gatewayEntry, headers: client, body: page('es'), check: translated, gateway: gatewayBase },
      {
        name: 'gateway repeated identical query',
        url: `${defaultsGateway.url}/graphql`,
        server: defaultsGateway,
        headers: client,
        body: () => repeated,
        check: (payload) => !payload.errors && payload.data?.problems?.nodes?.length === 10,
        gateway: defaultsGateway.url,
      },
      { name: 'bare node:http, same bytes', url: `${bare.url}/`, server: bare, headers: {}, body: () => repeated, check: (payload) => payload.data !== undefined },
      {
        name: 'minimal proxy pass-through: problem(id)',
        url: `${proxy.url}/graphql`,
        server: proxy,
        headers: {},
        body: byId,
        check: (payload) => !payload.errors && typeof payload.data?.problem?.title === 'string',
      },
      { name: 'minimal proxy warm page: 20 with translation', url: `${proxy.url}/graphql`, server: proxy, headers: {}, body: page('es'), check: translated },
    ];

    // Warm every Spanish page's translations (in the gateway and in the minimal proxy), then every path, before measuring.
    for (let index = 0; index < PAGES; index += 1) {
      for (const url of [gatewayUrl, `${proxy.url}/graphql`]) {
        await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...client }, body: page('es')(index) }).then((response) => response.text());
      }
    }
    for (const scenario of scenarios) await load(scenario, Math.min(1, seconds), connections);
    const totals = scenarios.map(() => ({ latencies: [] as number[], errors: 0, elapsed: 0, cpu: 0, calls: { problems: 0, translation: 0 } }));
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
        if (before) {
          const after = await upstreamCalls(scenario.gateway!);
          total.calls.problems += after.problems - before.problems;
          total.calls.translation += after.translation - before.translation;
        }
      }
    }
    const results: ScenarioResult[] = scenarios.map((scenario, index) => {
      const { latencies, errors, elapsed, cpu, calls } = totals[index];
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
        ...(scenario.gateway ? { upstreamCallsPerRequest: { problems: calls.problems / requests, translation: calls.translation / requests } } : {}),
      };
    });

    // Added latency: one connection, the same distinct requests, direct and through the gateway.
    const p50 = async (scenario: Scenario) => {
      const run = await load(scenario, Math.min(2, seconds), 1);
      return quantile(run.latencies.sort((a, b) => a - b), 0.5);
    };
    const directP50 = await p50(scenarios[0]);
    const gatewayP50 = await p50(scenarios[1]);

    // Memory under a sustained load: pass-through and warm pages in turn, RSS read every second. A
    // gateway that keeps what it should not grows from the first quarter to the last.
    const mixed: Scenario = {
      ...scenarios[1],
      name: 'sustained: pass-through and warm page in turn',
      body: (index) => (index % 2 === 0 ? byId(index >> 1) : page('es')(index >> 1)),
      check: (payload) => scenarios[1].check(payload) || translated(payload),
    };
    const samplesMiB: number[] = [];
    const sampler = setInterval(() => samplesMiB.push(rssMiB(gatewayPid)), 1000);
    const sustainedRun = await load(mixed, sustainSeconds, connections).finally(() => clearInterval(sampler));
    if (sustainedRun.errors > 0) throw new Error(`the sustained load had ${sustainedRun.errors} wrong answer(s)`);
    if (samplesMiB.length === 0) samplesMiB.push(rssMiB(gatewayPid));
    await sleep(idleSeconds * 1000);
    const afterLoadIdleRssMiB = rssMiB(gatewayPid);

    const [direct, passThrough, warm, repeat, ceiling, proxyPassThrough, proxyWarm] = results;
    const report: BenchReport = {
      date: new Date().toISOString().slice(0, 10),
      machine: '2-core machine',
      seconds,
      connections,
      rounds,
      gatewayRuntime: compiled ? 'compiled' : 'tsx',
      results,
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
      ratios: {
        passThroughCpuVsUpstream: passThrough.cpuMicrosPerRequest / direct.cpuMicrosPerRequest,
        warmPageCpuVsPassThrough: warm.cpuMicrosPerRequest / passThrough.cpuMicrosPerRequest,
        repeatedReqPerSecVsUpstream: repeat.requestsPerSecond / direct.requestsPerSecond,
        bareReqPerSecVsUpstream: ceiling.requestsPerSecond / direct.requestsPerSecond,
        minimalProxyPassThroughCpuVsUpstream: proxyPassThrough.cpuMicrosPerRequest / direct.cpuMicrosPerRequest,
        minimalProxyWarmPageCpuVsPassThrough: proxyWarm.cpuMicrosPerRequest / proxyPassThrough.cpuMicrosPerRequest,
      },
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

/** The report as the Markdown table docs/performance.md carries, then the ratios spelled out. */
export function formatReport(report: BenchReport): string[] {
  const fixed = (value: number, digits = 0) => value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
  const lines = [
    `${report.date}, ${report.machine}, ${report.connections} connections, ${report.seconds} s × ${report.rounds} rounds per scenario, gateway ${report.gatewayRuntime}`,
    '',
    '| scenario | req/s | p50 / p99 ms | CPU µs/req | upstream calls/req |',
    '|---|---|---|---|---|',
    ...report.results.map(
      (result) =>
        `| ${result.name} | ${fixed(result.requestsPerSecond)} | ${fixed(result.p50Ms, 1)} / ${fixed(result.p99Ms, 1)} | ${fixed(result.cpuMicrosPerRequest)} | ${
          result.upstreamCallsPerRequest ? `${fixed(result.upstreamCallsPerRequest.problems, 2)} problems, ${fixed(result.upstreamCallsPerRequest.translation, 2)} translation` : '–'
        } |`,
    ),
    '',
    `- pass-through CPU per request: ${fixed(report.ratios.passThroughCpuVsUpstream, 2)}× the upstream's (target ≤ 1.0×); the minimal proxy's: ${fixed(report.ratios.minimalProxyPassThroughCpuVsUpstream, 2)}×`,
    `- warm page CPU per request: ${fixed(report.ratios.warmPageCpuVsPassThrough, 2)}× the pass-through (target ≤ 1.2×); the minimal proxy's: ${fixed(report.ratios.minimalProxyWarmPageCpuVsPassThrough, 2)}× its own; cold page: ${report.coldPageTranslationCalls} translation call(s) (target 1)`,
    `- repeated query: ${fixed(report.ratios.repeatedReqPerSecVsUpstream, 2)}× the upstream's req/s (target ≥ 10×); bare node:http: ${fixed(report.ratios.bareReqPerSecVsUpstream, 2)}×`,
    `- added latency at one connection (p50): ${fixed(report.addedLatencyP50Ms, 2)} ms (target ≤ 1 ms)`,
    `- gateway RSS: ${fixed(report.memory.startedRssMiB)} MiB at start, ${fixed(report.memory.idleRssMiB)} MiB idle (target ≤ 150 MiB); over a ${fixed(report.memory.sustained.seconds)} s load, ${fixed(
      report.memory.sustained.firstQuarterMiB,
    )} MiB in its first quarter, ${fixed(report.memory.sustained.lastQuarterMiB)} MiB in its last (target: flat), peak ${fixed(report.memory.sustained.peakMiB)}; idle again, ${fixed(report.memory.afterLoadIdleRssMiB)} MiB`,
    `- errors: ${report.results.reduce((sum, result) => sum + result.errors, 0)}`,
  ];
  return lines;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const report = await runBench({
    seconds: Number(process.env.BENCH_SECONDS ?? 5),
    connections: Number(process.env.BENCH_CONNECTIONS ?? 16),
    rounds: Number(process.env.BENCH_ROUNDS ?? 2),
    idleSeconds: Number(process.env.BENCH_IDLE_SECONDS ?? 30),
    sustainSeconds: Number(process.env.BENCH_SUSTAIN_SECONDS ?? 60),
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
