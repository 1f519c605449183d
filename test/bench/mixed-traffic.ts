/**
 * Whether the gateway's pass-through costs more once the process has served other shapes of traffic
 * (JIT feedback, deoptimisation, the collector's sizing), measured on two gateways of one checkout
 * (its `dist/`: `npm run build` there first) and the minimal proxy, loaded at the same moments, so that
 * whatever else the machine does weighs on all three alike. CPU is every thread's
 * (`/proc/<pid>/task/<tid>/schedstat`), with the main thread's share; the load average is read at
 * every round.
 *
 * - Warm-up (MIXED_WARM_REQUESTS each): one gateway on the pass-through alone, the other (and the
 *   proxy) on the mix: pass-through and warm page (and with MIXED_HIT=true a cache hit) in turn.
 * - 1. The pass-through on both, neither having served anything else since.
 * - 2. Both serving everything, in rounds: each other scenario, then the pass-through right after it,
 *   then again (its own baseline); the same after idling as long as `npm run bench` leaves a
 *   gateway between its slices; the mix, request after request on every connection (a user's
 *   traffic), and the pass-through right after it. The mix is set beside the same requests asked
 *   slice by slice.
 *
 * Scenarios are side-by-side.ts's: `pass` and `page` on gateways with the answer caches off (as
 * `npm run bench` measures them, in one process); with MIXED_HIT=true the gateways are on their
 * defaults, every pass-through and page request carries a variable of its own that no operation
 * reads (graphql-js ignores it), so each is a response-cache miss, and `hit` repeats one query.
 *
 *   npx tsx test/bench/mixed-traffic.ts <checkout>
 *   MIXED_NODE_ARGS='--trace-deopt --trace-gc' MIXED_TRACE=/tmp/trace npx tsx test/bench/mixed-traffic.ts .
 *
 * MIXED_NODE_ARGS: flags for both gateways' node (`--trace-deopt`, `--trace-opt`, `--trace-gc`,
 * `--log-ic --logfile=/tmp/ic-%p.log`…); MIXED_TRACE: where their output goes (`<path>.pass-warmed`,
 * `<path>.mix-warmed`; otherwise drained), each slice's start marked in it (`### round <n> …`).
 * MIXED_ROUNDS (6), MIXED_SLICE_MS (2000), MIXED_SETTLE_MS (10000), MIXED_WARM_REQUESTS (30000),
 * MIXED_CONNECTIONS (8), MIXED_SWAP=true starts the mix-warmed gateway first.
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { startUpstreams, type Server } from './bench.ts';
import { loadAverage, preciseCpuMicros, threadCpuMicros } from './process-stats.ts';
import { ask, PAGES, PROBLEM_QUERY, REPEATED, startBenchProcess, startGateway, type Gateway } from './side-by-side.ts';

type Scenario = 'pass' | 'page' | 'hit';

interface Target extends Gateway {
  /** What the report calls it. */
  name: string;
}

interface Slice {
  cpu: number;
  /** The main thread's share of `cpu` (its thread id is the process's). */
  main: number;
  requests: number;
  errors: number;
}

export interface KindFigure {
  kind: string;
  /** CPU per request (µs) of the gateway warmed on the pass-through, the one warmed on the mix, and the proxy, over the kind's slices. */
  cpuMicrosPerRequest: number[];
  /** The main thread's share of each one's CPU (the rest: V8's compiler and collector threads, libuv's pool). */
  mainThreadShare: number[];
  /** Each slice's, in order. */
  slices: number[][];
  loadAverage: number;
  errors: number;
}

/** As bench.ts asks its warm page: with the language as a variable, which the minimal proxy reads. */
const PAGE_QUERY = /* GraphQL */ `query ($after: String, $to: String!) { problems(first: 20, after: $after) { nodes { id translation(to: $to) { title statement } } } }`;

