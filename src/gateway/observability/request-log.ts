import { upstreamErrorIn, type ServiceName } from '../errors.ts';
import { upstreamAnswerErrorOf, upstreamCauseOf } from '../upstream/upstream-errors.ts';
import { resultsOf, type ObservedRequest, type Outcome, type RequestHead, type RequestObserver } from '../request/observed-request.ts';

/** An upstream failure behind a request's errors, as the log tells it. */
export interface UpstreamFailure {
  service: ServiceName;
  /** The code the client got (`UPSTREAM_AUTH_REFUSED`…). */
  code: string;
  /** The HTTP status the service answered, when it answered. */
  status?: number;
  /**
   * Why, in the service's own words when it said (`Invalid API key`), else the network's code
   * (`ECONNREFUSED`) or `timeout`. The gateway's keys are cut out; clients never get this text.
   */
  cause?: string;
}

/**
 * One line per GraphQL request. What the gateway decided, who asked (method, path, address, user
 * agent: never a header that may hold a secret) and, for errors, their codes and upstream causes;
 * no variables, no query text and no keys, so a line can be shipped anywhere.
 */
export interface RequestLogEntry {
  /** `info`, or `warn` when the request executed with errors. */
  level: 'info' | 'warn';
  msg: 'request';
  /** ISO 8601 time the request was answered. */
  time: string;
  requestId: string;
  /** Operation name; `anonymous` when it has none, `batch` for a batched request. */
  operation: string;
  /** `query`, `mutation` or `subscription`, once the document was parsed (a single operation). */
  operationType?: string;
  durationMs: number;
  /** Upstream HTTP calls made for the request, retries included. */
  upstreamCalls: Record<ServiceName, number>;
  outcome: Outcome;
  status: number;
  /** Errors in the answer. */
  errors: number;
  /** The request's trace, when tracing is on (OTEL_EXPORTER_OTLP_ENDPOINT). */
  trace_id?: string;
  /** `cache`, `direct` (forwarded) or `delegated` when the front door answered it itself; absent when yoga served it. */
  lane?: 'cache' | 'direct' | 'delegated';
  method?: string;
  /** The URL's path, without the query string. */
  path?: string;
  /** The peer of the connection, when known. */
  clientAddress?: string;
  /** `X-Forwarded-For` as received, when sent. */
  forwardedFor?: string;
  userAgent?: string;
  /** The process that served it (several workers of one machine write to one stream). */
  pid?: number;
  /** The distinct `extensions.code`s of the answer's errors, when it has any. */
  errorCodes?: string[];
  /** The upstream failures behind those errors, each once. */
  upstreamErrors?: UpstreamFailure[];
}

export type RequestLog = (entry: RequestLogEntry) => void;

/** How long a line may wait for the lines after it, at most. */
const FLUSH_AFTER_MS = 20;
/** How much may wait: more is written at once. */
const FLUSH_AT_CHARS = 64 * 1024;

// stdout is one per process, so is the batch of lines waiting for it.
let pending: string[] = [];
let pendingChars = 0;
let flushTimer: NodeJS.Timeout | undefined;
let flushOnExit = false;

/**
 * The default request log: one JSON object per line on stdout. Lines are written together, at most
 * FLUSH_AFTER_MS after the first of them (or at once past FLUSH_AT_CHARS): under load one write of
 * many lines costs far less than a write per line (docs/performance.md). None is lost or reordered:
 * whatever waits is written when the gateway closes (observability's close), before the entry's own
 * lines (src/cli/entry-log.ts), and before the process exits, a fatal error's exit included (Node
 * emits 'exit' then too; stdout to a file or a pipe is written synchronously there).
 */
export const writeRequestLogLine: RequestLog = (entry) => {
  if (!flushOnExit) {
    flushOnExit = true;
    process.once('exit', flushRequestLog);
  }
  const line = requestLogLine(entry);
  pending.push(line);
  pendingChars += line.length;
  if (pendingChars >= FLUSH_AT_CHARS) flushRequestLog();
  // Unref'd: a line waiting must not keep the process alive; 'exit' writes it.
  else flushTimer ??= setTimeout(flushRequestLog, FLUSH_AFTER_MS).unref();
};

