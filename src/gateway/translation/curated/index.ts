import type { Registry } from 'prom-client';
import type { KeyValueStore } from '../../stores/key-value-store.ts';
import type { GatewayLog } from '../../gateway-log.ts';
import { defaultOf, type GatewaySettings } from '../../settings.ts';
import { openCuratedDirectory } from './curated-directory.ts';
import { createCuratedPublisher, followCuratedSet } from './curated-sharing.ts';
import { createCuratedStore, type CuratedTranslations } from './curated-translations.ts';

export type { CuratedTranslations } from './curated-translations.ts';

export interface CuratedTranslationsSetup {
  translations: CuratedTranslations;
  /** Reads the directory (or the shared set) again now, as a change or the rescan would. */
  refresh(): Promise<void>;
  close(): void;
}

export interface CuratedTranslationsOptions {
  log: GatewayLog;
  /** The gateway's Prometheus registry. */
  registry?: Registry;
  /** With REDIS_URL: where replicas share the set (a KeyValueStore of its own namespace). */
  sharedStore?: KeyValueStore;
}

/**
 * The curated translations the settings ask for: those of TRANSLATION_CURATED_DIR, followed while
 * running (and published for the other replicas, with REDIS_URL); without a directory but with
 * REDIS_URL, those another replica publishes; else none (undefined).
 */
export async function startCuratedTranslations(
  settings: Pick<GatewaySettings, 'translationCuratedDir' | 'translationCuratedStale' | 'translationCuratedRescanSeconds'>,
  { log, registry, sharedStore }: CuratedTranslationsOptions,
): Promise<CuratedTranslationsSetup | undefined> {
  const dir = settings.translationCuratedDir;
  if (!dir && !sharedStore) return undefined;
  const store = createCuratedStore({ stale: settings.translationCuratedStale, log, registry });
  // How often the set shared through Redis is read and published: `0` means "the watcher only" for
  // the directory, and Redis has no watcher, so it keeps the default's pace there.
  const intervalMs = (settings.translationCuratedRescanSeconds || defaultOf('translationCuratedRescanSeconds')) * 1000;
  if (!dir) {
    const following = followCuratedSet({ store: sharedStore!, intervalMs }, (set) => store.load(set, { loaded: [...set.values()].reduce((sum, languages) => sum + languages.size, 0), invalid: 0 }));
    // Not awaited: a Redis that is slow or away must not hold start-up; the set arrives with the first answer.
    void following.check();
    return { translations: store, refresh: following.check, close: following.close };
  }
  const publisher = sharedStore ? createCuratedPublisher({ store: sharedStore, intervalMs }) : undefined;
  const directory = await openCuratedDirectory({
    dir,
    log,
    rescanMs: settings.translationCuratedRescanSeconds * 1000,
    onLoaded(set, counts) {
      store.load(set, counts);
      publisher?.publish(set, store.version);
    },
  });
  return {
    translations: store,
    refresh: directory.rescan,
    close() {
      directory.close();
      publisher?.close();
    },
  };
}