function pageVariables(index: number): Record<string, unknown> {
  const offset = index % PAGES;
  return { after: offset === 0 ? null : Buffer.from(`problems:${offset - 1}`).toString('base64'), to: 'es' };
}

const pageBody = (index: number) => JSON.stringify({ query: PAGE_QUERY, variables: pageVariables(index) });

/** What each scenario's i-th request asks; with `nonce`, a variable no operation reads makes each pass and page request a cache miss. */
function bodyOf(scenario: Scenario, index: number, nonce: boolean): string {
  if (scenario === 'hit') return REPEATED;
  if (scenario === 'pass') return JSON.stringify({ query: PROBLEM_QUERY, variables: { id: `p${1001 + (index % 165)}`, ...(nonce ? { nonce: index } : {}) } });
  return JSON.stringify({ query: PAGE_QUERY, variables: nonce ? { ...pageVariables(index), nonce: index } : pageVariables(index) });
}

/** The minimal proxy (minimal-proxy.ts) over the same upstreams. */
async function startProxy(upstreams: { problems: Server; translation: Server }, servers: { child: Server['child'] }[]): Promise<Target> {
  const env = { PROBLEMS_URL: upstreams.problems.url, PROBLEMS_API_KEY: 'bench-problems', TRANSLATION_URL: upstreams.translation.url, TRANSLATION_API_KEY: 'bench-translation' };
  return { name: 'proxy', ...(await startBenchProcess('minimal-proxy.ts', env, /minimal proxy at (http:\/\/[\d.:]+)/, servers)) };
}

/** `connections` clients asking `target` what `body` gives, for `ms` or until `most` requests are answered. */
async function load(target: Target, body: (index: number) => string, ms: number, connections: number, most = Number.POSITIVE_INFINITY): Promise<Slice> {
  const pool = new Pool(target.url.origin, { connections, pipelining: 1 });
  let requests = 0;
  let errors = 0;
  let index = 0;
  const before = preciseCpuMicros(target.pid);
  const mainBefore = threadCpuMicros(target.pid, target.pid);
  const deadline = performance.now() + ms;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < deadline && requests < most) {
        const response = await pool.request({
          method: 'POST',
          path: target.url.pathname,
          headers: { 'content-type': 'application/json', authorization: 'Bearer bench-client' },
          body: body(index++),
        });
        const text = await response.body.text();
        if (response.statusCode !== 200 || text.includes('"errors"')) errors += 1;
        requests += 1;
      }
    }),
  );
  const cpu = preciseCpuMicros(target.pid) - before;
  const main = threadCpuMicros(target.pid, target.pid) - mainBefore;
  await pool.close();
  return { cpu, main, requests, errors };
}

