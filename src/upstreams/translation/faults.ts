import { STATUS_CODES, type ServerResponse } from 'node:http';

/**
 * Fault modes of the translation stand-in: make it slow, fail, answer garbage or hang on purpose, so
 * gateway tests can check how the gateway copes with a broken upstream. Switched at runtime with
 * `service.setFaults(...)`; see the README's "Fault modes".
 */

/** Kinds of malformed 200 answer. */
export type BadBody =
  /** An HTML error page (`Content-Type: text/html`), as a proxy in front of the service might send. */
  | 'not-json'
  /** Valid JSON of the wrong shape: `{"result":1}`. */
  | 'wrong-shape'
  /** POST /translate with an array `q`: `translatedText` one item shorter than `q`. Other requests: wrong shape. */
  | 'short-array'
  /** No body at all, still labelled JSON. */
  | 'empty'
  /** POST /translate: `translatedText` as long as `q`, every item `""`. Other requests: wrong shape. */
  | 'empty-texts';

/**
 * What to break, and when. Every field is optional and they combine: which requests are hit is chosen by
 * `routes`, `everyNth` and `failFirst`; what happens to them by `latencyMs`, `status`, `badBody` and `hang`.
 */
export interface TranslationFaults {
  /** Waits this long before answering (then answers normally, or with the other faults). @default 0 */
  latencyMs?: number;
  /** Answers with this HTTP status (200–599) instead of serving the request. @default undefined */
  status?: number;
  /** `Retry-After` header sent with `status`: seconds, or an HTTP date. Needs `status`. @default undefined */
  retryAfter?: number | string;
  /**
   * Body sent with `status`, as is; labelled JSON when it parses as JSON, else text/plain. Needs `status`.
   * @default `{"error":"<reason phrase of status>"}`
   */
  body?: string;
  /** Answers with a malformed body; status 200 unless `status` is set too. @default undefined */
  badBody?: BadBody;
  /** Never answers: the request stays open until the client gives up or the server closes. @default false */
  hang?: boolean;
  /** Hits only every n-th matching request (1-based: 3 → calls 3, 6, 9…); the others are served normally. @default 1 */
  everyNth?: number;
  /**
   * Hits only the first n requests that would be hit, then serves normally (retry tests).
   * With `everyNth: 3, failFirst: 2`, calls 3 and 6 fail and none after.
   * @default unlimited
   */
  failFirst?: number;
  /** Routes hit, as `'METHOD /path'` (HEAD counts as GET), e.g. `['POST /translate']`. @default every route */
  routes?: string[];
}

/** Picks which requests to break; counting starts again at every `set`. */
export interface FaultSchedule {
  /** Validates and installs `faults` (a copy); `undefined` or `{}` clears them. Throws TypeError on a bad value. */
  set(faults: TranslationFaults | undefined): void;
  /** The faults to apply to this request to `route` (`'POST /translate'`), or undefined to serve it normally. */
  select(route: string): Readonly<TranslationFaults> | undefined;
}

const ACTIONS = ['latencyMs', 'status', 'badBody', 'hang'] as const;
const BAD_BODIES: readonly BadBody[] = ['not-json', 'wrong-shape', 'short-array', 'empty', 'empty-texts'];

function validateFaults(faults: TranslationFaults, knownRoutes: readonly string[]): void {
  const problem = (message: string) => new TypeError(`TranslationFaults.${message}`);
  const positive = (name: 'everyNth' | 'failFirst') => {
    const value = faults[name];
    if (value !== undefined && (!Number.isInteger(value) || value < 1)) throw problem(`${name} must be a positive integer, got ${value}`);
  };
  const unknown = Object.keys(faults).filter((key) => ![...ACTIONS, 'retryAfter', 'body', 'everyNth', 'failFirst', 'routes'].includes(key));
  if (unknown.length > 0) throw problem(`${unknown[0]} is not a fault field`);
  const { latencyMs, status, retryAfter, body, badBody, hang, routes } = faults;
  // setTimeout fires at once past 2^31 - 1 ms, which would turn a long delay into none.
  if (latencyMs !== undefined && !(latencyMs >= 0 && latencyMs <= 2 ** 31 - 1)) throw problem(`latencyMs must be from 0 to 2147483647, got ${latencyMs}`);
  if (status !== undefined && !(Number.isInteger(status) && status >= 200 && status <= 599)) throw problem(`status must be an integer from 200 to 599, got ${status}`);
  if (retryAfter !== undefined) {
    if (status === undefined) throw problem('retryAfter needs status');
    const valid = typeof retryAfter === 'number' ? Number.isInteger(retryAfter) && retryAfter >= 0 : typeof retryAfter === 'string' && /^[\x20-\x7e]+$/.test(retryAfter);
    if (!valid) throw problem(`retryAfter must be whole seconds ≥ 0 or an HTTP date, got ${JSON.stringify(retryAfter)}`);
  }
  if (body !== undefined) {
    if (typeof body !== 'string') throw problem('body must be a string');
    if (status === undefined) throw problem('body needs status');
    if (badBody !== undefined) throw problem('body and badBody are exclusive');
  }
  if (badBody !== undefined && !BAD_BODIES.includes(badBody)) throw problem(`badBody must be one of ${BAD_BODIES.join(', ')}, got ${JSON.stringify(badBody)}`);
  if (hang !== undefined && typeof hang !== 'boolean') throw problem('hang must be a boolean');
  if (hang && (status !== undefined || badBody !== undefined)) throw problem('hang never answers, so it cannot take status or badBody');
  positive('everyNth');
  positive('failFirst');
  if (routes !== undefined) {
    if (!Array.isArray(routes) || routes.length === 0) throw problem('routes must be a non-empty array; leave it out for every route');
    const stray = routes.find((route) => !knownRoutes.includes(route));
    if (stray !== undefined) throw problem(`routes: unknown route ${JSON.stringify(stray)}; known: ${knownRoutes.join(', ')}`);
  }
  // A schedule with nothing to do is almost certainly a typo in a test.
  if (!ACTIONS.some((action) => faults[action] !== undefined && faults[action] !== false)) {
    throw problem(`set at least one of ${ACTIONS.join(', ')} (or pass undefined to clear)`);
  }
}

