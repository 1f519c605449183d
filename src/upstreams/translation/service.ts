import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { applyFaults, createFaultSchedule, type TranslationFaults } from './faults.ts';
import { createTranslator, type TextFormat } from './translator.ts';

export type { BadBody, TranslationFaults } from './faults.ts';

/**
 * Local stand-in of the translation upstream: the LibreTranslate-compatible REST API described by
 * sources/translation/openapi.yaml, answered from a bundled glossary instead of a neural model.
 */

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

export interface RecordedRequest {
  method: string;
  path: string;
  /** Parsed body with `api_key` redacted; bodies over 64 KiB are summarised, not kept. */
  body: unknown;
}

export interface TranslationServiceStats {
  /** Every request received, whatever its outcome. */
  requests: number;
  /** Requests per known route, e.g. `'POST /translate': 3`. */
  byRoute: Record<string, number>;
  /** Texts translated successfully (an array `q` counts each element); faulted answers do not count. */
  translatedTexts: number;
  /** POST /translate calls answered 500 "Cannot translate text" for an `untranslatable` input. */
  cannotTranslate: number;
  /** Requests hit by a fault mode (`setFaults`), latency alone included. They count in `requests` too. */
  faulted: number;
  /** The latest requests, oldest first, at most 50. */
  lastRequests: RecordedRequest[];
}

export interface TranslationService {
  listener: RequestListener;
  /** Live counters, updated in place. */
  stats: TranslationServiceStats;
  /** Zeroes the counters (in place: references to `stats` stay valid). */
  resetStats(): void;
  /** The options in force; change them with `configure`. */
  readonly options: Readonly<ResolvedTranslationServiceOptions>;
  /** Changes options while running; keys present with `undefined` (apiKey, rateLimit) switch the feature off. */
  configure(partial: Partial<TranslationServiceOptions>): void;
  /**
   * Makes the service misbehave from the next request on, without a restart; `undefined` or `{}` clears.
   * Faults hit requests that reach a route (after 404, 405 and 413) before the API key, rate limit and
   * validation are checked: a broken upstream is broken for every caller. Each call restarts the
   * `everyNth` / `failFirst` counting. Throws TypeError on an invalid or empty-handed fault.
   */
  setFaults(faults: TranslationFaults | undefined): void;
  /** Serves normally again; same as `setFaults(undefined)`. */
  clearFaults(): void;
}

const ENGINE_HEADER = ['X-Translation-Engine', 'glossary-stand-in'] as const;
const MAX_RECORDED = 50;
const MAX_RECORDED_BODY_BYTES = 64 * 1024;

const ROUTES: Record<string, 'GET' | 'POST'> = { '/languages': 'GET', '/translate': 'POST', '/detect': 'POST', '/frontend/settings': 'GET' };
const ROUTE_NAMES = Object.entries(ROUTES).map(([path, method]) => `${method} ${path}`);

/** An answer to send: status, JSON body, extra headers. */
interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

const fail = (status: number, error: string, headers?: Record<string, string>): Reply => ({ status, body: { error }, headers });
const invalid = (message: string) => fail(400, `Invalid request: ${message}`);

/** Shows a caller-supplied value in an error message, quoted and cut short. */
const shown = (value: unknown) => JSON.stringify(String(value).slice(0, 32));

/** Length in characters (code points), as LibreTranslate counts it. */
function characters(text: string): number {
  let count = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff) count--;
  }
  return count;
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

/** Compares keys in constant time (hashing first makes the lengths equal). */
function sameKey(presented: unknown, expected: string): boolean {
  if (typeof presented !== 'string') return false;
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(presented), digest(expected));
}

type Body = { ok: true; value: Record<string, unknown> } | { ok: false; error: string };