export async function runMixedTraffic(
  checkout: string,
  { hit = false, swap = false, rounds = 6, sliceMs = 2000, settleMs = 10_000, warmRequests = 30_000, connections = 8, nodeArgs = [] as string[], trace = undefined as string | undefined, log = console.log } = {},
): Promise<KindFigure[]> {
  const servers: { child: Server['child'] }[] = [];
  const traces: WriteStream[] = [];
  const mark = (line: string) => traces.forEach((file) => file.write(`### ${line}\n`));
  try {
    const upstreams = await startUpstreams(servers as Server[]);
    const startOne = async (name: string): Promise<Target> => {
      const file = trace ? createWriteStream(`${trace}.${name}`) : undefined;
      if (file) traces.push(file);
      return { name, ...(await startGatewayTraced(checkout, upstreams, hit, servers, nodeArgs, file)) };
    };
    // Started in turn; which starts first has no part in what is compared (MIXED_SWAP starts the other first).
    const [passWarmed, mixWarmed] = swap ? (await startInTurn(['mix-warmed', 'pass-warmed'])).reverse() : await startInTurn(['pass-warmed', 'mix-warmed']);
    const proxy = await startProxy(upstreams, servers);
    async function startInTurn(names: string[]): Promise<Target[]> {
      const started: Target[] = [];
      for (const name of names) started.push(await startOne(name));
      return started;
    }
    const targets = [passWarmed, mixWarmed, proxy];
    const others: Scenario[] = hit ? ['page', 'hit'] : ['page'];
    const all: Scenario[] = ['pass', ...others];
    const of = (scenario: Scenario) => (index: number) => bodyOf(scenario, index, hit);
    const mixed = (index: number) => bodyOf(all[index % all.length], Math.floor(index / all.length), hit);
    // All at once, as side-by-side.ts: whatever else the machine does weighs on each alike.
    const each = (body: (index: number) => string, ms: number) => Promise.all(targets.map((target) => load(target, body, ms, connections)));
    const idle = async (ms: number): Promise<Slice[]> => {
      await new Promise((done) => setTimeout(done, ms));
      return targets.map(() => ({ cpu: 0, main: 0, requests: 0, errors: 0 }));
    };
    const translatePages = (target: Target) => Array.from({ length: PAGES }, (_, index) => index).reduce((done, index) => done.then(() => ask(target, pageBody(index))), Promise.resolve());

    // Warm-up: one gateway on the pass-through alone, the other (and the proxy) on the mix; each page
    // translated once first where pages are asked, so the timed pages meet warm translations only.
    await Promise.all([mixWarmed, proxy].map(translatePages));
    log(`warming: ${warmRequests} requests each, ${passWarmed.name} on the pass-through alone, ${mixWarmed.name} and the proxy on ${all.join(', ')} in turn`);
    mark('warm');
    await Promise.all([load(passWarmed, of('pass'), Number.POSITIVE_INFINITY, 16, warmRequests), ...[mixWarmed, proxy].map((target) => load(target, mixed, Number.POSITIVE_INFINITY, 16, warmRequests))]);
    await new Promise((done) => setTimeout(done, settleMs));

    // Slices of each kind in every round, so that a machine whose load moves weighs on all kinds
    // alike; a kind's figure is over all its slices.
    const kinds = new Map<string, Slice[][]>();
    const loads: number[] = [];
    const record = (kind: string, slice: Slice[]) => {
      if (!kinds.has(kind)) kinds.set(kind, []);
      kinds.get(kind)!.push(slice);
    };
    // 1. The pass-through on both gateways, neither having served anything else since its warm-up.
    for (let round = 0; round < rounds; round += 1) {
      loads.push(loadAverage());
      mark(`round ${round} pass, as warmed`);
      record('1. pass, as warmed', await each(of('pass'), sliceMs));
    }
    // 2. Now both serve everything: the pass-through after each other scenario (and after idling as
    // long as `npm run bench` leaves it between its slices), and again right after, its own baseline;
    // the mix beside the same requests asked slice by slice.
    await translatePages(passWarmed);
    const befores: (Scenario | 'idle')[] = [...others, 'idle'];
    for (let round = 0; round < rounds; round += 1) {
      loads.push(loadAverage());
      for (const before of befores) {
        mark(`round ${round} ${before} then pass`);
        const slice = before === 'idle' ? await idle(3 * sliceMs) : await each(of(before), sliceMs);
        if (before !== 'idle') record(`2. ${before}`, slice);
        record(`2. pass right after ${before}`, await each(of('pass'), sliceMs));
        record('2. pass after pass', await each(of('pass'), sliceMs));
      }
      mark(`round ${round} mix`);
      record(`2. mix: ${all.join(', ')} in turn`, await each(mixed, sliceMs));
      record(`2. pass right after the mix`, await each(of('pass'), sliceMs));
    }
    const loadAverageOfRun = Math.round((loads.reduce((sum, value) => sum + value, 0) / loads.length) * 10) / 10;
    const perRequest = (list: Slice[][], at: number) => list.reduce((sum, slice) => sum + slice[at].cpu, 0) / Math.max(1, list.reduce((sum, slice) => sum + slice[at].requests, 0));
    const figures = [...kinds].map(
      ([kind, list]): KindFigure => ({
        kind,
        cpuMicrosPerRequest: targets.map((_, at) => Math.round(perRequest(list, at))),
        mainThreadShare: targets.map((_, at) => Math.round((list.reduce((sum, slice) => sum + slice[at].main, 0) / Math.max(1, list.reduce((sum, slice) => sum + slice[at].cpu, 0))) * 100) / 100),
        slices: list.map((slice) => targets.map((_, at) => Math.round(slice[at].cpu / Math.max(1, slice[at].requests)))),
        loadAverage: loadAverageOfRun,
        errors: list.reduce((sum, slice) => sum + slice.reduce((wrong, one) => wrong + one.errors, 0), 0),
      }),
    );
    log(`${rounds} rounds of ${sliceMs} ms slices, ${connections} connections each, load average ${loads.map((value) => value.toFixed(1)).join(', ')}`);
    log(`CPU µs per request of ${targets.map((target) => target.name).join(', ')} (ratio to the proxy; per slice):`);
    for (const { kind, cpuMicrosPerRequest: [first, second, floor], mainThreadShare, slices, errors } of figures) {
      const ratio = (value: number) => (value / floor).toFixed(2);
      log(`${kind}: ${first} (${ratio(first)}×), ${second} (${ratio(second)}×), ${floor}; main thread ${mainThreadShare.join('/')}; per slice ${slices.map((slice) => slice.join('/')).join(' ')}${errors ? `; ${errors} wrong` : ''}`);
    }
    const figureOf = (kind: string) => figures.find((figure) => figure.kind === kind)!;
    const sliced = all.map((scenario) => figureOf(scenario === 'pass' ? '2. pass after pass' : `2. ${scenario}`));
    const mix = figureOf(`2. mix: ${all.join(', ')} in turn`);
    const overSliced = targets.map((_, at) => (mix.cpuMicrosPerRequest[at] / (sliced.reduce((sum, figure) => sum + figure.cpuMicrosPerRequest[at], 0) / sliced.length)).toFixed(2));
    log(`the mix over the same requests asked slice by slice: ${overSliced.join(', ')}`);
    return figures;
  } finally {
    for (const { child } of servers.reverse()) child.kill('SIGTERM');
    for (const file of traces) file.end();
  }
}

