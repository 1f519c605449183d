import { SETTINGS } from './setting-table.ts';

type Env = Record<string, string | undefined>;

/** Every variable the settings table declares. */
export function settingsVariables(): string[] {
  return Object.values(SETTINGS).map((setting) => setting.variable);
}

/**
 * Prefixes of standard variables the gateway also reads whose families belong to others: Node's
 * (NODE_OPTIONS, NODE_EXTRA_CA_CERTS…) and OpenTelemetry's (OTEL_SERVICE_NAME…) are not the gateway's
 * to question.
 */
const BORROWED_FAMILIES = new Set(['NODE', 'OTEL']);

export interface UnknownVariable {
  name: string;
  /** The known variable closest in spelling. */
  nearest: string;
}

/**
 * Variables of the gateway's own families (the first word of each known name: PROBLEMS_, RATE_,
 * MAX_…) that the gateway does not read, each with the nearest known name: a misspelt limit would
 * otherwise start with no word, its operator believing it set. Names in another case count too
 * (`rate_limit_requests`). Kubernetes' service links (`REDIS_SERVICE_HOST`, `REDIS_PORT`… for a
 * Service named redis) are the platform's, not a mistake. Values are never looked at.
 */
export function unknownVariables(env: Env, known: readonly string[] = settingsVariables()): UnknownVariable[] {
  const knownNames = new Set(known);
  const families = new Set(known.filter((name) => name.includes('_')).map(familyOf));
  for (const borrowed of BORROWED_FAMILIES) families.delete(borrowed);
  const unknown: UnknownVariable[] = [];
  for (const name of Object.keys(env)) {
    if (knownNames.has(name) || !families.has(familyOf(name.toUpperCase())) || isServiceLink(env, name)) continue;
    unknown.push({ name, nearest: nearestName(name.toUpperCase(), known) });
  }
  return unknown;
}

/** The line an entry prints for an unknown variable (its value is never shown: it may be a key). */
export function unknownVariableLine({ name, nearest }: UnknownVariable): string {
  return `${name} is not a variable the gateway reads; did you mean ${nearest}?`;
}

/**
 * The known name sharing most of `name`'s words (PROBLEMS_KEY: PROBLEMS_API_KEY rather than
 * PROBLEMS_URL, fewer letters away), then closest in spelling.
 */
function nearestName(name: string, known: readonly string[]): string {
  const words = name.split('_');
  let nearest = known[0];
  let best = [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY];
  for (const candidate of known) {
    const candidateWords = new Set(candidate.split('_'));
    const score = [words.filter((word) => !candidateWords.has(word)).length, editDistance(name, candidate)];
    if (score[0] < best[0] || (score[0] === best[0] && score[1] < best[1])) [nearest, best] = [candidate, score];
  }
  return nearest;
}

function familyOf(name: string): string {
  return name.split('_', 1)[0];
}

/** A variable Kubernetes sets for a Service `<X>` (`<X>_SERVICE_HOST` is always among them). */
function isServiceLink(env: Env, name: string): boolean {
  const match = /^([A-Z0-9_]+?)_(SERVICE_HOST|SERVICE_PORT(_\w+)?|PORT(_\d+_(TCP|UDP|SCTP)(_\w+)?)?)$/.exec(name);
  return match !== null && env[`${match[1]}_SERVICE_HOST`] !== undefined;
}

/** Edits (insert, delete, replace, swap two neighbours) from `a` to `b`. */
function editDistance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j += 1) rows[0][j] = j;
  for (let i = 1; i <= a.length; i += 1) {
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      rows[i][j] = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) rows[i][j] = Math.min(rows[i][j], rows[i - 2][j - 2] + 1);
    }
  }
  return rows[a.length][b.length];
}
