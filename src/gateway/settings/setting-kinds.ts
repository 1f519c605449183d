import { readLanguageTag } from '../../shared/language-tag.ts';

/**
 * The kinds of value a setting holds. Each reads a variable's text (`fromText`) and checks a value
 * given in code (`fromValue`); the text is first turned into the value it spells, then checked by
 * the same code, so an option and its variable accept the same things. A refusal is one line, with
 * no variable in it: the reader names the variable (or the option).
 */
export interface SettingKind<T> {
  /** The value's type as the README states it. */
  readonly type: string;
  /** The value the variable's text holds (trimmed, never empty). */
  fromText(text: string): T;
  /** A value given in code, as it is: never re-read from a string. */
  fromValue(value: unknown): T;
}

/** Why a value cannot be used, in one line that names no variable. */
export class InvalidSetting extends Error {}

/** Values are quoted cut short: a refused value may be long. */
const quoted = (value: unknown) => `"${String(value).slice(0, 40)}"`;

/** Node's timers hold at most 2^31 - 1 ms; a larger value would fire at once. */
export const MAX_TIMER_MS = 2_147_483_647;

function kind<T>(type: string, fromValue: (value: unknown) => T, parse: (text: string) => unknown = (text) => text): SettingKind<T> {
  return { type, fromValue, fromText: (text) => fromValue(parse(text)) };
}

export function integer(min: number, max = Number.MAX_SAFE_INTEGER): SettingKind<number> {
  const range = max === Number.MAX_SAFE_INTEGER ? `${min} or more` : `from ${min} to ${max}`;
  const refuse = (given: unknown) => new InvalidSetting(`expected a whole number ${range}, got ${quoted(given)}`);
  return kind(
    `whole number, ${range}`,
    (value) => {
      if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) throw refuse(value);
      return value;
    },
    (text) => {
      if (!/^\d+$/.test(text)) throw refuse(text);
      return Number(text);
    },
  );
}

/** A number of at most three decimals (milliseconds, when it counts seconds). */
export function decimal(min: number, max: number): SettingKind<number> {
  const refuse = (given: unknown) => new InvalidSetting(`expected a number from ${min} to ${max} (at most three decimals), got ${quoted(given)}`);
  return kind(
    `number, ${min} to ${max}, three decimals at most`,
    (value) => {
      if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max || Math.round(value * 1000) !== value * 1000) throw refuse(value);
      return value;
    },
    (text) => {
      if (!/^\d+(\.\d{1,3})?$/.test(text)) throw refuse(text);
      return Number(text);
    },
  );
}

export const port: SettingKind<number> = (() => {
  const refuse = (given: unknown) => new InvalidSetting(`expected a port number from 0 to 65535, got ${quoted(given)}`);
  return kind(
    'port, 0 to 65535',
    (value) => {
      if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 65535) throw refuse(value);
      return value;
    },
    (text) => {
      if (!/^\d+$/.test(text)) throw refuse(text);
      return Number(text);
    },
  );
})();

const TRUE_WORDS = ['1', 'true', 'yes', 'on'];
const FALSE_WORDS = ['0', 'false', 'no', 'off'];

export const boolean: SettingKind<boolean> = kind(
  'true or false',
  (value) => {
    if (typeof value !== 'boolean') throw new InvalidSetting(`expected true or false, got ${quoted(value)}`);
    return value;
  },
  (text) => {
    const word = text.toLowerCase();
    return TRUE_WORDS.includes(word) ? true : FALSE_WORDS.includes(word) ? false : word;
  },
);

function aString(value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') throw new InvalidSetting(`expected a non-empty string, got ${quoted(value)}`);
  return value.trim();
}

/** A file or directory path, read where it is used (a bad one stops start-up there, naming the variable). */
export const path: SettingKind<string> = kind('path', aString);

/** A key sent upstream as a Bearer header: no spaces or commas (it would split the header or the list). */
export const secret: SettingKind<string> = kind('key', (value) => {
  const key = aString(value);
  // The value is not echoed: it is a key.
  if (/[\s,]/.test(key)) throw new InvalidSetting('a key may not contain spaces or commas');
  return key;
});

/** A list given as comma-separated text, or as an array in code. */
function list<T>(type: string, check: (items: string[]) => T): SettingKind<T> {
  return kind(
    type,
    (value) => {
      if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) throw new InvalidSetting(`expected a list of strings, got ${quoted(value)}`);
      return check(value.map((item: string) => item.trim()));
    },
    (text) => text.split(',').map((item) => item.trim()),
  );
}

/** Keys clients present (GATEWAY_API_KEYS). */
export const keys: SettingKind<string[]> = list('comma-separated keys', (items) => {
  if (items.some((item) => item === '' || /\s/.test(item))) throw new InvalidSetting('expected comma-separated keys with no empty entries or spaces');
  return items;
});

/** Most languages one list may name: each is a walk over the whole catalogue. */
const MAX_LISTED_LANGUAGES = 50;

