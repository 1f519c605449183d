import { SettingsError, type GatewaySettings } from '../gateway/settings.ts';
import type { StandIn } from '../upstreams/stand-ins.ts';
import type { EntryLog } from './entry-log.ts';

export const UPSTREAMS = [
  { name: 'problems', urlSetting: 'problemsUrl', keySetting: 'problemsApiKey', urlVariable: 'PROBLEMS_URL' },
  { name: 'translation', urlSetting: 'translationUrl', keySetting: 'translationApiKey', urlVariable: 'TRANSLATION_URL' },
] as const;

export type UpstreamName = (typeof UPSTREAMS)[number]['name'];

/** The upstreams that have no URL: each is a stand-in's to serve, or a refusal. */
export function upstreamsWithoutUrl(settings: GatewaySettings): UpstreamName[] {
  return UPSTREAMS.filter(({ urlSetting }) => !settings[urlSetting]).map(({ name }) => name);
}

/**
 * Whether stand-ins may replace the upstreams that have no URL. Refused with one line naming the
 * variables, before anything starts: in production (or with STAND_INS=false) a missing URL must stop
 * start-up rather than serve the stand-ins' fake data.
 */
export function standInsAllowed(settings: GatewaySettings): boolean {
  const allowed = settings.standIns ?? !settings.production;
  const missing = UPSTREAMS.filter(({ urlSetting }) => !settings[urlSetting]).map(({ urlVariable }) => urlVariable);
  if (missing.length > 0 && !allowed) {
    const why = settings.standIns === false ? 'STAND_INS=false' : 'in production (NODE_ENV=production) the gateway';
    throw new SettingsError(
      missing.join(', '),
      `not set, and ${why} runs no stand-ins with fake data: set ${missing.length > 1 ? "them to the services' base URLs" : "it to the service's base URL"} (or STAND_INS=true to run the local stand-ins on purpose)`,
    );
  }
  return allowed;
}

/**
 * Starts the stand-ins for the upstreams that have no URL (when allowed), both at once, and adds
 * each to `standIns` as soon as it listens, so a stop during start-up closes it.
 */
export async function startStandIns(settings: GatewaySettings, allowed: boolean, standIns: StandIn[]): Promise<Partial<Record<UpstreamName, StandIn>>> {
  const needed = upstreamsWithoutUrl(settings);
  if (!allowed || needed.length === 0) return {};
  const { startProblemsStandIn, startTranslationStandIn } = await import('../upstreams/stand-ins.ts');
  const starting = needed.map(async (name) => {
    const standIn = await (name === 'problems' ? startProblemsStandIn({ apiKey: settings.problemsApiKey }) : startTranslationStandIn({ apiKey: settings.translationApiKey }));
    standIns.push(standIn);
    return [name, standIn] as const;
  });
  const outcomes = await Promise.allSettled(starting);
  const failed = outcomes.find((outcome) => outcome.status === 'rejected');
  if (failed) throw failed.reason;
  return Object.fromEntries(outcomes.map((outcome) => (outcome as PromiseFulfilledResult<readonly [string, StandIn]>).value));
}

/**
 * Each upstream's URL and key as the gateway will call it, one line each: the URL set (printed with
 * no user or password), or the stand-in's URL and the key generated for the run.
 */
export function upstreamSettings(settings: GatewaySettings, started: Partial<Record<UpstreamName, StandIn>>, step: EntryLog): Partial<GatewaySettings> {
  const upstreams: Partial<GatewaySettings> = {};
  for (const { name, urlSetting, keySetting, urlVariable } of UPSTREAMS) {
    const url = settings[urlSetting];
    if (url) {
      step(`${name}: ${withoutCredentials(url)} (from ${urlVariable})`);
      continue;
    }
    const standIn = started[name];
    if (!standIn) continue;
    step(`${name}: local stand-in with fake data at ${standIn.url} (set ${urlVariable} to use a real service)`);
    // The stand-in's URL and key replace the unset ones; everything else is as read.
    Object.assign(upstreams, { [urlSetting]: standIn.url, [keySetting]: standIn.apiKey });
  }
  return upstreams;
}

/** A URL as it may be printed: user and password removed. */
function withoutCredentials(url: string): string {
  const parsed = new URL(url);
  parsed.username = '';
  parsed.password = '';
  return parsed.toString().replace(/\/$/, '');
}