/** The gateway of `checkout`, started by side-by-side.ts's rules; its output copied to `traceFile` when given. */
async function startGatewayTraced(
  checkout: string,
  upstreams: { problems: Server; translation: Server },
  hit: boolean,
  servers: { child: Server['child'] }[],
  nodeArgs: string[],
  traceFile: WriteStream | undefined,
): Promise<Gateway> {
  const gateway = await startGateway(checkout, upstreams, hit ? 'hit' : 'pass', servers, nodeArgs);
  if (traceFile) {
    const child = servers.at(-1)!.child;
    child.stdout!.on('data', (chunk: Buffer) => traceFile.writableEnded || traceFile.write(chunk));
  }
  return gateway;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [checkout] = process.argv.slice(2);
  if (!checkout) throw new Error('usage: tsx test/bench/mixed-traffic.ts <checkout> (built: npm run build there)');
  await runMixedTraffic(resolve(checkout), {
    hit: process.env.MIXED_HIT === 'true',
    swap: process.env.MIXED_SWAP === 'true',
    rounds: Number(process.env.MIXED_ROUNDS ?? 6),
    sliceMs: Number(process.env.MIXED_SLICE_MS ?? 2000),
    settleMs: Number(process.env.MIXED_SETTLE_MS ?? 10_000),
    warmRequests: Number(process.env.MIXED_WARM_REQUESTS ?? 30_000),
    connections: Number(process.env.MIXED_CONNECTIONS ?? 8),
    nodeArgs: (process.env.MIXED_NODE_ARGS ?? '').split(' ').filter(Boolean),
    trace: process.env.MIXED_TRACE,
  });
}
