/**
 * Start-up and first answers of both entries, as docs/performance.md ("Start-up") reports them. A
 * standalone measurement (loopback only):
 *
 *   node test/bench/start-up.ts                      (Node 24 from node_modules/.bin, via npx or npm)
 *   STARTS=5 NODE_BINARY=/usr/bin/node npx tsx test/bench/start-up.ts
 *
 * For each entry, STARTS starts (after one that is not counted: it fills Node's compile cache, as a
 * deployment's first start does): `npm start`'s command (the sources, in process with the stand-ins;
 * with tsx where NODE_BINARY has no type stripping) and the compiled entry (`NODE_ENV=production
 * node dist/src/cli/start.js`, built first, against stand-ins of its own). Per start: the wall time
 * from spawning node to the `listening:` line; the CPU it used by then, all threads and the main
 * thread alone (from /proc: Linux only); the first cross-source query sent at once, or FIRST_QUERY_DELAY_MS
 * later, with its CPU; the same query again. Prints min / median. No timing is asserted anywhere.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const NODE = process.env.NODE_BINARY ?? process.execPath;
const STARTS = Number(process.env.STARTS ?? 3);
const DELAY_MS = Number(process.env.FIRST_QUERY_DELAY_MS ?? 0);
const QUERY = JSON.stringify({ query: /* GraphQL */ `{ problem(id: "p1001") { title translation(to: "es") { title statement } } }` });
const TICK_MS = 1000 / Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());

/** CPU time of a process (every thread) or of its main thread alone, in ms; utime + stime of /proc's stat. */
function cpuMs(pid: number, mainThreadOnly = false): number {
  const stat = readFileSync(mainThreadOnly ? `/proc/${pid}/task/${pid}/stat` : `/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

function spawnNode(args: string[], env: Record<string, string>): ChildProcess {
  return spawn(NODE, args, { cwd: ROOT, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Resolves with the output so far once it matches `pattern`; rejects if the process exits first. */
function waitFor(child: ChildProcess, pattern: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    const look = (chunk: Buffer) => {
      output += chunk.toString();
      if (pattern.test(output)) resolve(output);
    };
    child.stdout!.on('data', look);
    child.stderr!.on('data', look);
    child.once('exit', (code) => reject(new Error(`exited with ${code} before ${pattern}: ${output.slice(-500)}`)));
  });
}

async function standIn(script: string): Promise<{ child: ChildProcess; url: string }> {
  const typeStripping = execFileSync(NODE, ['-p', 'Boolean(process.features.typescript)'], { encoding: 'utf8' }).trim() === 'true';
  const child = spawnNode(typeStripping ? [script] : ['--import', 'tsx', script], { PORT: '0' });
  const output = await waitFor(child, /http:\/\/127\.0\.0\.1:\d+/);
  return { child, url: output.match(/http:\/\/127\.0\.0\.1:\d+/)![0] };
}

interface Start {
  listenMs: number;
  cpuMs: number;
  mainThreadCpuMs: number;
  firstMs: number;
  firstCpuMs: number;
  againMs: number;
}

async function startOnce(args: string[], env: Record<string, string>): Promise<Start> {
  const spawnedAt = performance.now();
  const child = spawnNode(args, { PORT: '0', ...env });
  try {
    const output = await waitFor(child, /listening: http:\/\/localhost:(\d+)|"msg":"listening: http:\/\/localhost:(\d+)/);
    const listenMs = performance.now() - spawnedAt;
    const [cpu, mainThreadCpu] = [cpuMs(child.pid!), cpuMs(child.pid!, true)];
    const port = output.match(/listening: http:\/\/localhost:(\d+)/)![1];
    if (DELAY_MS > 0) await new Promise((resolve) => setTimeout(resolve, DELAY_MS));
    const ask = async () => {
      const [askedAt, cpuBefore] = [performance.now(), cpuMs(child.pid!)];
      const response = await fetch(`http://127.0.0.1:${port}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: QUERY });
      const body = (await response.json()) as { data?: { problem?: { translation?: { statement?: string } } } };
      if (!body.data?.problem?.translation?.statement) throw new Error(`unexpected answer: ${JSON.stringify(body).slice(0, 300)}`);
      return [performance.now() - askedAt, cpuMs(child.pid!) - cpuBefore];
    };
    const [firstMs, firstCpuMs] = await ask();
    const [againMs] = await ask();
    return { listenMs, cpuMs: cpu, mainThreadCpuMs: mainThreadCpu, firstMs: firstMs!, firstCpuMs: firstCpuMs!, againMs: againMs! };
  } finally {
    child.kill('SIGTERM');
    if (child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve));
  }
}

function minMedian(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  return `${Math.round(sorted[0]!).toLocaleString('en')} / ${Math.round(sorted[Math.floor(sorted.length / 2)]!).toLocaleString('en')} ms`;
}

async function measure(name: string, args: string[], env: Record<string, string>): Promise<void> {
  await startOnce(args, env);
  const starts: Start[] = [];
  for (let i = 0; i < STARTS; i++) starts.push(await startOnce(args, env));
  const column = (key: keyof Start) => minMedian(starts.map((start) => start[key]));
  console.log(
    `| ${name} | ${column('listenMs')} | ${column('cpuMs')} | ${column('mainThreadCpuMs')} | ${column('firstMs')} | ${column('firstCpuMs')} | ${column('againMs')} |`,
  );
}

const version = execFileSync(NODE, ['--version'], { encoding: 'utf8' }).trim();
const typeStripping = execFileSync(NODE, ['-p', 'Boolean(process.features.typescript)'], { encoding: 'utf8' }).trim() === 'true';
execFileSync(NODE, [`${ROOT}node_modules/typescript/bin/tsc`, '-p', 'tsconfig.build.json'], { cwd: ROOT, stdio: 'inherit' });
console.log(`Node ${version}, ${STARTS} starts each (min / median), first query ${DELAY_MS > 0 ? `${DELAY_MS} ms after listening` : 'at once'}\n`);
console.log('| entry | listen (wall) | CPU to listen | main thread | first query | its CPU | same query again |');
console.log('|---|---|---|---|---|---|---|');
await measure(`npm start (${typeStripping ? 'type stripping' : 'tsx'})`, typeStripping ? ['src/cli/start.ts'] : ['--import', 'tsx', 'src/cli/start.ts'], {});
const upstreams = [await standIn('src/upstreams/problems/main.ts'), await standIn('src/upstreams/translation/main.ts')];
try {
  await measure('compiled', ['dist/src/cli/start.js'], { NODE_ENV: 'production', PROBLEMS_URL: upstreams[0]!.url, TRANSLATION_URL: upstreams[1]!.url });
} finally {
  for (const { child } of upstreams) child.kill('SIGTERM');
}
