import { hash } from 'node:crypto';
import { Counter, Gauge, type Registry } from 'prom-client';
import { sha256Of, textDigest } from '../../../shared/hash.ts';
import type { GatewayLog } from '../../gateway-log.ts';
import type { CuratedEntry, CuratedSet } from './curated-directory.ts';

/** What to do with a curated translation made from an older statement (TRANSLATION_CURATED_STALE). */
export type StaleCuratedPolicy = 'serve' | 'machine';

/** A curated translation that may be served for a problem's statement as it is now. */
export interface ServableCurated {
  entry: CuratedEntry;
  /** Made from another statement than the problem's current one (served only under the `serve` policy). */
  stale: boolean;
}

export interface CuratedTranslations {
  /**
   * The curated translations of problem `id` that may be served for its current `statement`: the
   * fresh ones, and the stale ones too when the policy is `serve`. A stale one is reported (one log
   * line per file and statement, the stale gauge) whether or not it is served.
   */
  servable(id: string | undefined, statement: string): readonly ServableCurated[];
  /** Counts one curated translation served (gateway_translation_curated_served_total). */
  served(translation: ServableCurated): void;
  /** A digest of the set in force: equal on replicas serving the same files, new whenever one changes (response cache keys). */
  readonly version: string;
}

export interface CuratedTranslationsOptions {
  stale: StaleCuratedPolicy;
  log: GatewayLog;
  /** The gateway's registry, for the curated translations' metrics. */
  registry?: Registry;
}

/** The curated set in force, replaced whole by `load`, and what serving it needs. */
export interface CuratedStore extends CuratedTranslations {
  load(set: CuratedSet, counts: { loaded: number; invalid: number }): void;
  /** The set in force. */
  readonly set: CuratedSet;
}

const NONE: readonly ServableCurated[] = Object.freeze([]);
/** Stale findings remembered, so each is logged once; forgotten (and logged again) past this many. */
const MAX_REPORTED = 10_000;

/** The SHA-256 a curated file's `source_sha256` names: of the statement's UTF-8 bytes, in hex, as `sha256sum` prints it. */
export function statementSha256(statement: string): string {
  return hash('sha256', statement, 'hex');
}

export function createCuratedStore({ stale: policy, log, registry }: CuratedTranslationsOptions): CuratedStore {
  let set: CuratedSet = new Map();
  let counts = { loaded: 0, invalid: 0 };
  let version = '';
  const reported = new Set<string>();
  const staleFiles = new Set<string>();
  const registers = registry ? [registry] : [];
  const servedTotal = new Counter({
    name: 'gateway_translation_curated_served_total',
    help: 'Curated translations served (Problem.translation), by whether they were made from an older statement (stale, served under TRANSLATION_CURATED_STALE=serve).',
    labelNames: ['stale'] as const,
    registers,
  });
  for (const isStale of ['false', 'true']) servedTotal.inc({ stale: isStale }, 0);
  new Gauge({
    name: 'gateway_translation_curated_files',
    help: 'Curated translation files: `loaded` served, `invalid` skipped (each named in a log line), `stale` found made from an older statement since they were loaded.',
    labelNames: ['state'] as const,
    registers,
    collect() {
      this.set({ state: 'loaded' }, counts.loaded);
      this.set({ state: 'invalid' }, counts.invalid);
      this.set({ state: 'stale' }, staleFiles.size);
    },
  });

  const report = (entry: CuratedEntry, now: string) => {
    staleFiles.add(entry.file);
    const finding = `${entry.file}\u0000${entry.sourceSha256}\u0000${now}`;
    if (reported.has(finding)) return;
    if (reported.size >= MAX_REPORTED) reported.clear();
    reported.add(finding);
    const outcome = policy === 'serve' ? 'still served, marked stale (TRANSLATION_CURATED_STALE=serve)' : 'replaced by a machine translation (TRANSLATION_CURATED_STALE=machine)';
    log(`curated translation ${entry.file} is stale: made from a statement with SHA-256 ${entry.sourceSha256}, the problem's statement now has ${now}; ${outcome}`, 'warn');
  };

  return {
    get set() {
      return set;
    },
    get version() {
      return version;
    },
    load(next, nextCounts) {
      set = next;
      counts = nextCounts;
      version = versionOf(next);
      // Findings of the files as they were: a file rewritten for the new statement is no longer stale.
      staleFiles.clear();
      reported.clear();
    },
    servable(id, statement) {
      const languages = id === undefined ? undefined : set.get(id);
      if (!languages) return NONE;
      const now = statementSha256(statement);
      const servable: ServableCurated[] = [];
      for (const entry of languages.values()) {
        const isStale = entry.sourceSha256 !== now;
        if (isStale) report(entry, now);
        if (!isStale || policy === 'serve') servable.push({ entry, stale: isStale });
      }
      return servable;
    },
    served({ stale: isStale }) {
      servedTotal.inc({ stale: String(isStale) });
    },
  };
}

/** What tells one set from another: every entry's file, what it was made from and when, and its texts. */
function versionOf(set: CuratedSet): string {
  const parts: string[] = [];
  for (const languages of set.values()) {
    for (const entry of languages.values()) parts.push(`${entry.file}:${entry.sourceSha256}:${entry.madeAt}:${textDigest(entry.title)}:${textDigest(entry.statement)}`);
  }
  return parts.length === 0 ? '' : sha256Of(...parts.sort());
}
