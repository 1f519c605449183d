import type { GatewayLog } from '../gateway-log.ts';
import { IntrospectionError, type IntrospectedSchema } from './introspection.ts';
import type { IntrospectionFailure } from './introspection-answer.ts';
import type { IntrospectedWithChanges } from './introspection-memo.ts';
import { formatSchemaDiff } from './schema-diff.ts';
import type { SchemaRecord } from './schema-record.ts';
import { describeOverBound, overBound, type SchemaBounds } from './schema-size.ts';

/**
 * One check of the service's schema against the one served: a failure is recorded (logged when its
 * reason changes), an unchanged schema changes nothing, a schema over a bound is refused before any
 * building, and a new one is built beside the served one and swapped in. Resolves whether the schema
 * served changed; never rejects.
 */
export function createSchemaCheck({
  record,
  read,
  bounds,
  onChange,
  onFailure,
  log,
  stopped,
}: {
  bounds?: SchemaBounds;
  /** Builds what serves `next` beside what serves `previous`; resolves to the swap (see LiveProblemsSchemaOptions). */
  onChange(next: IntrospectedSchema, previous: IntrospectedSchema): Promise<() => void>;
  onFailure?(reason: 'introspection' | 'build' | 'bound'): void;
  log: GatewayLog;
  record: SchemaRecord;
  read(served: IntrospectedSchema | undefined): Promise<IntrospectedWithChanges>;
  stopped(): boolean;
}): () => Promise<boolean> {
  const failed = (message: string, summary: string) => {
    onFailure?.('introspection');
    if (record.failed(message, summary)) log(`problems schema: check failed (${message}); still serving ${short(record.served!.hash)} (${record.source})`, 'warn');
  };
  return async () => {
    let live: IntrospectedWithChanges;
    try {
      live = await read(record.served);
    } catch (error) {
      failed((error as Error).message, summaryOf(error));
      return false;
    }
    if (record.succeeded()) log('problems schema: checks succeed again');
    const previous = record.served!;
    if (live.hash === previous.hash) {
      record.unchanged();
      return false;
    }
    if (live.hash === record.unbuildable || stopped()) return false;
    // Refused before any building: counted where it was read, so a schema too large costs the event
    // loop nothing past the comparison of its bytes.
    const over = bounds && overBound(live.size, bounds);
    if (over) {
      record.refuse(live.hash, `${short(live.hash)} not built: ${describeOverBound(over)}`);
      onFailure?.('bound');
      log(`problems schema: ${short(live.hash)} refused, not built (${describeOverBound(over)}); still serving ${short(previous.hash)} (${record.source})`, 'error');
      return false;
    }
    let swap: () => void;
    try {
      swap = await onChange(live, previous);
    } catch (error) {
      record.couldNotBuild(live.hash);
      onFailure?.('build');
      log(`problems schema: ${short(live.hash)} cannot be built (${(error as Error).message}); still serving ${short(previous.hash)} (${record.source})`, 'error');
      return false;
    }
    // The swap and what tells of it, in one turn: no request, /readiness or scrape comes between.
    swap();
    record.swapped(live);
    log(`problems schema: now serving ${short(live.hash)} (was ${short(previous.hash)}): ${oneLine(formatSchemaDiff(live.changes ?? [], 10))}`, 'warn');
    return true;
  };
}

/** The first 12 hex digits of a schema's hash, as the log names it. */
export const short = (hash: string) => hash.slice(0, 12);

/** A multi-line summary as one log line. */
export function oneLine(text: string): string {
  return text.split('\n').join('; ');
}

const SUMMARIES: Record<IntrospectionFailure, string> = {
  unreachable: 'unreachable',
  timeout: 'did not answer in time',
  refused: 'refused the key',
  status: 'answered with an HTTP error',
  'too-large': 'answer too large',
  'not-json': 'answer not JSON',
  'no-schema': 'answered without a schema',
  invalid: 'answered an invalid schema',
};

/** Why a check failed, in the few words /readiness may show. */
export function summaryOf(error: unknown): string {
  return error instanceof IntrospectionError ? SUMMARIES[error.failure] : 'failed';
}
