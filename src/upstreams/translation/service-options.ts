/** The stand-in's options: what each changes, their defaults, and how a change is checked and applied. */

export interface RateLimit {
  /** Requests allowed in one window, counted over all callers. */
  requests: number;
  /** Length of the sliding window, in milliseconds. */
  windowMs: number;
}

export interface TranslationServiceOptions {
  /**
   * Key callers must present, as `Authorization: Bearer <key>` or as `api_key` in the body;
   * anything else gets 403. Unset: every caller is accepted.
   * @default undefined
   */
  apiKey?: string;
  /**
   * Answer GET /languages without a key, as a stock LibreTranslate does (it checks the key only where
   * it translates or detects). @default false
   */
  languagesWithoutKey?: boolean;
  /** Longest text accepted, in characters, for each text of `q`. @default 5000 */
  maxTextLength?: number;
  /** Most texts accepted in one array `q`. @default 200 (LibreTranslate's own batch limit is off by default) */
  maxBatchSize?: number;
  /**
   * LibreTranslate's `--batch-limit`: most texts in one request; over it → 400 "Invalid request:
   * request (N) exceeds text limit (L)". Unset (LibreTranslate's -1): off. @default undefined
   */
  batchLimit?: number;
  /**
   * LibreTranslate's `--char-limit`: most characters in one request, summed over an array `q`; over it
   * → 400 with the same message. Published as `charLimit` by GET /frontend/settings. Unset: off. @default undefined
   */
  charLimit?: number;
  /** Serve GET /frontend/settings, as LibreTranslate does; false → 404, as a service without it. @default true */
  frontendSettings?: boolean;
  /** Requests allowed per window; over it → 429 with `Retry-After`. Unset: no limit. @default undefined */
  rateLimit?: RateLimit;
  /** Largest request body, in bytes; bigger → 413. @default 2097152 (2 MiB) */
  maxBodyBytes?: number;
  /** Clock for the rate limit, in milliseconds; tests pass a fake one. @default Date.now */
  now?: () => number;
  /**
   * Inputs the model raises on, as LibreTranslate's does on some texts: a POST /translate whose `q`
   * holds a text containing one of these answers 500 `{"error":"Cannot translate text: …"}`, the
   * whole call failing with it (as LibreTranslate fails a batch). Empty strings are ignored. @default none
   */
  untranslatable?: readonly string[];
}

export type ResolvedTranslationServiceOptions = Required<Omit<TranslationServiceOptions, 'apiKey' | 'rateLimit' | 'batchLimit' | 'charLimit'>> &
  Pick<TranslationServiceOptions, 'apiKey' | 'rateLimit' | 'batchLimit' | 'charLimit'>;

/** The options of a service given none. */
export function defaultOptions(): ResolvedTranslationServiceOptions {
  return {
    apiKey: undefined,
    languagesWithoutKey: false,
    maxTextLength: 5000,
    maxBatchSize: 200,
    batchLimit: undefined,
    charLimit: undefined,
    frontendSettings: true,
    rateLimit: undefined,
    maxBodyBytes: 2 * 1024 * 1024,
    now: Date.now,
    untranslatable: [],
  };
}

/** Applies `partial` to `options` in place, all of it or (when a value is invalid: TypeError) none of it. */
export function applyOptions(options: ResolvedTranslationServiceOptions, partial: Partial<TranslationServiceOptions>): void {
  const next = { ...options };
  for (const [key, value] of Object.entries(partial) as [keyof TranslationServiceOptions, unknown][]) {
    // Optional features switch off with an explicit undefined; the others keep their value.
    if (value !== undefined || key === 'apiKey' || key === 'rateLimit' || key === 'batchLimit' || key === 'charLimit') Object.assign(next, { [key]: value });
  }
  if (next.rateLimit) next.rateLimit = { ...next.rateLimit };
  if (Array.isArray(next.untranslatable)) next.untranslatable = [...next.untranslatable];
  validateOptions(next);
  Object.assign(options, next);
}

function validateOptions(options: ResolvedTranslationServiceOptions): void {
  const positive = (name: string, value: number) => {
    if (!Number.isInteger(value) || value < 1) throw new TypeError(`TranslationServiceOptions.${name} must be a positive integer, got ${value}`);
  };
  positive('maxTextLength', options.maxTextLength);
  positive('maxBatchSize', options.maxBatchSize);
  positive('maxBodyBytes', options.maxBodyBytes);
  if (options.batchLimit !== undefined) positive('batchLimit', options.batchLimit);
  if (options.charLimit !== undefined) positive('charLimit', options.charLimit);
  if (options.rateLimit) {
    positive('rateLimit.requests', options.rateLimit.requests);
    positive('rateLimit.windowMs', options.rateLimit.windowMs);
  }
  if (options.apiKey !== undefined && (typeof options.apiKey !== 'string' || options.apiKey === '')) {
    throw new TypeError('TranslationServiceOptions.apiKey must be a non-empty string when set');
  }
  if (!Array.isArray(options.untranslatable) || options.untranslatable.some((input) => typeof input !== 'string')) {
    throw new TypeError('TranslationServiceOptions.untranslatable must be an array of strings');
  }
}
