/**
 * `npm run bench`: the gateway measured side by side with the problems service called directly, on
 * loopback, as ratios (timings on a shared machine are noisy; ratios within one run are not).
 * Every process is started here and stopped at the end; each scenario runs for a bounded time.
 *
 *   BENCH_SECONDS=5 BENCH_CONNECTIONS=16 npm run bench
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface BenchOptions {
  seconds?: number;
  connections?: number;
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
  /** Requests per second relative to the problems service called directly. */
  ratioToDirect: number;
}

interface Scenario {
  name: string;
  url: string;
  headers: Record<string, string>;
  /** A distinct body per request, so no layer can merge identical requests in flight. */
  body: (index: number) => string;
  /** Checks an answer is right, not only fast. */
  check: (payload: { data?: any; errors?: unknown[] }) => boolean;
}

function startProcess(entry: string, env: Record<string, string>, ready: RegExp): Promise<{ child: ChildProcess; match: RegExpMatchArray }> {
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      // Keep draining after start-up (the gateway logs a line per request).
      if (output === null) return;
      output += chunk.toString();
      const match = output.match(ready);
      if (match) {
        output = null as unknown as string;
        resolve({ child, match });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${entry} exited (${code}) before it was ready: ${output}`)));
  });
}

async function runScenario(scenario: Scenario, seconds: number, connections: number) {
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
  const began = performance.now();
  await Promise.all(Array.from({ length: connections }, worker));
  const elapsed = (performance.now() - began) / 1000;
  await pool.close();
  latencies.sort((a, b) => a - b);
  const at = (quantile: number) => latencies[Math.min(latencies.length - 1, Math.floor(quantile * latencies.length))] ?? 0;
  return { requests: latencies.length, errors, requestsPerSecond: latencies.length / elapsed, p50Ms: at(0.5), p99Ms: at(0.99) };
}

export async function runBench({ seconds = 5, connections = 16, reportPath = `${ROOT}test-artifacts/bench.json`, log = console.log }: BenchOptions = {}): Promise<ScenarioResult[]> {
  const children: ChildProcess[] = [];
  try {
    const problems = await startProcess('src/upstreams/problems/main.ts', { PORT: '0', PROBLEMS_API_KEY: 'bench-problems' }, /(http:\/\/127\.0\.0\.1:\d+)/);
    children.push(problems.child);
    const translation = await startProcess('src/upstreams/translation/main.ts', { PORT: '0', TRANSLATION_API_KEY: 'bench-translation' }, /(http:\/\/127\.0\.0\.1:\d+)/);
    children.push(translation.child);
    const gateway = await startProcess(
      'src/cli/start.ts',
      {
        PORT: '0',
        // Set before start, as a deployment would: graphql-js then loads in production mode.
        NODE_ENV: 'production',
        PROBLEMS_URL: problems.match[1],
        PROBLEMS_API_KEY: 'bench-problems',
        TRANSLATION_URL: translation.match[1],
        TRANSLATION_API_KEY: 'bench-translation',
        GATEWAY_API_KEYS: 'bench-client',
        RATE_LIMIT_REQUESTS: '1000000000',
        TRANSLATION_RATE_LIMIT_REQUESTS: '1000000000',
        // Measure the gateway's own path, not its answer cache.
        PROBLEMS_CACHE_TTL_SECONDS: '0',
      },
      /listening: http:\/\/localhost:(\d+)\/graphql/,
    );
    children.push(gateway.child);
    const gatewayUrl = `http://127.0.0.1:${gateway.match[1]}/graphql`;

    const problemQuery = /* GraphQL */ `query ($after: String) { problems(first: 5, after: $after) { nodes { id title rating } } }`;
    const linkQuery = /* GraphQL */ `query ($after: String) { problems(first: 5, after: $after) { nodes { id translation(to: "es") { title statement } } } }`;
    // 160 distinct pages (cursor = offset): distinct requests, the same few translations once warm.
    const cursor = (index: number) => Buffer.from(`problems:${index % 160}`).toString('base64');
    const body = (query: string) => (index: number) => JSON.stringify({ query, variables: { after: index % 161 === 0 ? null : cursor(index) } });
    const scenarios: Scenario[] = [
      {
        name: 'problems service, direct',
        url: `${problems.match[1]}/graphql`,
        headers: { authorization: 'Bearer bench-problems' },
        body: body(problemQuery),
        check: (payload) => !payload.errors && Array.isArray(payload.data?.problems?.nodes),
      },
      {
        name: 'gateway, problems only',
        url: gatewayUrl,
        headers: { authorization: 'Bearer bench-client' },
        body: body(problemQuery),
        check: (payload) => !payload.errors && Array.isArray(payload.data?.problems?.nodes),
      },
      {
        name: 'gateway, problems + translation (cache warm)',
        url: gatewayUrl,
        headers: { authorization: 'Bearer bench-client' },
        body: body(linkQuery),
        check: (payload) => !payload.errors && payload.data?.problems?.nodes?.every((node: any) => typeof node.translation?.title === 'string'),
      },
    ];
    // Warm every path (and the translation cache) before measuring.
    for (const scenario of scenarios) await runScenario(scenario, Math.min(1, seconds), connections);
    const measured: ScenarioResult[] = [];
    for (const scenario of scenarios) {
      const result = await runScenario(scenario, seconds, connections);
      const direct = measured[0]?.requestsPerSecond ?? result.requestsPerSecond;
      measured.push({ name: scenario.name, ...result, ratioToDirect: result.requestsPerSecond / direct });
    }
    log(`${connections} connections, ${seconds} s per scenario, loopback, ${measured.reduce((sum, result) => sum + result.requests, 0)} requests`);
    log('scenario                                        req/s   vs direct   p50 ms   p99 ms   errors');
    for (const result of measured) {
      log(
        `${result.name.padEnd(46)} ${result.requestsPerSecond.toFixed(0).padStart(6)}   ${(result.ratioToDirect * 100).toFixed(0).padStart(8)}%   ${result.p50Ms.toFixed(1).padStart(6)}   ${result.p99Ms.toFixed(1).padStart(6)}   ${String(result.errors).padStart(6)}`,
      );
    }
    if (reportPath) {
      await mkdir(new URL('.', `file://${reportPath}`), { recursive: true });
      await writeFile(reportPath, JSON.stringify({ seconds, connections, results: measured }, null, 2));
    }
    return measured;
  } finally {
    for (const child of children.reverse()) child.kill('SIGTERM');
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await runBench({ seconds: Number(process.env.BENCH_SECONDS ?? 5), connections: Number(process.env.BENCH_CONNECTIONS ?? 16) });
}
