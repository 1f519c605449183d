import type { KeyValueStore } from '../../stores/key-value-store.ts';
import { withTimeout } from '../../../shared/with-timeout.ts';
import type { CuratedEntry, CuratedSet } from './curated-directory.ts';

/**
 * Curated translations shared through Redis (REDIS_URL): a replica that reads a curated directory
 * publishes its set under one key, `set` (with its version inside), and the version under `version`;
 * a replica without a directory follows what is published, reading the version every `intervalMs`
 * and the set only when the version changed. One key for the set, whatever the version, so a change
 * replaces the set in Redis rather than leaving the old one there for its TTL. So one replica (a job, an admin replica) may hold the
 * files and every replica serves them. Published keys live `ttlMs` and are written again at least
 * every `republishMs`: when no replica publishes any more, followers stop serving the set once it expires.
 */
export interface CuratedSharingOptions {
  store: KeyValueStore;
  /** How often a follower reads the version (TRANSLATION_CURATED_RESCAN_SECONDS, 30 s when that is 0). */
  intervalMs: number;
  /** @default 24 hours */
  ttlMs?: number;
  /** @default 10 minutes */
  republishMs?: number;
  /** How long one read or write may take. @default 2000 (a whole set may be some MiB) */
  timeoutMs?: number;
}

export interface CuratedPublisher {
  /** Publishes `set` (with its `version`) now; again every `republishMs` until the next call. */
  publish(set: CuratedSet, version: string): void;
  close(): void;
}

const VERSION_KEY = 'version';
/** Versions before this one kept each set under `set:<version>`: a key of its own, so neither reads the other's. */
const SET_KEY = 'set';

export function createCuratedPublisher({ store, ttlMs = 24 * 60 * 60 * 1000, republishMs = 10 * 60 * 1000, timeoutMs = 2000 }: CuratedSharingOptions): CuratedPublisher {
  let latest: { body: string; version: string } | undefined;
  const write = () => {
    if (!latest) return;
    const { body, version } = latest;
    // The set before the version naming it, so a follower never reads a version whose set is not there yet.
    void withTimeout(() => store.set(SET_KEY, body, ttlMs), timeoutMs)
      .then(() => withTimeout(() => store.set(VERSION_KEY, version, ttlMs), timeoutMs))
      .catch(() => undefined);
  };
  const timer = setInterval(write, republishMs);
  timer.unref();
  return {
    publish(set, version) {
      latest = { body: JSON.stringify({ version, entries: [...set.values()].flatMap((languages) => [...languages.values()]) }), version };
      write();
    },
    close: () => clearInterval(timer),
  };
}

/** Follows the published set: `onReceived` with each new one (an empty set once none is published). */
export function followCuratedSet({ store, intervalMs, timeoutMs = 2000 }: CuratedSharingOptions, onReceived: (set: CuratedSet, version: string) => void): { check(): Promise<void>; close(): void } {
  let held = '';
  let checking: Promise<void> | undefined;
  const check = (): Promise<void> =>
    (checking ??= (async () => {
      const version = await withTimeout(() => store.get(VERSION_KEY), timeoutMs).then(
        (value) => value ?? '',
        () => null,
      );
      // A store that cannot answer keeps what is held: an outage of Redis is not the end of the set.
      if (version === null || version === held) return;
      if (version === '') {
        held = '';
        onReceived(new Map(), '');
        return;
      }
      const body = await withTimeout(() => store.get(SET_KEY), timeoutMs).catch(() => undefined);
      const published = body === undefined ? undefined : parseSet(body);
      if (!published) return;
      // The set may be newer than the version read (published between the two reads): it says its own.
      held = published.version;
      onReceived(published.set, published.version);
    })().finally(() => {
      checking = undefined;
    }));
  const timer = setInterval(() => void check(), intervalMs);
  timer.unref();
  return { check, close: () => clearInterval(timer) };
}

/** A published set and its version, or undefined when it is not one (another version's shape, a truncated value). */
function parseSet(body: string): { set: CuratedSet; version: string } | undefined {
  let published: { version?: unknown; entries?: unknown } | null;
  try {
    published = JSON.parse(body);
  } catch {
    return undefined;
  }
  const entries = published?.entries;
  const version = published?.version;
  if (!Array.isArray(entries) || typeof version !== 'string' || version === '') return undefined;
  const set = new Map<string, Map<string, CuratedEntry>>();
  for (const entry of entries as Partial<CuratedEntry>[]) {
    const { problemId, language, file, title, statement, sourceSha256, madeAt } = entry ?? {};
    if (![problemId, language, file, title, statement, sourceSha256].every((value) => typeof value === 'string') || typeof madeAt !== 'number') return undefined;
    let languages = set.get(problemId!);
    if (!languages) set.set(problemId!, (languages = new Map()));
    languages.set(language!, entry as CuratedEntry);
  }
  return { set, version };
}
