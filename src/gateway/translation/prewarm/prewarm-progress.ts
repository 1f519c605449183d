import { sha256Of } from '../../../shared/hash.ts';
import type { KeyValueStore } from '../../stores/key-value-store.ts';

/**
 * How far one language's walk over the catalogue has come, kept in the shared store so that a
 * restarted gateway, or another replica, goes on from there instead of from the start.
 */
export interface PrewarmProgress {
  /** When this walk began (ms since the epoch). */
  startedAt: number;
  /** Where the next page starts: the cursor the last page ended on (null: the first page). */
  cursor: string | null;
  /** Problems translated (or found cached), and those whose translation failed, in this walk. */
  done: number;
  failed: number;
  /** Translation calls this walk made, all replicas together. */
  calls: number;
  /** Problems in the catalogue, as the last page said. */
  total?: number;
  /** Digest of the catalogue's ids and texts walked so far, page after page. */
  chain: string;
  /** When the walk reached the end; absent while it goes on. */
  completedAt?: number;
  /** The chain of the last completed walk: unchanged means the catalogue's texts are as they were. */
  catalogue?: string;
  /** The most common code among this walk's failures, for the log line. */
  failure?: string;
}

export interface ProgressStore {
  read(language: string): Promise<PrewarmProgress | undefined>;
  write(language: string, progress: PrewarmProgress): Promise<void>;
}

/** Progress in `store` under one key per language, kept for `ttlMs` after the last write. */
export function createProgressStore(store: KeyValueStore, ttlMs: number): ProgressStore {
  const keyOf = (language: string) => `progress:${language}`;
  return {
    async read(language) {
      const raw = await store.get(keyOf(language));
      return raw === undefined ? undefined : parseProgress(raw);
    },
    write: (language, progress) => store.set(keyOf(language), JSON.stringify(progress), ttlMs),
  };
}

/** A new walk, remembering the fingerprint of the last completed one. */
export function newWalk(startedAt: number, previous: PrewarmProgress | undefined): PrewarmProgress {
  const catalogue = previous?.completedAt !== undefined ? previous.chain : previous?.catalogue;
  return { startedAt, cursor: null, done: 0, failed: 0, calls: 0, chain: '', ...(catalogue ? { catalogue } : {}) };
}

/** The chain after one more page of problem digests. */
export function chained(chain: string, digests: string[]): string {
  return sha256Of(chain, ...digests);
}

/** A record another version wrote in another shape is no progress, not a crash. */
function parseProgress(raw: string): PrewarmProgress | undefined {
  try {
    const value = JSON.parse(raw) as Partial<PrewarmProgress>;
    const counts = [value.startedAt, value.done, value.failed, value.calls].every((count) => typeof count === 'number' && Number.isFinite(count));
    if (!counts || (value.cursor !== null && typeof value.cursor !== 'string') || typeof value.chain !== 'string') return undefined;
    return value as PrewarmProgress;
  } catch {
    return undefined;
  }
}
