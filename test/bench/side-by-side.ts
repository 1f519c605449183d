/**
 * Two checkouts of the gateway measured at the same moments: what a change costs, on a machine too
 * busy for `npm run bench`'s one-scenario-after-another figures to compare between runs.
 *
 * Both checkouts are built (`dist/`, as production runs them) and started against one pair of
 * upstreams (this checkout's); after the warm-up (SIDE_BY_SIDE_WARM_REQUESTS each, 40000) and a settling time (start-up's own collections
 * are over by 30 s), both are loaded at once, 8 connections each, in slices. Each slice gives the
 * CPU per request of each (on-CPU time of every thread, from `/proc/<pid>/task/<tid>/schedstat`), so
 * whatever else the machine does weighs on both alike. Scenarios: `pass` (a pass-through
 * `problem(id:)` with distinct ids, answer caches off), `hit` (a repeated query the response
 * cache answers) and `page` (a warm page of 20 with its Spanish translations, as bench.ts's warm page).
 *
 *   git worktree add /tmp/before <commit>; ln -s "$PWD/node_modules" /tmp/before/node_modules
 *   npx tsx test/bench/side-by-side.ts /tmp/before . pass hit
 *
 * `bare` in place of the first checkout measures a cache hit against its ceiling instead: a bare
 * node:http server (bare-server.ts) answering the bytes the gateway answers the repeated query with
 * (`npx tsx test/bench/side-by-side.ts bare . hit`).
 *
 * SIDE_BY_SIDE_SLICES (10), SIDE_BY_SIDE_SLICE_MS (1500), SIDE_BY_SIDE_SETTLE_MS (30000),
 * SIDE_BY_SIDE_WARM_REQUESTS (40000). SIDE_BY_SIDE_SECOND_NODE_ARGS: flags for the second checkout's
 * node only, to measure a runtime setting against none on the same code (`side-by-side.ts . . pass`
 * with `--min-semi-space-size=16`, say).
 */