/** Language tags (BCP 47, any case), each once, in BCP 47's usual case; empty entries are skipped. */
export const languages: SettingKind<string[]> = list('comma-separated language tags', (items) => {
  const canonical = items
    .filter((item) => item !== '')
    .map((item) => {
      const tag = readLanguageTag(item);
      if (!tag) throw new InvalidSetting(`expected comma-separated language tags such as es,fr,pt-BR, got ${quoted(item)}`);
      return tag.canonical;
    });
  const distinct = [...new Set(canonical)];
  if (distinct.length > MAX_LISTED_LANGUAGES) throw new InvalidSetting(`at most ${MAX_LISTED_LANGUAGES} languages, got ${distinct.length}`);
  return distinct;
});

/** One language tag (BCP 47, any case), in BCP 47's usual case. */
export const language: SettingKind<string> = kind('language tag', (value) => {
  const tag = typeof value === 'string' ? readLanguageTag(value) : undefined;
  if (!tag) throw new InvalidSetting(`expected a language tag such as en or pt-BR, got ${quoted(value)}`);
  return tag.canonical;
});

/** Browser origins allowed by CORS, or `*` for any. */
export const origins: SettingKind<string[] | '*'> = (() => {
  const originsOf = list('"*" or comma-separated origins', (items) =>
    items.map((item) => {
      let url: URL | undefined;
      try {
        url = new URL(item);
      } catch {
        url = undefined;
      }
      if (!url || !['http:', 'https:'].includes(url.protocol) || url.origin !== item.replace(/\/$/, '')) {
        throw new InvalidSetting(`expected "*" or comma-separated origins such as https://app.example.com, got ${quoted(item)}`);
      }
      return url.origin;
    }),
  );
  return {
    type: originsOf.type,
    fromText: (text) => (text === '*' ? '*' : originsOf.fromText(text)),
    fromValue: (value) => (value === '*' ? '*' : originsOf.fromValue(value)),
  };
})();

export function choice<const T extends string>(choices: readonly T[]): SettingKind<T> {
  return kind(
    choices.join(' or '),
    (value) => {
      const word = typeof value === 'string' ? value.toLowerCase() : value;
      if (!(choices as readonly unknown[]).includes(word)) throw new InvalidSetting(`expected ${choices.join(' or ')}, got ${quoted(value)}`);
      return word as T;
    },
  );
}

/** A URL of one of `protocols`. Never echoed: a URL may carry credentials (redis://:password@host). */
export function url(protocols: string[]): SettingKind<string> {
  return kind(`${protocols.join(' or ')} URL`, (value) => {
    const raw = aString(value);
    let parsed: URL;
    try {
      parsed = new URL(raw);
    } catch {
      throw new InvalidSetting(`not a valid URL (expected ${protocols.join(' or ')}//host[:port])`);
    }
    if (!protocols.includes(parsed.protocol)) throw new InvalidSetting(`expected a ${protocols.join(' or ')} URL, got one with "${parsed.protocol}"`);
    return raw;
  });
}

/**
 * A base URL the gateway appends paths to: http(s) only, no trailing slash. If a user gives the full
 * endpoint (`…/graphql` for PROBLEMS_URL) the suffix is dropped rather than doubled.
 */
export function baseUrl(endpointSuffix?: string): SettingKind<string> {
  const httpUrl = url(['http:', 'https:']);
  return kind('http or https base URL', (value) => {
    const raw = httpUrl.fromValue(value);
    const parsed = new URL(raw);
    if (parsed.search || parsed.hash) throw new InvalidSetting('a base URL takes no query string or fragment');
    const base = raw.replace(/\/+$/, '');
    return endpointSuffix && base.endsWith(endpointSuffix) ? base.slice(0, -endpointSuffix.length) : base;
  });
}

/** A Redis key prefix: printable, no spaces (keys are read in redis-cli and SCAN patterns). */
export const keyPrefix: SettingKind<string> = kind('1 to 100 letters, digits or . _ : - { }', (value) => {
  if (typeof value !== 'string' || !/^[A-Za-z0-9._:{}-]{1,100}$/.test(value)) {
    throw new InvalidSetting(`expected 1 to 100 letters, digits or . _ : - { }, got ${quoted(value)}`);
  }
  return value;
});

/** TRUST_PROXY: `true` (one proxy), `false`, or the number of proxies. */
export const proxies: SettingKind<boolean | number> = (() => {
  const count = integer(0, 10);
  return {
    type: 'true, false or a number of proxies (0 to 10)',
    fromText: (text) => (/^\d+$/.test(text) ? count.fromText(text) : boolean.fromText(text)),
    fromValue: (value) => (typeof value === 'number' ? count.fromValue(value) : boolean.fromValue(value)),
  };
})();

/** NODE_ENV, as the one thing the gateway asks of it: production or not. In code, a boolean. */
export const production: SettingKind<boolean> = {
  type: '`production` or another word',
  fromText: (text) => text === 'production',
  fromValue: boolean.fromValue,
};
