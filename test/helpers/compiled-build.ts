import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PROJECT_ROOT } from './run-command.ts';

const run = promisify(execFile);
const BUILDS = join(PROJECT_ROOT, 'test-artifacts/compiled');
/** What `tsc -p tsconfig.build.json` reads: a change to any of it is another build. */
const INPUTS = ['tsconfig.json', 'tsconfig.build.json', 'package.json'];
/** A build that holds its lock this long has died with its worker: the next one takes over. */
const STALE_LOCK_MS = 10 * 60 * 1000;

let building: Promise<string> | undefined;

/**
 * The package compiled as production runs it (`tsc -p tsconfig.build.json`), into a folder that links
 * the package's other files (package.json, node_modules, .meshrc.yaml, sources, src), so that no test
 * reads `dist/` while another rewrites it. Every test file that runs the compiled entry shares the one
 * build: it is named after a digest of its inputs, so workers asking at once wait for one tsc, and a
 * later run over the same sources builds nothing. Returns the folder (`<folder>/dist/src/cli/start.js`).
 */
export function compiledBuild(): Promise<string> {
  return (building ??= buildOnce().catch((error: unknown) => {
    building = undefined;
    throw error;
  }));
}

async function buildOnce(): Promise<string> {
  const folder = join(BUILDS, await inputsDigest());
  const done = join(folder, '.built');
  const lock = `${folder}.lock`;
  await mkdir(BUILDS, { recursive: true });
  for (;;) {
    if (existsSync(done)) return folder;
    if (await takeLock(lock)) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  try {
    if (existsSync(done)) return folder;
    // Builds of older sources go: only the latest is ever read again.
    for (const name of await readdir(BUILDS)) if (!name.endsWith('.lock') && join(BUILDS, name) !== folder) await rm(join(BUILDS, name), { recursive: true, force: true });
    await rm(folder, { recursive: true, force: true });
    await mkdir(folder);
    for (const entry of ['package.json', 'node_modules', '.meshrc.yaml', 'sources', 'src']) await symlink(join(PROJECT_ROOT, entry), join(folder, entry));
    // Emitted without type-checking (--noCheck): the files are the same as `npm run build` writes,
    // and `npm test` has type-checked the whole project (`tsc --noEmit`) before vitest starts; the
    // check is most of tsc's time.
    await run(process.execPath, [join(PROJECT_ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json', '--noCheck', '--outDir', join(folder, 'dist')], { cwd: PROJECT_ROOT });
    await writeFile(done, new Date().toISOString());
    return folder;
  } finally {
    await rm(lock, { recursive: true, force: true });
  }
}

/** mkdir is atomic: whoever creates the lock folder builds; a lock left by a dead worker is taken over. */
async function takeLock(lock: string): Promise<boolean> {
  try {
    await mkdir(lock);
    return true;
  } catch {
    const since = await stat(lock).then(
      (info) => Date.now() - info.mtimeMs,
      () => 0,
    );
    if (since > STALE_LOCK_MS) await rm(lock, { recursive: true, force: true });
    return false;
  }
}

async function inputsDigest(): Promise<string> {
  const hash = createHash('sha256');
  const files = [...INPUTS, ...(await readdir(join(PROJECT_ROOT, 'src'), { recursive: true })).map((name) => join('src', name))].sort();
  for (const file of files) {
    const path = join(PROJECT_ROOT, file);
    if (!(await stat(path)).isFile()) continue;
    hash.update(file).update('\0').update(await readFile(path)).update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}
