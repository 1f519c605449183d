import type { Redis } from 'ioredis';
import { sha256Of } from '../../shared/hash.ts';
import type { RedisConnection } from '../redis/redis-connection.ts';
import type { MadeTranslation, MadeTranslationsStore } from './made-translations.ts';

export interface RedisMadeTranslationsOptions {
  /** `REDIS_PREFIX`: what every key starts with. */
  prefix: string;
  /** Most keys in one MGET; a page asks for one per problem. @default 1000 */
  maxKeysPerRead?: number;
}

/**
 * One problem's languages in one Redis string, merged in Redis so that replicas noting languages of
 * the same problem at once lose none: entries of other texts (the problem changed) and past their
 * `until` are dropped, and the key lives as long as its longest entry. Stored as
 * `{"d": digest, "l": {"es": {"u": until, "f": source, "m": madeAt, "p": 1}}}`.
 * KEYS: one per entry; ARGV[1]: the writer's clock (ms); then, per key: digest, language, entry.
 */
const NOTE_SCRIPT = `
local now = tonumber(ARGV[1])
for i, key in ipairs(KEYS) do
  local digest, language = ARGV[3 * i - 1], ARGV[3 * i]
  local kept = { d = digest, l = {} }
  local raw = redis.call('GET', key)
  if raw then
    local ok, value = pcall(cjson.decode, raw)
    if ok and type(value) == 'table' and value.d == digest and type(value.l) == 'table' then
      for other, entry in pairs(value.l) do
        if type(entry) == 'table' and tonumber(entry.u) and tonumber(entry.u) > now then kept.l[other] = entry end
      end
    end
  end
  kept.l[language] = cjson.decode(ARGV[3 * i + 1])
  local last = 0
  for _, entry in pairs(kept.l) do
    if tonumber(entry.u) > last then last = tonumber(entry.u) end
  end
  if last > now then redis.call('SET', key, cjson.encode(kept), 'PX', math.ceil(last - now)) end
end
return 0
`;

type WithNoteScript = Redis & { gatewayNoteMadeTranslations(keyCount: number, ...keysThenArgs: (string | number)[]): Promise<number> };

interface StoredEntry {
  u: number;
  f?: string;
  m?: number;
  p?: 1;
}

/**
 * The problems' made translations shared by every replica (made-translations.ts). What a page asks
 * in one turn of the event loop, every problem of it, is read with one MGET, and what a page notes is
 * written with one script call: a listing of fifty problems costs one round trip, not fifty. Unbudgeted
 * like the curated set: a key per problem the catalogue holds, a small entry per language the service
 * offers, each gone when its translation's parts are. Reads and writes that fail are misses.
 */
export function createRedisMadeTranslations(redis: RedisConnection, { prefix, maxKeysPerRead = 1000 }: RedisMadeTranslationsOptions): MadeTranslationsStore {
  // Beside the translation cache's own keys: this indexes them.
  const keyOf = (key: string) => `${prefix}:translation:made:${sha256Of(key)}`;
  if (!('gatewayNoteMadeTranslations' in redis.client)) redis.client.defineCommand('gatewayNoteMadeTranslations', { lua: NOTE_SCRIPT });
  let reads: { key: string; resolve: (value: string | null) => void }[] | undefined;
  let writes: [key: string, digest: string, language: string, entry: string][] | undefined;

  const flushReads = () => {
    const batch = reads!;
    reads = undefined;
    const keys = [...new Set(batch.map(({ key }) => key))];
    const chunks: string[][] = [];
    for (let start = 0; start < keys.length; start += maxKeysPerRead) chunks.push(keys.slice(start, start + maxKeysPerRead));
    void Promise.all(chunks.map((chunk) => redis.run((client) => client.mget(chunk)).then((values) => chunk.map((key, index) => [key, values[index]] as const))))
      .then((found) => new Map(found.flat()))
      .catch(() => new Map<string, string | null>())
      .then((values) => {
        for (const { key, resolve } of batch) resolve(values.get(key) ?? null);
      });
  };
  const flushWrites = () => {
    const batch = writes!;
    writes = undefined;
    const args = batch.flatMap(([, digest, language, entry]) => [digest, language, entry]);
    void redis
      .run((client) => (client as WithNoteScript).gatewayNoteMadeTranslations(batch.length, ...batch.map(([key]) => key), Date.now(), ...args))
      .catch(() => undefined);
  };

  return {
    read(key, digest) {
      return new Promise<string | null>((resolve) => {
        if (!reads) {
          reads = [];
          // Once every field of the page has asked: the executor calls them all before the loop turns.
          setImmediate(flushReads);
        }
        reads.push({ key: keyOf(key), resolve });
      }).then((raw) => parseEntries(raw, digest));
    },
    write(key, digest, { language, sourceLanguage, madeAt, partial, until }) {
      const entry: StoredEntry = { u: until, ...(sourceLanguage ? { f: sourceLanguage } : {}), ...(madeAt !== null ? { m: madeAt } : {}), ...(partial ? { p: 1 as const } : {}) };
      if (!writes) {
        writes = [];
        setImmediate(flushWrites);
      }
      writes.push([keyOf(key), digest, language, JSON.stringify(entry)]);
    },
  };
}

/** A value of other texts, or another version's shape, holds nothing for these texts. */
function parseEntries(raw: string | null, digest: string): MadeTranslation[] {
  if (raw === null) return [];
  try {
    const value = JSON.parse(raw) as { d?: unknown; l?: Record<string, StoredEntry> };
    if (value?.d !== digest || !value.l || typeof value.l !== 'object') return [];
    const entries: MadeTranslation[] = [];
    for (const [language, entry] of Object.entries(value.l)) {
      if (typeof entry?.u !== 'number') continue;
      entries.push({
        language,
        sourceLanguage: typeof entry.f === 'string' ? entry.f : null,
        madeAt: typeof entry.m === 'number' ? entry.m : null,
        partial: entry.p === 1,
        until: entry.u,
      });
    }
    return entries;
  } catch {
    return [];
  }
}