import { execFileSync, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { benchGatewayEnv, startUpstreams, type Server } from './bench.ts';
import { preciseCpuMicros } from './process-stats.ts';

type Scenario = 'pass' | 'hit' | 'page';

const SCENARIOS: Scenario[] = ['pass', 'hit', 'page'];

export interface Gateway {
  url: URL;
  pid: number;
}

export interface SideBySideResult {
  scenario: Scenario;
  /** CPU per request of each checkout over all slices (µs). */
  cpuMicrosPerRequest: [number, number];
  requests: [number, number];
  errors: [number, number];
  /** The second's CPU per request over the first's: over all slices, and each slice's median, least and most. */
  ratio: number;
  sliceRatios: { median: number; min: number; max: number };
}

export const PROBLEM_QUERY = /* GraphQL */ `query ($id: ID!) { problem(id: $id) { id title } }`;
export const REPEATED = JSON.stringify({ query: /* GraphQL */ `{ problems(first: 10) { nodes { id title difficulty } } }` });
const PAGE_QUERY = /* GraphQL */ `query ($after: String) { problems(first: 20, after: $after) { nodes { id translation(to: "es") { title statement } } } }`;
/** As bench.ts asks its warm page: overlapping pages of 20 from 40 offsets, so no two connections ask the same page at once. */
export const PAGES = 40;
export const pageBody = (index: number) => {
  const offset = index % PAGES;
  return JSON.stringify({ query: PAGE_QUERY, variables: { after: offset === 0 ? null : Buffer.from(`problems:${offset - 1}`).toString('base64') } });
};

/** What a scenario's requests ask: distinct problems, one repeated query, or warm translated pages. */
function bodyOf(scenario: Scenario, index: number): string {
  if (scenario === 'pass') return JSON.stringify({ query: PROBLEM_QUERY, variables: { id: `p${1001 + (index % 165)}` } });
  return scenario === 'hit' ? REPEATED : pageBody(index);
}

/** A gateway from `checkout`'s `dist/`, configured as the bench configures its own (bench.ts, startBenchGateway). */
export function startGateway(
  checkout: string,
  upstreams: { problems: Server; translation: Server },
  scenario: Scenario,
  servers: { child: Server['child'] }[],
  nodeArgs: string[] = [],
): Promise<Gateway> {
  const child = spawn(process.execPath, [...nodeArgs, 'dist/src/cli/start.js'], {
    cwd: checkout,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      // The pass-through and the warm page measure the path itself: the answer caches out of the way
      // (a warm page's translations still come from the translation cache, as bench.ts's do).
      ...benchGatewayEnv(upstreams, scenario === 'hit' ? {} : { PROBLEMS_CACHE_TTL_SECONDS: '0', RESPONSE_CACHE_TTL_SECONDS: '0' }),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  servers.push({ child });
  return new Promise((resolveStart, reject) => {
    let output: string | null = '';
    const onData = (chunk: Buffer) => {
      // Keep draining after start-up (a log line per request).
      if (output === null) return;
      output += chunk.toString();
      const match = /listening: (http:\/\/localhost:\d+)\/graphql/.exec(output);
      if (match) {
        output = null;
        resolveStart({ url: new URL(`${match[1].replace('localhost', '127.0.0.1')}/graphql`), pid: child.pid! });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`the gateway of ${checkout} exited (${code}) before it was ready: ${output}`)));
  });
}

/** The first checkout's place taken by a bare node:http server (runSideBySide, scenario `hit` only). */
export const BARE = 'bare';

/** A bare node:http server answering every request with `gateway`'s answer to the repeated query. */
async function startBareServer(gateway: Gateway, servers: { child: Server['child'] }[]): Promise<Gateway> {
  const response = await fetch(gateway.url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer bench-client' }, body: REPEATED });
  const body = await response.text();
  if (response.status !== 200 || body.includes('"errors"')) throw new Error(`${gateway.url} answered ${response.status}: ${body.slice(0, 300)}`);
  return startBenchProcess('bare-server.ts', { BODY: body }, /bare server at (http:\/\/[\d.:]+)/, servers);
}

/** One of this folder's scripts as a process of its own, ready once its output matches `ready` (group 1: its base URL). */
export function startBenchProcess(script: string, env: Record<string, string>, ready: RegExp, servers: { child: Server['child'] }[]): Promise<Gateway> {
  const child = spawn(process.execPath, [fileURLToPath(new URL(script, import.meta.url))], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  servers.push({ child });
  return new Promise((resolveStart, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = ready.exec(output);
      if (match) resolveStart({ url: new URL(`${match[1]}/graphql`), pid: child.pid! });
    });
    child.once('exit', (code) => reject(new Error(`${script} exited (${code}) before it was ready: ${output}`)));
  });
}

/** One request, its answer checked. */
export async function ask(gateway: Gateway, body: string): Promise<void> {
  const response = await fetch(gateway.url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer bench-client' }, body });
  const text = await response.text();
  if (response.status !== 200 || text.includes('"errors"')) throw new Error(`${gateway.url} answered ${response.status}: ${text.slice(0, 300)}`);
}

/** `connections` clients asking `gateway` for `ms`; its CPU over that time and the requests answered. */
async function load(gateway: Gateway, scenario: Scenario, ms: number, connections: number, next: () => number, most = Number.POSITIVE_INFINITY) {
  const pool = new Pool(gateway.url.origin, { connections, pipelining: 1 });
  let requests = 0;
  let errors = 0;
  const before = preciseCpuMicros(gateway.pid);
  const deadline = performance.now() + ms;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < deadline && requests < most) {
        const body = bodyOf(scenario, next());
        const response = await pool.request({
          method: 'POST',
          path: gateway.url.pathname,
          headers: { 'content-type': 'application/json', authorization: 'Bearer bench-client' },
          body,
        });
        const text = await response.body.text();
        if (response.statusCode !== 200 || text.includes('"errors"')) errors += 1;
        requests += 1;
      }
    }),
  );
  const cpu = preciseCpuMicros(gateway.pid) - before;
  await pool.close();
  return { requests, errors, cpu };
}