function parseBody(raw: Buffer, contentType: string | undefined): Body {
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  const text = raw.toString('utf8').replace(/^\uFEFF/, '');
  if (type === 'application/json' || type.endsWith('+json') || (type === '' && text.trim().startsWith('{'))) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return { ok: false, error: 'the body is not valid JSON' };
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, error: 'the JSON body must be an object' };
    return { ok: true, value: value as Record<string, unknown> };
  }
  if (type === 'application/x-www-form-urlencoded' || (type === '' && text.trim() === '')) {
    // As LibreTranslate reads forms: one value per field; a repeated q becomes a batch.
    const params = new URLSearchParams(text);
    const value: Record<string, unknown> = {};
    for (const key of new Set(params.keys())) {
      const all = params.getAll(key);
      value[key] = key === 'q' && all.length > 1 ? all : all[0];
    }
    return { ok: true, value };
  }
  return { ok: false, error: `unsupported content type ${shown(type)}: send application/json or application/x-www-form-urlencoded` };
}

/** Reads the body up to `limit` bytes; past it, keeps draining the socket but drops the bytes. */
function readBody(req: IncomingMessage, limit: number): Promise<{ raw?: Buffer; tooLarge?: boolean; aborted?: boolean }> {
  return new Promise((resolve) => {
    if (Number(req.headers['content-length']) > limit) {
      req.resume();
      resolve({ tooLarge: true });
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (result: { raw?: Buffer; tooLarge?: boolean; aborted?: boolean }) => {
      if (!done) resolve(result);
      done = true;
    };
    req.on('data', (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > limit) {
        chunks.length = 0;
        finish({ tooLarge: true });
      } else chunks.push(chunk);
    });
    req.on('end', () => finish({ raw: Buffer.concat(chunks) }));
    req.on('error', () => finish({ aborted: true }));
    req.on('close', () => finish({ aborted: true }));
  });
}

function send(res: ServerResponse, { status, body, headers = {} }: Reply): void {
  const payload = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(payload),
    ...headers,
  });
  res.end(payload);
}

