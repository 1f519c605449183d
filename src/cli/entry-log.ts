import type { LogLevel } from '../gateway/gateway-log.ts';
import { flushRequestLog } from '../gateway/observability/request-log.ts';

export interface EntryLogOptions {
  /** One JSON object a line (production: the request log's stream, so collectors parse every line). */
  json: boolean;
  /** Fields every line carries, e.g. `{ standIns: true }`; in text, the prefix says the same. */
  fields?: Record<string, unknown>;
  /** The text prefix. @default '[gateway]' */
  prefix?: string;
}

export type EntryLog = (line: string, level?: LogLevel) => void;

/**
 * The entry's own lines (start-up, shutdown, Mesh's warnings). In production they are JSON objects
 * on stdout, beside the request log's, so stdout is one JSON stream; elsewhere, readable text, errors
 * and warnings on stderr.
 */
export function createEntryLog({ json, fields = {}, prefix = '[gateway]' }: EntryLogOptions): EntryLog {
  // Either way, request lines still waiting (request-log.ts) are written first: the output stays in
  // the order things happened.
  if (json) {
    return (line, level = 'info') => {
      flushRequestLog();
      process.stdout.write(`${JSON.stringify({ level, msg: line, time: new Date().toISOString(), ...fields })}\n`);
    };
  }
  return (line, level = 'info') => {
    flushRequestLog();
    const text = `${prefix} ${level === 'warn' ? 'warning: ' : ''}${line}`;
    if (level === 'info') console.log(text);
    else console.error(text);
  };
}