/** Writes the lines not written yet (also called before the process exits). */
export function flushRequestLog(): void {
  if (flushTimer) clearTimeout(flushTimer);
  flushTimer = undefined;
  if (pending.length === 0) return;
  const lines = pending.join('');
  pending = [];
  pendingChars = 0;
  process.stdout.write(lines);
}

/**
 * An entry as one line of JSON: exactly `JSON.stringify(entry)` and a newline, written out field
 * by field. The entry's fields are known, so its line needs none of the generic serializer's work
 * (a log line per request was about a tenth of a cache hit's CPU; README "Performance").
 */
export function requestLogLine(entry: RequestLogEntry): string {
  let line = `{"level":${known(entry.level)},"msg":${known(entry.msg)},"time":${json(entry.time)},"requestId":${json(entry.requestId)},"operation":${json(entry.operation)}`;
  if (entry.operationType !== undefined) line += `,"operationType":${json(entry.operationType)}`;
  line += `,"durationMs":${json(entry.durationMs)},"upstreamCalls":{`;
  let first = true;
  for (const service in entry.upstreamCalls) {
    line += `${first ? '' : ','}${json(service)}:${json(entry.upstreamCalls[service as ServiceName])}`;
    first = false;
  }
  line += `},"outcome":${known(entry.outcome)},"status":${json(entry.status)},"errors":${json(entry.errors)}`;
  if (entry.trace_id !== undefined) line += `,"trace_id":${json(entry.trace_id)}`;
  if (entry.lane !== undefined) line += `,"lane":${known(entry.lane)}`;
  if (entry.method !== undefined) line += `,"method":${json(entry.method)}`;
  if (entry.path !== undefined) line += `,"path":${json(entry.path)}`;
  if (entry.clientAddress !== undefined) line += `,"clientAddress":${json(entry.clientAddress)}`;
  if (entry.forwardedFor !== undefined) line += `,"forwardedFor":${json(entry.forwardedFor)}`;
  if (entry.userAgent !== undefined) line += `,"userAgent":${json(entry.userAgent)}`;
  if (entry.pid !== undefined) line += `,"pid":${json(entry.pid)}`;
  // Rare (requests with errors): the generic serializer is fine for these.
  if (entry.errorCodes !== undefined) line += `,"errorCodes":${JSON.stringify(entry.errorCodes)}`;
  if (entry.upstreamErrors !== undefined) line += `,"upstreamErrors":${JSON.stringify(entry.upstreamErrors)}`;
  return `${line}}\n`;
}

/** One value as JSON: a finite number as itself (what JSON.stringify writes), anything else through JSON.stringify. */
function json(value: string | number): string {
  return typeof value === 'number' && Number.isFinite(value) ? String(value) : JSON.stringify(value);
}

/** The values of the entry's fixed-choice fields (level, msg, outcome, lane), as JSON, written once. */
const KNOWN_VALUES = new Map(['info', 'warn', 'request', 'ok', 'error', 'rejected', 'cache', 'direct', 'delegated'].map((value) => [value, JSON.stringify(value)]));

/** A fixed-choice field as JSON: its text kept, or, for a value outside the choices, through JSON.stringify. */
function known(value: string): string {
  return KNOWN_VALUES.get(value) ?? JSON.stringify(value);
}

// The second of the last line and its text up to the milliseconds, reused by every line of that second.
let stampSecond = Number.NaN;
let stampPrefix = '';

/**
 * `new Date().toISOString()`, exactly: the date and time of day are formatted once per second, and
 * each line adds its milliseconds (under load, every line falls in another millisecond).
 */
export function isoTimeNow(now = Date.now()): string {
  const second = Math.floor(now / 1000);
  if (second !== stampSecond) {
    stampSecond = second;
    // `YYYY-MM-DDTHH:mm:ss.` (the years the gateway can see have four digits).
    stampPrefix = new Date(second * 1000).toISOString().slice(0, -4);
  }
  const ms = now - second * 1000;
  return `${stampPrefix}${ms < 10 ? '00' : ms < 100 ? '0' : ''}${ms}Z`;
}

/** Longest header text (user agent, forwarded-for) or path kept in a line. */
const MAX_FIELD = 256;

