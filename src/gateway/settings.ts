import { InvalidSetting, type SettingKind } from './settings/setting-kinds.ts';
import { SETTINGS, type GatewaySettings, type Setting } from './settings/setting-table.ts';

/**
 * The gateway's settings: read from the environment by an entry (`readSettings`), or given in code
 * to `createGateway` (`settingsFromOptions`). Both read the one table, settings/setting-table.ts,
 * where each setting's variable, kind, bounds, default and doc are declared. A bad value stops
 * start-up with one line naming the variable (and the option); a key's value is never echoed.
 */
export type { GatewaySettings };
export { SETTINGS, SETTING_GROUPS } from './settings/setting-table.ts';
export { settingsVariables, unknownVariableLine, unknownVariables, type UnknownVariable } from './settings/misspelt-variables.ts';

/** A setting that cannot be used; `message` is one line that names the variable. */
export class SettingsError extends Error {
  readonly variable: string;

  constructor(variable: string, message: string) {
    super(`${variable}: ${message}`);
    this.variable = variable;
    this.name = 'SettingsError';
  }
}

type Env = Record<string, string | undefined>;
type Name = keyof typeof SETTINGS;
/** Where each setting's value came from, for the one line that refuses it. */
type Given = { option: string; value: unknown } | { text: string } | undefined;

const NAMES = Object.keys(SETTINGS) as Name[];

/** The settings held by `env`: an entry passes the process environment, once; the library never reads it itself. */
export function readSettings(env: Env): GatewaySettings {
  return settingsFromOptions({}, env);
}

/**
 * Settings given as an options object (embedding), each value checked as it is, by the same kind
 * that reads its variable; options win over `env`, which holds variables to start from (an entry's
 * environment; nothing by default: library code never reads the process's environment). A bad
 * option fails with one line naming the option and its variable; an option given as undefined,
 * null or '' is not given.
 */
export function settingsFromOptions(options: Partial<GatewaySettings> = {}, env: Env = {}): GatewaySettings {
  for (const option of Object.keys(options)) {
    if (!Object.hasOwn(SETTINGS, option)) throw new SettingsError(option, 'is not a gateway setting');
  }
  const givenOf = (name: Name): Given => {
    const value = (options as Record<string, unknown>)[name];
    // An empty string is not given, as an empty variable is not set.
    if (value !== undefined && value !== null && value !== '') return { option: name, value };
    const text = env[SETTINGS[name].variable]?.trim();
    return text ? { text } : undefined;
  };
  const settings: Record<string, unknown> = {};
  // Defaults that depend on NODE_ENV come last, once it is read.
  const [dependent, plain] = partition(NAMES, (name) => typeof SETTINGS[name].default === 'function');
  for (const name of plain) settings[name] = valueOf(SETTINGS[name], givenOf(name), undefined);
  for (const name of dependent) settings[name] = valueOf(SETTINGS[name], givenOf(name), settings as { production: boolean });
  return settings as GatewaySettings;
}

/**
 * A setting's default, as the table declares it: for a lower-level function that takes the setting's
 * value as an option of its own, so that a direct caller (a test, an embedding app) may leave it out
 * and still get the default the gateway uses, never a second literal. Settings whose default depends
 * on NODE_ENV have none to give here.
 */
export function defaultOf<N extends Name>(name: N): GatewaySettings[N] {
  const fallback = SETTINGS[name].default;
  if (typeof fallback === 'function') throw new Error(`${name}: its default depends on the production setting`);
  return fallback as GatewaySettings[N];
}

function valueOf(setting: Setting, given: Given, sofar: { production: boolean } | undefined): unknown {
  if (given === undefined) return typeof setting.default === 'function' ? setting.default(sofar!) : setting.default;
  const kind = setting.kind as SettingKind<unknown>;
  try {
    return 'text' in given ? kind.fromText(given.text) : kind.fromValue(given.value);
  } catch (error) {
    if (!(error instanceof InvalidSetting)) throw error;
    if ('text' in given) throw new SettingsError(setting.variable, error.message);
    throw new SettingsError(given.option, `${error.message} (option ${given.option}, variable ${setting.variable})`);
  }
}

function partition<T>(items: T[], test: (item: T) => boolean): [T[], T[]] {
  return [items.filter(test), items.filter((item) => !test(item))];
}