export async function runSideBySide(
  checkouts: [string, string],
  scenario: Scenario,
  { slices = 10, sliceMs = 1500, settleMs = 30_000, warmRequests = 40_000, secondNodeArgs = [] as string[] } = {},
): Promise<SideBySideResult> {
  const servers: { child: Server['child'] }[] = [];
  try {
    const upstreams = await startUpstreams(servers as Server[]);
    const second = await startGateway(checkouts[1], upstreams, scenario, servers, secondNodeArgs);
    const gateways = [checkouts[0] === BARE ? await startBareServer(second, servers) : await startGateway(checkouts[0], upstreams, scenario, servers), second];
    let index = 0;
    const next = () => index++;
    // Every page translated once first, so the timed load meets warm translations only.
    if (scenario === 'page') for (const gateway of gateways) for (let index = 0; index < PAGES; index += 1) await ask(gateway, pageBody(index));
    // A fresh process settles only after tens of thousands of requests (JIT, GC): both served them first.
    await Promise.all(gateways.map((gateway) => load(gateway, scenario, Number.POSITIVE_INFINITY, 16, next, warmRequests)));
    await new Promise((done) => setTimeout(done, settleMs));
    const totals = gateways.map(() => ({ requests: 0, errors: 0, cpu: 0 }));
    const ratios: number[] = [];
    for (let slice = 0; slice < slices; slice += 1) {
      const results = await Promise.all(gateways.map((gateway) => load(gateway, scenario, sliceMs, 8, next)));
      results.forEach((result, at) => {
        totals[at].requests += result.requests;
        totals[at].errors += result.errors;
        totals[at].cpu += result.cpu;
      });
      ratios.push(results[1].cpu / Math.max(1, results[1].requests) / (results[0].cpu / Math.max(1, results[0].requests)));
    }
    ratios.sort((a, b) => a - b);
    const perRequest = totals.map((total) => total.cpu / Math.max(1, total.requests));
    const round = (value: number) => Math.round(value * 1000) / 1000;
    return {
      scenario,
      cpuMicrosPerRequest: [Math.round(perRequest[0]), Math.round(perRequest[1])],
      requests: [totals[0].requests, totals[1].requests],
      errors: [totals[0].errors, totals[1].errors],
      ratio: round(perRequest[1] / perRequest[0]),
      sliceRatios: { median: round(ratios[Math.floor(ratios.length / 2)]), min: round(ratios[0]), max: round(ratios.at(-1)!) },
    };
  } finally {
    for (const { child } of servers.reverse()) child.kill('SIGTERM');
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [first, second, ...named] = process.argv.slice(2);
  if (!first || !second) throw new Error('usage: tsx test/bench/side-by-side.ts <checkout> <checkout> [pass] [hit] [page]');
  const checkouts: [string, string] = [first === BARE ? BARE : resolve(first), resolve(second)];
  if (first === BARE && named.some((scenario) => scenario !== 'hit')) throw new Error('bare stands beside a cache hit only: tsx test/bench/side-by-side.ts bare <checkout> hit');
  // Built now, so each measured gateway is its checkout's code, never a stale dist/.
  for (const checkout of checkouts.filter((each) => each !== BARE)) {
    execFileSync(process.execPath, [`${checkout}/node_modules/typescript/bin/tsc`, '-p', 'tsconfig.build.json'], { cwd: checkout, stdio: 'inherit' });
  }
  const scenarios = (named.length ? named : first === BARE ? ['hit'] : SCENARIOS) as Scenario[];
  for (const scenario of scenarios) {
    if (!SCENARIOS.includes(scenario)) throw new Error(`unknown scenario ${scenario}: ${SCENARIOS.join(', ')}`);
    const result = await runSideBySide(checkouts, scenario, {
      slices: Number(process.env.SIDE_BY_SIDE_SLICES ?? 10),
      sliceMs: Number(process.env.SIDE_BY_SIDE_SLICE_MS ?? 1500),
      settleMs: Number(process.env.SIDE_BY_SIDE_SETTLE_MS ?? 30_000),
      warmRequests: Number(process.env.SIDE_BY_SIDE_WARM_REQUESTS ?? 40_000),
      secondNodeArgs: (process.env.SIDE_BY_SIDE_SECOND_NODE_ARGS ?? '').split(' ').filter(Boolean),
    });
    const [a, b] = result.cpuMicrosPerRequest;
    console.log(
      `${scenario}: ${first} ${a} µs/req, ${second} ${b} µs/req (${result.requests.join(' and ')} requests, ${result.errors.join(' and ')} wrong): ${result.ratio}×; per slice median ${result.sliceRatios.median}× (${result.sliceRatios.min}–${result.sliceRatios.max})`,
    );
  }
}
