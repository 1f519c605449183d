/**
 * What one translation service accepts in a call, as far as the gateway has seen: texts per call,
 * characters per call (summed over its texts) and characters of one text. LibreTranslate deployments
 * set `--batch-limit` and `--char-limit` and answer 400 past them; the gateway learns both from
 * what it was accepted and refused, and sizes later calls to fit from the start.
 *
 * A 400 has many causes besides size (a burst of errors, a text the service cannot read), so a
 * refusal teaches a limit beyond its own request only when it names the limit (LibreTranslate's
 * "request (N) exceeds text limit (L)", N being the call's texts or characters), or when the
 * refusals of that moment are consistent with one: refused more than once at or above the bound, accepted below it in the same
 * moment, and nothing refused that the service had already accepted as large. A learned limit is
 * never below what the service accepted, and lasts LEARNED_LIMIT_TTL_MS: then calls go out at full
 * size again, and the limit is learned again if it still holds.
 */

import { ErrorCode, UpstreamError } from '../errors.ts';

/** How long a learned limit (or the published one) is trusted before it is tried again. */
export const LEARNED_LIMIT_TTL_MS = 10 * 60 * 1000;

/** The size of one call. */
export interface CallShape {
  texts: number;
  chars: number;
  /** Characters of its longest text. */
  longest: number;
}

/** Learned facts about one service (one TRANSLATION_URL), shared by every request of a gateway. */
export interface ServiceLimits {
  /** The largest call of each measure the service accepted. */
  ok: CallShape;
  /** The smallest of each measure it refused for that measure (Infinity: none seen). */
  bad: CallShape;
  /** When each of `bad` was learned (ms, `now()`), to expire it. */
  learnedAt: CallShape;
  /** `charLimit` of its GET /frontend/settings: undefined not asked yet, null absent or unlimited. */
  published?: number | null;
  /** When `published` was read; it expires from then. */
  publishedAt?: number;
  /** The clock of expiries. @default Date.now */
  now: () => number;
}

export function createServiceLimits({ now = Date.now }: { now?: () => number } = {}): ServiceLimits {
  return {
    ok: { texts: 0, chars: 0, longest: 0 },
    bad: { texts: Infinity, chars: Infinity, longest: Infinity },
    learnedAt: { texts: 0, chars: 0, longest: 0 },
    now,
  };
}

/** Drops the learned limits older than LEARNED_LIMIT_TTL_MS (and the published one, to be read again). */
export function expireLimits(limits: ServiceLimits): void {
  const now = limits.now();
  for (const measure of MEASURES) {
    if (limits.bad[measure] !== Infinity && now - limits.learnedAt[measure] >= LEARNED_LIMIT_TTL_MS) limits.bad[measure] = Infinity;
  }
  // Without a time of reading it was given (an embedding app's or a test's), not read: it stays.
  if (limits.published !== undefined && limits.publishedAt !== undefined && now - limits.publishedAt >= LEARNED_LIMIT_TTL_MS) limits.published = undefined;
}

/** A limit in force, for metrics: the most a call (or one text) may carry, and how long ago it was learned. */
export interface LimitInForce {
  limit: keyof CallShape | 'published_chars';
  value: number;
  ageSeconds: number;
}

export function limitsInForce(limits: ServiceLimits): LimitInForce[] {
  expireLimits(limits);
  const now = limits.now();
  const inForce: LimitInForce[] = MEASURES.filter((measure) => limits.bad[measure] !== Infinity).map((measure) => ({
    limit: measure,
    value: limits.bad[measure] - 1,
    ageSeconds: (now - limits.learnedAt[measure]) / 1000,
  }));
  if (typeof limits.published === 'number') inForce.push({ limit: 'published_chars', value: limits.published, ageSeconds: (now - (limits.publishedAt ?? now)) / 1000 });
  return inForce;
}

/** How calls are sized now: each measure's cap, and whether it is the service's limit known exactly. */
export interface CallCaps {
  texts: number;
  chars: number;
  /** Longest text one call may carry (longer texts are cut into parts). */
  longest: number;
  /**
   * Longest text known to pass the limits for sure is unknown; this is the length above which a text
   * is known to be refused (a setting, the published limit, or a text refused alone).
   */
  refusedAbove: number;
  /**
   * Whether `refusedAbove` is known to be a limit on size: false when it rests only on this flush's
   * refusals of texts alone while the service accepted no call of it. A service refusing every call,
   * the shortest text too, is failing (an outage answering 400), and no text is to blame.
   */
  refusedAboveProven: boolean;
  /** Whether any refusal is known: else every call is sized by the settings alone. */
  limited: boolean;
  /** Where the character cap comes from, for error messages. */
  charsFrom: 'setting' | 'published' | 'learned';
}