/** Creates the stand-in translation service. No side effects: nothing listens until you pass `listener` to a server. */
export function createTranslationService(initial: TranslationServiceOptions = {}): TranslationService {
  const options: ResolvedTranslationServiceOptions = {
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
  const configure = (partial: Partial<TranslationServiceOptions>) => {
    const next = { ...options };
    for (const [key, value] of Object.entries(partial) as [keyof TranslationServiceOptions, unknown][]) {
      // Optional features switch off with an explicit undefined; the others keep their value.
      if (value !== undefined || key === 'apiKey' || key === 'rateLimit' || key === 'batchLimit' || key === 'charLimit') Object.assign(next, { [key]: value });
    }
    if (next.rateLimit) next.rateLimit = { ...next.rateLimit };
    if (Array.isArray(next.untranslatable)) next.untranslatable = [...next.untranslatable];
    validateOptions(next);
    if ('rateLimit' in partial) admitted.length = 0;
    Object.assign(options, next);
  };
  const translator = createTranslator();
  /** Times of the requests admitted in the current rate-limit window, oldest first. */
  const admitted: number[] = [];
  configure(initial);

  const faults = createFaultSchedule(ROUTE_NAMES);

  const stats: TranslationServiceStats = { requests: 0, byRoute: {}, translatedTexts: 0, cannotTranslate: 0, faulted: 0, lastRequests: [] };
  const resetStats = () => {
    Object.assign(stats, { requests: 0, byRoute: {}, translatedTexts: 0, cannotTranslate: 0, faulted: 0 });
    stats.lastRequests.length = 0;
  };

  const record = (method: string, path: string, raw: Buffer | undefined, body: Body | undefined) => {
    let recorded: unknown;
    if (raw && raw.length > MAX_RECORDED_BODY_BYTES) recorded = { omitted: `body of ${raw.length} bytes` };
    else if (body?.ok) recorded = 'api_key' in body.value ? { ...body.value, api_key: '[redacted]' } : body.value;
    stats.lastRequests.push({ method, path, body: recorded });
    if (stats.lastRequests.length > MAX_RECORDED) stats.lastRequests.splice(0, stats.lastRequests.length - MAX_RECORDED);
  };

  /** Sliding-window limit over admitted requests; returns the 429 to send, if any. */
  const rateLimited = (): Reply | undefined => {
    const limit = options.rateLimit;
    if (!limit) return undefined;
    const now = options.now();
    while (admitted.length > 0 && admitted[0] <= now - limit.windowMs) admitted.shift();
    if (admitted.length < limit.requests) {
      admitted.push(now);
      return undefined;
    }
    const retryAfter = Math.max(1, Math.ceil((admitted[0] + limit.windowMs - now) / 1000));
    return fail(429, `Too many requests: at most ${limit.requests} per ${limit.windowMs} ms; retry after ${retryAfter} s`, {
      'Retry-After': String(retryAfter),
    });
  };

  const authorized = (req: IncomingMessage, body: Body | undefined): Reply | undefined => {
    const expected = options.apiKey;
    if (expected === undefined) return undefined;
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
    const fromBody = body?.ok ? body.value.api_key : undefined;
    if (bearer !== undefined && sameKey(bearer, expected)) return undefined;
    if (fromBody !== undefined && sameKey(fromBody, expected)) return undefined;
    return fail(403, bearer === undefined && fromBody === undefined ? 'Missing API key: send Authorization: Bearer <key> or api_key' : 'Invalid API key');
  };

  const translate = (body: Record<string, unknown>): Reply => {
    const { q, source, target, format = 'text' } = body;
    if (q === undefined || q === null || q === '') return invalid('missing q parameter');
    if (typeof q !== 'string' && !(Array.isArray(q) && q.every((text) => typeof text === 'string'))) {
      return invalid('q must be a string or an array of strings');
    }
    if (Array.isArray(q) && q.length === 0) return invalid('q must not be an empty array');
    if (Array.isArray(q) && q.length > options.maxBatchSize) {
      return invalid(`q has ${q.length} texts, over the batch limit of ${options.maxBatchSize} texts per request`);
    }
    // LibreTranslate checks its limits before the languages, with one message for both.
    if (Array.isArray(q) && options.batchLimit !== undefined && q.length > options.batchLimit) {
      return invalid(`request (${q.length}) exceeds text limit (${options.batchLimit})`);
    }
    if (options.charLimit !== undefined) {
      const chars = (Array.isArray(q) ? q : [q]).reduce((sum, text) => sum + characters(text), 0);
      if (chars > options.charLimit) return invalid(`request (${chars}) exceeds text limit (${options.charLimit})`);
    }
    if (source === undefined || source === null || source === '') return invalid('missing source parameter');
    if (target === undefined || target === null || target === '') return invalid('missing target parameter');
    if (typeof source !== 'string') return invalid('source must be a language code string');
    if (typeof target !== 'string') return invalid('target must be a language code string');
    if (source !== 'auto' && !translator.supports(source)) return invalid(`source language ${shown(source)} is not supported`);
    if (!translator.supports(target)) return invalid(`target language ${shown(target)} is not supported`);
    if (format !== 'text' && format !== 'html') return invalid(`format must be "text" or "html", got ${shown(format)}`);
    const texts: string[] = Array.isArray(q) ? q : [q];
    for (const [index, text] of texts.entries()) {
      const length = characters(text);
      if (length > options.maxTextLength) {
        const which = Array.isArray(q) ? `q[${index}]` : 'q';
        return invalid(`${which} has ${length} characters, over the text limit of ${options.maxTextLength} characters`);
      }
    }

    const raising = texts.find((text) => options.untranslatable.some((input) => input !== '' && text.includes(input)));
    if (raising !== undefined) {
      stats.cannotTranslate++;
      // LibreTranslate's words: `abort(500, description=_("Cannot translate text: %(text)s", text=str(e)))`.
      return fail(500, `Cannot translate text: the model failed on an input of ${characters(raising)} characters`);
    }
    const detections = source === 'auto' ? texts.map((text) => translator.detect(text, format as TextFormat)[0]) : undefined;
    const translated = texts.map((text, index) => translator.translate(text, detections?.[index].language ?? source, target, format as TextFormat));
    const result: Record<string, unknown> = { translatedText: Array.isArray(q) ? translated : translated[0] };
    if (detections) result.detectedLanguage = Array.isArray(q) ? detections : detections[0];
    return { status: 200, body: result };
  };

  const detect = (body: Record<string, unknown>): Reply => {
    const { q } = body;
    if (q === undefined || q === null || q === '') return invalid('missing q parameter');
    if (typeof q !== 'string') return invalid('q must be a string');
    const length = characters(q);
    if (options.charLimit !== undefined && length > options.charLimit) return invalid(`request (${length}) exceeds text limit (${options.charLimit})`);
    if (length > options.maxTextLength) return invalid(`q has ${length} characters, over the text limit of ${options.maxTextLength} characters`);
    return { status: 200, body: translator.detect(q) };
  };

  /** LibreTranslate's answer (its fields, -1 for no limit); it publishes no batch limit. */
  const frontendSettings = () => ({
    charLimit: options.charLimit ?? -1,
    frontendTimeout: 500,
    apiKeys: options.apiKey !== undefined,
    keyRequired: options.apiKey !== undefined,
    suggestions: false,
    filesTranslation: false,
    supportedFilesFormat: [],
    language: { source: { code: 'auto', name: 'Auto Detect' }, target: { code: 'es', name: 'Spanish' } },
  });

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    res.setHeader(...ENGINE_HEADER);
    stats.requests++;
    const method = req.method ?? 'GET';
    const path = (req.url ?? '/').split('?')[0];
    const allowed = ROUTES[path] && (path !== '/frontend/settings' || options.frontendSettings) ? ROUTES[path] : undefined;
    if (!allowed) {
      req.resume();
      return send(res, fail(404, `No such route: ${method} ${path.slice(0, 100)}`));
    }
    stats.byRoute[`${method} ${path}`] = (stats.byRoute[`${method} ${path}`] ?? 0) + 1;
    if (method !== allowed && !(allowed === 'GET' && method === 'HEAD')) {
      req.resume();
      return send(res, fail(405, `Method ${method} not allowed on ${path}: use ${allowed}`, { Allow: allowed === 'GET' ? 'GET, HEAD' : allowed }));
    }

    let raw: Buffer | undefined;
    let body: Body | undefined;
    if (allowed === 'POST') {
      const read = await readBody(req, options.maxBodyBytes);
      if (read.aborted) return;
      if (read.tooLarge) {
        record(method, path, undefined, undefined);
        return send(res, fail(413, `Request body over the limit of ${options.maxBodyBytes} bytes`, { Connection: 'close' }));
      }
      raw = read.raw!;
      body = parseBody(raw, req.headers['content-type']);
    } else req.resume();
    record(method, path, raw, body);

    const hit = faults.select(`${allowed} ${path}`);
    if (hit) {
      stats.faulted++;
      const shortArray = () => {
        if (path !== '/translate' || !body?.ok || !Array.isArray(body.value.q)) return undefined;
        const { status, body: result } = translate(body.value);
        return status === 200 ? (result as { translatedText: string[] }).translatedText : undefined;
      };
      if ((await applyFaults(hit, res, shortArray)) === 'done') return;
    }

    const reply =
      (path === '/languages' && options.languagesWithoutKey ? undefined : authorized(req, body)) ??
      rateLimited() ??
      (body && !body.ok
        ? invalid(body.error)
        : path === '/languages'
          ? { status: 200, body: translator.languages }
          : path === '/frontend/settings'
            ? { status: 200, body: frontendSettings() }
          : path === '/translate'
            ? translate(body!.value)
            : detect(body!.value));
    if (path === '/translate' && reply.status === 200) {
      const { translatedText } = reply.body as { translatedText: string | string[] };
      stats.translatedTexts += Array.isArray(translatedText) ? translatedText.length : 1;
    }
    send(res, reply);
  };

  const listener: RequestListener = (req, res) => {
    handle(req, res).catch(() => {
      // Never let a request take the process down; the client gets a 500 if it can still be told.
      if (!res.headersSent) send(res, fail(500, 'Internal error in the translation stand-in'));
      else res.destroy();
    });
  };

  return {
    listener,
    stats,
    resetStats,
    get options() {
      return options;
    },
    configure,
    setFaults: (next) => faults.set(next),
    clearFaults: () => faults.set(undefined),
  };
}
