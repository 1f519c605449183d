import type { GatewayLog } from '../gateway-log.ts';
import { createCheckSchedule } from './check-schedule.ts';
import type { IntrospectedSchema, IntrospectOptions } from './introspection.ts';
import { createIntrospectionMemo } from './introspection-memo.ts';
import { readSnapshot } from './problems-snapshot.ts';
import { createSchemaCheck, oneLine, short, summaryOf } from './schema-check.ts';
import { diffSchemas, formatSchemaDiff } from './schema-diff.ts';
import { createSchemaRecord, type ProblemsSchemaStatus } from './schema-record.ts';
import { describeOverBound, overBound, type SchemaBounds } from './schema-size.ts';

export type { ProblemsSchemaSource, ProblemsSchemaStatus } from './schema-record.ts';

export interface LiveProblemsSchemaOptions {
  /** The service's GraphQL endpoint and key, and the bounds of one introspection. */
  introspection: IntrospectOptions;
  /** The committed snapshot: served when the service cannot be introspected at start. */
  snapshotPath: string;
  /** An SDL file to serve instead, pinned: nothing is introspected, at start or later. */
  givenPath?: string;
  /** Time between two checks while running; 0 = no polling (a refusal still triggers a check). */
  pollMs: number;
  /**
   * The largest schema built (counted where it is read, off the event loop when large): one over
   * them is refused while running (said once, counted, the schema served stays) and stops the start.
   * Building an engine (Mesh) runs on the event loop and grows with the schema. @default none
   */
  bounds?: SchemaBounds;
  /**
   * Told each schema that differs from the one served: builds what will serve it, beside what serves
   * `previous`, and resolves to the swap that makes new requests get it, or rejects when it cannot be
   * built (the gateway then stays on the schema it serves). The swap is called here, in the same turn
   * as the status and the log line change, so neither ever names a schema other than the one new
   * requests get.
   */
  onChange(next: IntrospectedSchema, previous: IntrospectedSchema): Promise<() => void>;
  /** Told of each check that failed (`introspection`), of each new schema that could not be built (`build`) or was refused for its size (`bound`). */
  onFailure?(reason: 'introspection' | 'build' | 'bound'): void;
  /** Told of each introspection answer: `unchanged` (byte for byte the last one: not parsed) or `parsed`. */
  onAnswer?(answer: 'unchanged' | 'parsed'): void;
  log: GatewayLog;
}

export interface LiveProblemsSchema {
  /** The schema to build at start: the service's, or the snapshot's when it cannot be introspected (said in one line). */
  start(): Promise<IntrospectedSchema>;
  /** The snapshot, for a start whose live schema could not be built: `reason` for the log, `summary` for /readiness. */
  fallBack(reason: string, summary: string): Promise<IntrospectedSchema>;
  /** Checks at the poll interval from now on. */
  follow(): void;
  /**
   * The service refused an operation the gateway had validated against the schema it serves: the
   * sign its schema changed. Checks at once, or as soon as the last check is old enough, so a burst
   * of refusals costs one introspection. Each such check that finds the schema unchanged (the service
   * refuses for reasons of its own) doubles the gap to the next, up to a minute (or the poll
   * interval, when shorter): what clients send never costs more than a few checks a minute.
   */
  driftSeen(): void;
  /** Introspects now and swaps in what changed; resolves when done (never rejects). */
  check(): Promise<void>;
  status(): ProblemsSchemaStatus;
  stop(): void;
}

/**
 * The problems schema the gateway serves, as the service says it is: introspected at start (with the
 * snapshot as the fallback), then again every `pollMs` and whenever a refusal says it drifted. A new
 * schema (another hash) is handed to `onChange`; an unchanged one changes nothing. A failed check is
 * logged when its reason changes and counted every time; the schema served stays. Its parts: the
 * record of what is served (schema-record.ts), the introspection that reads a repeated answer once
 * (introspection-memo.ts), one check (schema-check.ts) and when checks run (check-schedule.ts).
 */
export function createLiveProblemsSchema({ introspection, snapshotPath, givenPath, pollMs, bounds, onChange, onFailure, onAnswer, log }: LiveProblemsSchemaOptions): LiveProblemsSchema {
  const record = createSchemaRecord(givenPath ? 'given' : 'live');
  const memo = createIntrospectionMemo({ introspection, bounds, onAnswer });
  let stopped = false;
  const runCheck = createSchemaCheck({ record, read: memo.read, bounds, onChange, onFailure, log, stopped: () => stopped });
  const schedule = createCheckSchedule({ pollMs, runCheck, checkable: () => !stopped && record.served !== undefined && record.source !== 'given' });
  const following = (verb: string) => (pollMs > 0 ? `${verb} again every ${pollMs / 1000} s` : 'PROBLEMS_SCHEMA_POLL_SECONDS=0: checked again only when a request is refused');

  return {
    async start() {
      if (givenPath) {
        record.serve(admitted(await readSnapshot(givenPath), `the problems schema ${givenPath}`, bounds), 'given');
        return record.served!;
      }
      let live: IntrospectedSchema;
      try {
        live = await memo.read(undefined);
      } catch (error) {
        return this.fallBack(`it could not be introspected: ${(error as Error).message}`, summaryOf(error));
      }
      // Never the snapshot in its place: it would not match the service that answered.
      record.serve(admitted(live, "the problems service's schema", bounds), 'live');
      record.succeeded();
      log(`problems schema: introspected from the service, ${short(live.hash)}; ${following('checked')}`);
      await sayHowSnapshotDiffers(snapshotPath, live, log);
      return live;
    },
    async fallBack(reason, summary) {
      const snapshot = admitted(await readSnapshot(snapshotPath), `the committed snapshot ${snapshotPath}`, bounds);
      record.fellBack(snapshot, reason, summary);
      onFailure?.('introspection');
      log(`problems schema: serving the committed snapshot ${short(snapshot.hash)}, since ${reason}; ${following('checking')}`, 'warn');
      return snapshot;
    },
    follow() {
      if (record.source !== 'given') schedule.follow();
    },
    driftSeen() {
      if (record.source !== 'given') schedule.driftSeen();
    },
    check: async () => void (await schedule.check()),
    status: () => record.status(),
    stop() {
      stopped = true;
      schedule.stop();
    },
  };
}

/** `schema`, unless it is over a bound: then start-up stops, with the setting named. */
function admitted(schema: IntrospectedSchema, what: string, bounds: SchemaBounds | undefined): IntrospectedSchema {
  const over = bounds && overBound(schema.size, bounds);
  if (over) throw new Error(`${what} is too large to build (${describeOverBound(over)}): building it would hold up every request; raise ${over.variable} to serve it`);
  return schema;
}

/** The difference is the operator's to know once: the snapshot is what codegen and the fallback read. */
async function sayHowSnapshotDiffers(snapshotPath: string, served: IntrospectedSchema, log: GatewayLog): Promise<void> {
  const snapshot = await readSnapshot(snapshotPath).catch(() => undefined);
  if (snapshot && snapshot.hash !== served.hash) {
    const changes = await diffSchemas(snapshot.schema, served.schema);
    log(`problems schema: the service's differs from the committed snapshot (run \`npm run sources:refresh\` to update it): ${oneLine(formatSchemaDiff(changes, 10))}`, 'warn');
  }
}