export interface LimitLearner<TRoot> {
  caps(): CallCaps;
  /** Whether a call of this shape is known to pass (the service accepted one at least as large). */
  knownToFit(shape: CallShape): boolean;
  accepted(shape: CallShape): void;
  /** Records a refusal (400) of a call carrying texts of these roots. */
  refused(shape: CallShape, roots: Iterable<TRoot>): void;
  /** A text was refused for itself (not for its size): refusals of calls carrying it prove no limit. */
  exclude(root: TRoot): void;
  /** The service named the limit of `measure` in a refusal: `limit` is the most it takes. */
  named(measure: keyof CallShape, limit: number): void;
  /** Drops every refusal of this flush: their cause was not size (a language the service does not offer). */
  forget(): void;
  /** Hands the refusals learned in this flush to the shared limits; returns the measures newly learned. */
  commit(): (keyof CallShape)[];
}

/**
 * The view of one request's flush: accepted calls are facts shared at once; refusals stay local until
 * the flush ends, since a refusal may turn out to be caused by one bad text (or an unsupported
 * language) rather than by size, and must then teach nothing.
 */
export function createLimitLearner<TRoot>(shared: ServiceLimits, settings: { maxTexts: number; maxChars?: number }): LimitLearner<TRoot> {
  const refusals: { shape: CallShape; roots: Set<TRoot> }[] = [];
  const excluded = new Set<TRoot>();
  let acceptedHere = 0;
  // Limits the service named in this flush, as the smallest size it refuses.
  let namedHere: Partial<CallShape> = {};

  const view = () => boundsInForce(shared, refusals, excluded, namedHere);

  return {
    caps() {
      const { ok, bad, published } = view();
      const texts = Math.min(settings.maxTexts, cap(ok.texts, bad.texts, settings.maxTexts));
      const learnedChars = cap(ok.chars, bad.chars, settings.maxChars ?? Infinity);
      const chars = Math.min(settings.maxChars ?? Infinity, learnedChars);
      const charsFrom = chars === settings.maxChars ? 'setting' : published !== undefined && chars === published ? 'published' : 'learned';
      const longest = Math.min(chars, cap(ok.longest, bad.longest, Infinity));
      const limited = bad.texts !== Infinity || bad.chars !== Infinity || bad.longest !== Infinity;
      const refusedAbove = Math.min(settings.maxChars ?? Infinity, published ?? Infinity, bad.longest - 1);
      const refusedAboveProven = !(refusedAbove === bad.longest - 1 && bad.longest < shared.bad.longest && acceptedHere === 0);
      return { texts, chars, longest, refusedAbove, refusedAboveProven, limited, charsFrom };
    },
    knownToFit(shape) {
      const { ok } = view();
      return shape.texts <= ok.texts && shape.chars <= ok.chars && shape.longest <= ok.longest;
    },
    accepted(shape) {
      acceptedHere += 1;
      for (const measure of MEASURES) {
        shared.ok[measure] = Math.max(shared.ok[measure], shape[measure]);
        // The service now takes more than it once refused: its limits were raised.
        if (shared.bad[measure] <= shared.ok[measure]) shared.bad[measure] = Infinity;
      }
    },
    refused(shape, roots) {
      refusals.push({ shape, roots: new Set(roots) });
    },
    exclude(root) {
      excluded.add(root);
    },
    named(measure, limit) {
      // Never below what the service accepted: a name that contradicts that is not believed.
      if (limit >= shared.ok[measure]) namedHere[measure] = Math.min(namedHere[measure] ?? Infinity, limit + 1);
    },
    forget() {
      refusals.length = 0;
      namedHere = {};
    },
    commit() {
      const { bad } = view();
      const learned: (keyof CallShape)[] = [];
      // Refused something no larger, in every measure, than what the service has accepted: whatever
      // caused these refusals (a burst of errors, a text it cannot read), it was not size.
      const known = shared.ok;
      const consistent = acceptedHere > 0 && !refusals.some(({ shape }) => MEASURES.every((measure) => shape[measure] <= known[measure]));
      for (const measure of MEASURES) {
        const repeated = consistent && refusals.filter(({ shape }) => shape[measure] >= bad[measure]).length >= 2;
        const value = namedHere[measure] ?? (repeated ? bad[measure] : Infinity);
        if (value < shared.bad[measure] && value > shared.ok[measure] && !(measure === 'chars' && shared.published != null && value === shared.published + 1)) {
          shared.bad[measure] = value;
          shared.learnedAt[measure] = shared.now();
          learned.push(measure);
        }
      }
      refusals.length = 0;
      acceptedHere = 0;
      namedHere = {};
      return learned;
    },
  };
}

