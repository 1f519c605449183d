import { watch, type FSWatcher } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { GatewayLog } from '../../gateway-log.ts';
import { SettingsError } from '../../settings.ts';
import { parseLanguageTag } from '../language-tags.ts';
import { MAX_CURATED_FILE_BYTES, parseCuratedFile, type CuratedFile } from './curated-file.ts';

/** One curated translation, as served. */
export interface CuratedEntry extends CuratedFile {
  problemId: string;
  /** The language its file name gives, in BCP 47's usual case (`pt-BR.md` → `pt-BR`). */
  language: string;
  /** Where it was read from, relative to the directory (`p1001/es.md`), for log lines. */
  file: string;
  /** When it was made: the file's `made_at`, else its modification time. */
  madeAt: number;
}

/** Problem id → language → translation. */
export type CuratedSet = ReadonlyMap<string, ReadonlyMap<string, CuratedEntry>>;

export interface CuratedDirectoryOptions {
  /** TRANSLATION_CURATED_DIR: `<dir>/<problem id>/<language>.md`. */
  dir: string;
  log: GatewayLog;
  /** TRANSLATION_CURATED_RESCAN_SECONDS in ms: the fallback for changes the file watcher misses (network volumes, some editors); 0 = watcher only. */
  rescanMs: number;
  /** How long changes settle before the directory is read again. @default 200 */
  debounceMs?: number;
  /** Follow changes with a file watcher too (the rescan alone when false). @default true */
  watch?: boolean;
  /** Told the whole set, at start and after every change that altered it. */
  onLoaded(set: CuratedSet, counts: { loaded: number; invalid: number }): void;
}

export interface CuratedDirectory {
  /** Reads the directory again now (what a change or the periodic rescan does). */
  rescan(): Promise<void>;
  close(): void;
}

interface Known {
  mtimeMs: number;
  size: number;
  outcome: CuratedEntry | { error: string };
}

/**
 * Reads again the files of `dir` (`<problem>/<language>.md`) whose size or modification time changed
 * since `known` saw them, and forgets those gone; a file that cannot be used is named in one log line.
 * Returns whether anything changed.
 */
async function scanDirectory(dir: string, known: Map<string, Known>, log: GatewayLog): Promise<boolean> {
  const seen = new Set<string>();
  let changed = false;
  for (const problem of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    if (!problem.isDirectory() || problem.name.startsWith('.')) continue;
    for (const file of await readdir(join(dir, problem.name), { withFileTypes: true }).catch(() => [])) {
      if (!file.isFile() || !file.name.endsWith('.md')) continue;
      const relative = `${problem.name}/${file.name}`;
      const path = join(dir, relative);
      const current = await stat(path).catch(() => undefined);
      if (!current) continue;
      seen.add(relative);
      const before = known.get(relative);
      if (before && before.mtimeMs === current.mtimeMs && before.size === current.size) continue;
      changed = true;
      const outcome = await readEntry(path, relative, problem.name, file.name.slice(0, -'.md'.length), current);
      known.set(relative, { mtimeMs: current.mtimeMs, size: current.size, outcome });
      if ('error' in outcome) log(`curated translation ${join(dir, relative)} skipped: ${outcome.error}`, 'warn');
    }
  }
  for (const relative of known.keys()) {
    if (seen.has(relative)) continue;
    known.delete(relative);
    changed = true;
  }
  return changed;
}

/** The usable files by problem and language, with how many were usable and how many not. */
function curatedSetOf(known: Map<string, Known>) {
  const set = new Map<string, Map<string, CuratedEntry>>();
  let invalid = 0;
  for (const { outcome } of known.values()) {
    if ('error' in outcome) {
      invalid += 1;
      continue;
    }
    let languages = set.get(outcome.problemId);
    if (!languages) set.set(outcome.problemId, (languages = new Map()));
    languages.set(outcome.language, outcome);
  }
  return { set, loaded: known.size - invalid, invalid };
}

