import type { ServiceName } from '../errors.ts';
import type { Outcome, RequestObserver } from './observed-request.ts';

/**
 * One line per GraphQL request. Only what the gateway itself decided: no headers, no variables, no
 * query text and no keys, so a line can be shipped anywhere.
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
  /** `cache` or `direct` when answered in front of yoga (README "Performance"); absent when yoga served it. */
  lane?: 'cache' | 'direct';
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
 * many lines costs far less than a write per line. Measured on a cache hit: a write per line about
 * 5% of the gateway's CPU, a write per turn of the event loop (as before) still 6% more than one per
 * 20 ms. Whatever waits is written before the process exits, and before the entry's own lines
 * (src/cli/entry-log.ts), so stdout keeps its order.
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
  let line = `{"level":${json(entry.level)},"msg":${json(entry.msg)},"time":${json(entry.time)},"requestId":${json(entry.requestId)},"operation":${json(entry.operation)}`;
  if (entry.operationType !== undefined) line += `,"operationType":${json(entry.operationType)}`;
  line += `,"durationMs":${json(entry.durationMs)},"upstreamCalls":{`;
  let first = true;
  for (const service in entry.upstreamCalls) {
    line += `${first ? '' : ','}${json(service)}:${json(entry.upstreamCalls[service as ServiceName])}`;
    first = false;
  }
  line += `},"outcome":${json(entry.outcome)},"status":${json(entry.status)},"errors":${json(entry.errors)}`;
  if (entry.trace_id !== undefined) line += `,"trace_id":${json(entry.trace_id)}`;
  if (entry.lane !== undefined) line += `,"lane":${json(entry.lane)}`;
  return `${line}}\n`;
}

/** One value as JSON: a finite number as itself (what JSON.stringify writes), anything else through JSON.stringify. */
function json(value: string | number): string {
  return typeof value === 'number' && Number.isFinite(value) ? String(value) : JSON.stringify(value);
}

// The time of the last line, reused by the lines of the same millisecond (many, under load).
let lastTimeMs = Number.NaN;
let lastTime = '';

/** `new Date().toISOString()`, made once per millisecond. */
function isoTimeNow(): string {
  const now = Date.now();
  if (now !== lastTimeMs) {
    lastTimeMs = now;
    lastTime = new Date(now).toISOString();
  }
  return lastTime;
}

export function requestLogObserver(log: RequestLog): RequestObserver {
  return {
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
      log(entry);
    },
  };
}