function bounded(text: string | null | undefined): string | undefined {
  if (text === null || text === undefined || text === '') return undefined;
  return text.length > MAX_FIELD ? text.slice(0, MAX_FIELD) : text;
}

/** The path of an absolute URL, without query string or fragment (a GET's query string holds the operation and its variables). */
function pathOf(url: string): string {
  const scheme = url.indexOf('://');
  const start = url.indexOf('/', scheme < 0 ? 0 : scheme + 3);
  if (start < 0) return '/';
  let end = url.length;
  for (const mark of ['?', '#']) {
    const at = url.indexOf(mark, start);
    if (at >= 0 && at < end) end = at;
  }
  return bounded(url.slice(start, end)) ?? '/';
}

/** The codes of a request's errors and the upstream failures behind them, each once; undefined without errors. */
function errorsOf(observed: ObservedRequest): { codes: string[]; upstream: UpstreamFailure[] } | undefined {
  const codes = new Set<string>();
  const upstream = new Map<string, UpstreamFailure>();
  for (const result of resultsOf(observed.result)) {
    for (const error of result?.errors ?? []) {
      const code = (error as { extensions?: { code?: unknown } })?.extensions?.code;
      if (typeof code === 'string') codes.add(code);
      const failed = upstreamErrorIn(error);
      const answered = failed ? undefined : upstreamAnswerErrorOf(error);
      let failure: UpstreamFailure | undefined;
      if (failed) {
        failure = { service: failed.service, code: failed.code };
        if (failed.extensions.status !== undefined) failure.status = failed.extensions.status;
        const cause = upstreamCauseOf(failed);
        if (cause !== undefined) failure.cause = cause;
      } else if (answered) {
        // An error the service wrote in its answer: its message is the cause.
        failure = { service: answered.service, code: 'UPSTREAM_ERROR', cause: answered.message.slice(0, 300) };
      } else {
        // Delegation can copy an upstream error without its cause: its public extensions still say which and how.
        const { service, status } = (error as { extensions?: { service?: unknown; status?: unknown } }).extensions ?? {};
        if ((service === 'problems' || service === 'translation') && typeof code === 'string' && code.startsWith('UPSTREAM_')) {
          failure = { service, code };
          if (typeof status === 'number') failure.status = status;
        }
      }
      if (!failure) continue;
      const key = `${failure.service} ${failure.code} ${failure.status} ${failure.cause}`;
      if (!upstream.has(key) && upstream.size < 5) upstream.set(key, failure);
    }
  }
  return codes.size === 0 && upstream.size === 0 ? undefined : { codes: [...codes], upstream: [...upstream.values()] };
}

export function requestLogObserver(log: RequestLog): RequestObserver {
  return {
    requestStarted(observed, request: RequestHead) {
      observed.client = {
        method: request.method,
        path: pathOf(request.url),
        address: request.clientAddress,
        forwardedFor: bounded(request.headers.get('x-forwarded-for')),
        userAgent: bounded(request.headers.get('user-agent')),
      };
    },
    requestFinished({ id, operation, operationType, durationMs, upstreamCalls, outcome, status, errors, lane }, observed) {
      // Fields added one by one rather than spread in: the same keys in the same order, without a
      // spread's copying for each optional one.
      const entry: RequestLogEntry = { level: outcome === 'error' ? 'warn' : 'info', msg: 'request', time: isoTimeNow(), requestId: id, operation } as RequestLogEntry;
      if (operationType) entry.operationType = operationType;
      entry.durationMs = durationMs;
      entry.upstreamCalls = upstreamCalls;
      entry.outcome = outcome;
      entry.status = status;
      entry.errors = errors;
      if (observed.traceId) entry.trace_id = observed.traceId;
      if (lane) entry.lane = lane;
      const { client } = observed;
      if (client) {
        entry.method = client.method;
        entry.path = client.path;
        if (client.address) entry.clientAddress = client.address;
        if (client.forwardedFor) entry.forwardedFor = client.forwardedFor;
        if (client.userAgent) entry.userAgent = client.userAgent;
      }
      entry.pid = process.pid;
      if (errors > 0) {
        const found = errorsOf(observed);
        if (found?.codes.length) entry.errorCodes = found.codes;
        if (found?.upstream.length) entry.upstreamErrors = found.upstream;
      }
      log(entry);
    },
  };
}