/**
 * Serves a directory of curated translations, following it while running: a change seen by the
 * file watcher (debounced) or by the periodic rescan reads again only the files whose size or
 * modification time changed. A file that cannot be used is named in one log line, once per version
 * of it, and left out; the others are served. A missing directory at start stops start-up (a
 * setting to fix); one that goes away later serves nothing until it is back.
 */
export async function openCuratedDirectory({ dir, log, rescanMs, debounceMs = 200, watch: watching = true, onLoaded }: CuratedDirectoryOptions): Promise<CuratedDirectory> {
  const info = await stat(dir).catch(() => undefined);
  if (!info?.isDirectory()) throw new SettingsError('TRANSLATION_CURATED_DIR', `"${dir}" is not a directory the gateway can read`);
  const known = new Map<string, Known>();
  let scanning: Promise<void> | undefined;
  let again = false;
  let closed = false;

  const scan = () => scanDirectory(dir, known, log);
  const publish = () => {
    const { set, loaded, invalid } = curatedSetOf(known);
    onLoaded(set, { loaded, invalid });
    return { loaded, invalid, problems: set.size };
  };

  const rescan = (): Promise<void> => {
    if (scanning) {
      again = true;
      return scanning;
    }
    scanning = (async () => {
      do {
        again = false;
        if (await scan()) log(summaryLine(dir, publish()), 'info');
      } while (again && !closed);
    })().finally(() => {
      scanning = undefined;
    });
    return scanning;
  };

  await scan();
  log(summaryLine(dir, publish()), 'info');

  let settle: NodeJS.Timeout | undefined;
  const changed = () => {
    if (closed) return;
    clearTimeout(settle);
    settle = setTimeout(() => void rescan(), debounceMs);
    settle.unref();
  };
  const watcher = watching ? watchTree(dir, changed) : undefined;
  const timer = rescanMs > 0 ? setInterval(() => void rescan(), rescanMs) : undefined;
  timer?.unref();
  return {
    rescan,
    close() {
      closed = true;
      clearTimeout(settle);
      clearInterval(timer);
      watcher?.close();
    },
  };
}

/** What is served from the directory now, in one line: `curated translations: 3 files for 2 problems served from …`. */
function summaryLine(dir: string, { loaded, invalid, problems }: { loaded: number; invalid: number; problems: number }): string {
  const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;
  return `curated translations: ${plural(loaded, 'file')} for ${plural(problems, 'problem')} served from ${dir}${invalid > 0 ? ` (${invalid} skipped)` : ''}`;
}

/** A watcher of the directory and its problem folders; none where the platform cannot (the rescan then does the work). */
function watchTree(dir: string, changed: () => void): FSWatcher | undefined {
  for (const recursive of [true, false]) {
    try {
      const watcher = watch(dir, { recursive, persistent: false }, changed);
      // A watcher that fails later (the directory removed, too many watches) leaves the rescan to it.
      watcher.on('error', () => watcher.close());
      return watcher;
    } catch {
      // Recursive watching is not offered everywhere: try the directory alone, then none.
    }
  }
  return undefined;
}

async function readEntry(path: string, relative: string, problemId: string, name: string, info: { size: number; mtimeMs: number }): Promise<Known['outcome']> {
  const language = parseLanguageTag(name)?.canonical;
  if (!language) return { error: `its name "${name}" is not a language tag such as "es" or "pt-BR"` };
  if (info.size > MAX_CURATED_FILE_BYTES) return { error: `it is larger than ${MAX_CURATED_FILE_BYTES} bytes` };
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    return { error: `it could not be read (${(error as NodeJS.ErrnoException).code ?? 'error'})` };
  }
  const parsed = parseCuratedFile(text);
  if ('error' in parsed) return parsed;
  return { ...parsed, problemId, language, file: relative, madeAt: parsed.madeAt ?? Math.round(info.mtimeMs) };
}
