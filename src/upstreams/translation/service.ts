import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { unauthorized, createRateLimit } from './caller-checks.ts';
import { detect, frontendSettings, translate, type Endpoints } from './endpoints.ts';
import { applyFaults, createFaultSchedule, type FaultSchedule, type TranslationFaults } from './faults.ts';
import { fail, invalid, send, type Reply } from './replies.ts';
import { parseBody, readBody, type Body } from './request-body.ts';
import { applyOptions, defaultOptions, type ResolvedTranslationServiceOptions, type TranslationServiceOptions } from './service-options.ts';
import { createServiceStats, type TranslationServiceStats } from './service-stats.ts';
import { createTranslator } from './translator.ts';

export type { BadBody, TranslationFaults } from './faults.ts';
export type { RateLimit, ResolvedTranslationServiceOptions, TranslationServiceOptions } from './service-options.ts';
export type { RecordedRequest, TranslationServiceStats } from './service-stats.ts';

/**
 * Local stand-in of the translation upstream: the LibreTranslate-compatible REST API described by
 * sources/translation/openapi.yaml, answered from a bundled glossary instead of a neural model.
 */

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

const ROUTES: Record<string, 'GET' | 'POST'> = { '/languages': 'GET', '/translate': 'POST', '/detect': 'POST', '/frontend/settings': 'GET' };
const ROUTE_NAMES = Object.entries(ROUTES).map(([path, method]) => `${method} ${path}`);

/** Creates the stand-in translation service. No side effects: nothing listens until you pass `listener` to a server. */
export function createTranslationService(initial: TranslationServiceOptions = {}): TranslationService {
  const options = defaultOptions();
  const rateLimit = createRateLimit(options);
  const configure = (partial: Partial<TranslationServiceOptions>) => {
    applyOptions(options, partial);
    if ('rateLimit' in partial) rateLimit.reset();
  };
  configure(initial);
  const { stats, reset: resetStats, record } = createServiceStats();
  const parts: ServiceParts = { options, translator: createTranslator(), stats, record, rateLimit, faults: createFaultSchedule(ROUTE_NAMES) };
  const listener: RequestListener = (req, res) => {
    handle(req, res, parts).catch(() => {
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
    setFaults: (next) => parts.faults.set(next),
    clearFaults: () => parts.faults.set(undefined),
  };
}

/** What one service answers with: its options, translator and counters, its rate limit and fault schedule. */
interface ServiceParts extends Endpoints {
  record: ReturnType<typeof createServiceStats>['record'];
  rateLimit: ReturnType<typeof createRateLimit>;
  faults: FaultSchedule;
}

/**
 * One request, in LibreTranslate's order: the route (404, 405), the body (413), the faults set on
 * purpose (before the key, the rate limit and validation: a broken upstream is broken for every
 * caller), then the key, the rate limit, and the route's answer.
 */
async function handle(req: IncomingMessage, res: ServerResponse, parts: ServiceParts): Promise<void> {
  const { options, stats, record, faults } = parts;
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
    if ((await applyFaults(hit, res, () => translatedArray(path, body, parts))) === 'done') return;
  }
  const reply = answer(req, path, body, parts);
  if (path === '/translate' && reply.status === 200) {
    const { translatedText } = reply.body as { translatedText: string | string[] };
    stats.translatedTexts += Array.isArray(translatedText) ? translatedText.length : 1;
  }
  send(res, reply);
}

/** The answer past the faults: the key (GET /languages may go without), the rate limit, the body's validity, then the route's own. */
function answer(req: IncomingMessage, path: string, body: Body | undefined, parts: ServiceParts): Reply {
  const { options, translator, rateLimit } = parts;
  const refused = (path === '/languages' && options.languagesWithoutKey ? undefined : unauthorized(options, req, body)) ?? rateLimit.check();
  if (refused) return refused;
  if (body && !body.ok) return invalid(body.error);
  if (path === '/languages') return { status: 200, body: translator.languages };
  if (path === '/frontend/settings') return { status: 200, body: frontendSettings(parts) };
  return path === '/translate' ? translate(body!.value, parts) : detect(body!.value, parts);
}

/** The translations of an array `q`, for a fault that answers a shorter array than was asked. */
function translatedArray(path: string, body: Body | undefined, parts: ServiceParts): string[] | undefined {
  if (path !== '/translate' || !body?.ok || !Array.isArray(body.value.q)) return undefined;
  const { status, body: result } = translate(body.value, parts);
  return status === 200 ? (result as { translatedText: string[] }).translatedText : undefined;
}