/**
 * What is known of the service's limits in this flush: the shared facts (what it accepted, what it
 * refused, what it publishes), with this flush's refusals counted (those of excluded texts not) and the
 * limits the service named in them.
 */
function boundsInForce<TRoot>(shared: ServiceLimits, refusals: { shape: CallShape; roots: Set<TRoot> }[], excluded: Set<TRoot>, namedHere: Partial<CallShape>) {
  expireLimits(shared);
  const ok = { ...shared.ok };
  const bad = { ...shared.bad };
  const published = shared.published ?? undefined;
  if (published !== undefined) {
    ok.chars = Math.max(ok.chars, published);
    bad.chars = Math.min(bad.chars, published + 1);
  }
  const counted = refusals.filter(({ roots }) => ![...roots].some((root) => excluded.has(root)));
  // A text refused alone is over a limit on one text (or on the call, which it alone makes).
  for (const { shape } of counted) if (shape.texts === 1) bad.longest = Math.min(bad.longest, shape.chars);
  const sized = counted.filter(({ shape }) => shape.texts > 1 && shape.longest < bad.longest && !(published !== undefined && shape.chars > published));
  // Refusals that only one measure explains first; then the others, unless those already explain them.
  for (const { shape } of sized) {
    if (shape.texts <= ok.texts) bad.chars = Math.min(bad.chars, shape.chars);
    else if (shape.chars <= ok.chars) bad.texts = Math.min(bad.texts, shape.texts);
  }
  for (const { shape } of sized) {
    if (shape.texts <= ok.texts || shape.chars <= ok.chars || shape.texts >= bad.texts || shape.chars >= bad.chars) continue;
    // Either measure may be the cause: take it as characters, which also bounds texts of a size, and
    // lets a later refusal of a call with fewer characters than one that passed show a count limit.
    bad.chars = Math.min(bad.chars, shape.chars);
  }
  for (const measure of MEASURES) bad[measure] = Math.min(bad[measure], namedHere[measure] ?? Infinity);
  return { ok, bad, published };
}

const MEASURES = ['texts', 'chars', 'longest'] as const;

/** The failure of a text the service refused though no call was accepted (CallCaps.refusedAboveProven false): the service's, not the text's. */
export function everyCallRefused(cause?: unknown): UpstreamError {
  return new UpstreamError(
    'The translation service refused every call of this request (HTTP 400), the shortest texts too: it is failing, not refusing these texts for their length.',
    { code: ErrorCode.UpstreamBadRequest, service: 'translation', status: 400 },
    cause,
  );
}

/**
 * The limit a refusal names, in LibreTranslate's words ("request (N) exceeds text limit (L)", for
 * its batch limit and its character limit alike): which measure is told by N, the call's texts or
 * its characters; a message that matches neither (or both) names nothing.
 */
export function limitNamedIn(message: string | undefined, shape: CallShape): { measure: 'texts' | 'chars'; limit: number } | undefined {
  const match = message && /\((\d+)\)\s*exceeds[^()]*\((\d+)\)/.exec(message);
  if (!match) return undefined;
  const size = Number(match[1]);
  const limit = Number(match[2]);
  if (!(limit < size) || (size === shape.texts) === (size === shape.chars)) return undefined;
  return { measure: size === shape.texts ? 'texts' : 'chars', limit };
}

/**
 * The size to try for one measure: the largest accepted when the limit lies just above it (within
 * 1/16, so a page does not pay many probes for the last few characters), else halfway between the
 * largest accepted and the smallest refused.
 */
function cap(ok: number, bad: number, max: number): number {
  if (bad === Infinity) return max;
  // Refused at or below what passed before: the service's limits went down; start again from nothing.
  const floor = ok >= bad ? 0 : ok;
  if (bad - floor <= Math.max(1, Math.floor(bad / 16))) return Math.max(1, floor);
  return Math.max(1, Math.floor((floor + bad) / 2));
}