/** Creates an empty schedule for a service whose routes are `knownRoutes` (`'GET /languages'`, …). */
export function createFaultSchedule(knownRoutes: readonly string[]): FaultSchedule {
  let faults: Readonly<TranslationFaults> | undefined;
  /** Matching requests seen since `set`, and how many of them were hit. */
  let matched = 0;
  let hit = 0;
  return {
    set(next) {
      const cleared = next === undefined || Object.values(next).every((value) => value === undefined);
      if (!cleared) validateFaults(next, knownRoutes);
      faults = cleared ? undefined : Object.freeze({ ...next, routes: next.routes && [...next.routes] });
      matched = 0;
      hit = 0;
    },
    select(route) {
      if (!faults || (faults.routes && !faults.routes.includes(route))) return undefined;
      matched++;
      if (faults.everyNth !== undefined && matched % faults.everyNth !== 0) return undefined;
      if (faults.failFirst !== undefined && hit >= faults.failFirst) return undefined;
      hit++;
      return faults;
    },
  };
}

/**
 * Resolves `true` after `ms`, or `false` as soon as the client goes away (the timer is cleared then, so
 * an abandoned request leaves nothing behind). Watches `res`, not `req`: since Node 16 `req` emits
 * 'close' once its body has been read, while `res` emits it when the answer is sent or the socket dies.
 */
export function delay(ms: number, res: Pick<ServerResponse, 'once' | 'off' | 'destroyed' | 'writableEnded'>): Promise<boolean> {
  return new Promise((resolve) => {
    if (res.destroyed || res.writableEnded) return resolve(false);
    const gone = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      res.off('close', gone);
      resolve(true);
    }, ms);
    res.once('close', gone);
  });
}

const HTML_GARBAGE =
  '<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head>\n<body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>\n';
const JSON_TYPE = 'application/json; charset=utf-8';
const WRONG_SHAPE = JSON.stringify({ result: 1 });

/** Content type and payload of the faulted answer. */
function faultedBody(faults: Readonly<TranslationFaults>, status: number, shortArray: () => string[] | undefined): [string, string] {
  switch (faults.badBody) {
    case 'not-json':
      return ['text/html; charset=utf-8', HTML_GARBAGE];
    case 'empty':
      return [JSON_TYPE, ''];
    case 'wrong-shape':
      return [JSON_TYPE, WRONG_SHAPE];
    case 'short-array': {
      const translated = shortArray();
      return [JSON_TYPE, translated ? JSON.stringify({ translatedText: translated.slice(0, -1) }) : WRONG_SHAPE];
    }
    case 'empty-texts': {
      const translated = shortArray();
      return [JSON_TYPE, translated ? JSON.stringify({ translatedText: translated.map(() => '') }) : WRONG_SHAPE];
    }
  }
  if (faults.body === undefined) return [JSON_TYPE, JSON.stringify({ error: STATUS_CODES[status] ?? `Status ${status}` })];
  try {
    JSON.parse(faults.body);
    return [JSON_TYPE, faults.body];
  } catch {
    return ['text/plain; charset=utf-8', faults.body];
  }
}

/**
 * Applies `faults` to one request: waits `latencyMs`, then hangs or answers the fault.
 * Resolves `'continue'` when the request should now be served normally (latency only), and `'done'` when
 * it was answered, left hanging, or the client went away.
 * `shortArray` gives the real `translatedText` array of this request when it is a valid array translation.
 */
export async function applyFaults(
  faults: Readonly<TranslationFaults>,
  res: ServerResponse,
  shortArray: () => string[] | undefined,
): Promise<'continue' | 'done'> {
  if (faults.latencyMs && !(await delay(faults.latencyMs, res))) return 'done';
  // Nothing is kept for a hanging request: the client's abort or the server's close ends the socket.
  if (faults.hang) return 'done';
  if (faults.status === undefined && faults.badBody === undefined) return 'continue';

  const status = faults.status ?? 200;
  const [contentType, payload] = faultedBody(faults, status, shortArray);
  res.writeHead(status, {
    'Content-Type': contentType,
    'Content-Length': Buffer.byteLength(payload),
    ...(faults.retryAfter === undefined ? {} : { 'Retry-After': String(faults.retryAfter) }),
  });
  res.end(payload);
  return 'done';
}
