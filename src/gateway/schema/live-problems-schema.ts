import type { GatewayLog } from '../gateway-log.ts';
import type { IntrospectionFailure } from './introspection-answer.ts';
import { fetchIntrospectionAnswer, IntrospectionError, settledOutcome, type IntrospectedSchema, type IntrospectOptions } from './introspection.ts';
import { outcomeOffLoop } from './introspection-thread.ts';
import { readSnapshot } from './problems-snapshot.ts';
import { diffSchemas, formatSchemaDiff, type SchemaChange } from './schema-diff.ts';
import { describeOverBound, overBound, type SchemaBounds } from './schema-size.ts';

/** Where the schema served came from: the service itself, the committed snapshot (the service could not be introspected at start), or a file the app gave (`problemsSchemaPath`). */
export type ProblemsSchemaSource = 'live' | 'snapshot' | 'given';

/** What /readiness and the metrics tell of the problems schema. */
export interface ProblemsSchemaStatus {
  source: ProblemsSchemaSource;
  /** sha256 (hex) of the schema served, printed with its types and fields sorted. */
  hash: string;
  /** When the service was last introspected (ISO 8601), whatever came of it; absent for a given schema. */
  checkedAt?: string;
  /**
   * `ok`, or in a few words why the last check failed (`unreachable`, `did not answer in time`…):
   * never a URL, a key or the service's own text, since /readiness is open. The log has the detail.
   */
  lastCheck?: string;
  /**
   * Set while the service's schema is one the gateway refused to build, being over a bound: its
   * hash, its size and the setting it is over (`PROBLEMS_SCHEMA_MAX_…`). The schema served stays.
   */
  refused?: string;
}

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

/** Shortest time between two checks a refusal may trigger (shorter when polling is more frequent). */
const DRIFT_GAP_MS = 5000;
/** The longest it grows to while refusals find the schema unchanged (shorter when polling is more frequent). */
const DRIFT_GAP_MAX_MS = 60_000;

/**
 * The problems schema the gateway serves, as the service says it is: introspected at start (with the
 * snapshot as the fallback), then again every `pollMs` and whenever a refusal says it drifted. A new
 * schema (another hash) is handed to `onChange`; an unchanged one changes nothing. A failed check is
 * logged when its reason changes and counted every time; the schema served stays.
 */
export function createLiveProblemsSchema({ introspection, snapshotPath, givenPath, pollMs, bounds, onChange, onFailure, onAnswer, log }: LiveProblemsSchemaOptions): LiveProblemsSchema {
  let served: IntrospectedSchema | undefined;
  let source: ProblemsSchemaSource = givenPath ? 'given' : 'live';
  let checkedAt: string | undefined;
  let lastCheck: string | undefined;
  let lastFailure: string | undefined;
  // A schema that failed to build (or was refused) is not built again on every poll: said once, counted once.
  let unbuildable: string | undefined;
  let refused: string | undefined;
  let running: Promise<boolean> | undefined;
  let lastStart = -Infinity;
  let pollTimer: NodeJS.Timeout | undefined;
  let driftTimer: NodeJS.Timeout | undefined;
  let stopped = false;
  const driftGapMaxMs = pollMs > 0 ? Math.min(DRIFT_GAP_MAX_MS, pollMs) : DRIFT_GAP_MAX_MS;
  const driftGapMinMs = Math.min(DRIFT_GAP_MS, driftGapMaxMs);
  let driftGapMs = driftGapMinMs;
  // The last answer read, its bytes and what it made: the same bytes again cost neither parsing nor
  // building, whatever they made (the schema served, one that failed, an error). Kept whole rather
  // than hashed: comparing megabytes takes a fraction of what hashing them does, on the event loop.
  let known: { bytes: Buffer; outcome: IntrospectedSchema & { changes?: SchemaChange[] } | IntrospectionError } | undefined;

  /** The service's schema now (with its changes from what is served), or the IntrospectionError of why not. */
  const introspectNow = async (): Promise<IntrospectedSchema & { changes?: SchemaChange[] }> => {
    const { answer, redact } = await fetchIntrospectionAnswer(introspection);
    const read = Buffer.from(answer.bytes.buffer, answer.bytes.byteOffset, answer.bytes.byteLength);
    if (!known?.bytes.equals(read)) {
      // The bytes come back from the thread that read them (they are not copied to be sent there).
      const { outcome, bytes: returned } = await outcomeOffLoop(answer, served && { sdl: served.sdl, hash: served.hash }, bounds);
      const bytes = Buffer.from(returned.buffer, returned.byteOffset, returned.byteLength);
      let settled: IntrospectedSchema & { changes?: SchemaChange[] } | IntrospectionError;
      try {
        settled = Object.assign(settledOutcome(outcome, redact), 'changes' in outcome ? { changes: outcome.changes } : {});
      } catch (error) {
        settled = error as IntrospectionError;
      }
      known = { bytes, outcome: settled };
      onAnswer?.('parsed');
    } else onAnswer?.('unchanged');
    if (known.outcome instanceof Error) throw known.outcome;
    return known.outcome;
  };
  const short = (hash: string) => hash.slice(0, 12);

  const failed = (message: string, summary: string) => {
    checkedAt = new Date().toISOString();
    lastCheck = summary;
    onFailure?.('introspection');
    if (message !== lastFailure) log(`problems schema: check failed (${message}); still serving ${short(served!.hash)} (${source})`, 'warn');
    lastFailure = message;
  };

  /** Whether the schema served changed. */
  const checkOnce = async (): Promise<boolean> => {
    lastStart = performance.now();
    let live: IntrospectedSchema & { changes?: SchemaChange[] };
    try {
      live = await introspectNow();
    } catch (error) {
      failed((error as Error).message, summaryOf(error));
      return false;
    }
    checkedAt = new Date().toISOString();
    lastCheck = 'ok';
    if (lastFailure !== undefined) log('problems schema: checks succeed again');
    lastFailure = undefined;
    const previous = served!;
    if (live.hash === previous.hash) {
      source = 'live';
      refused = undefined;
      return false;
    }
    if (live.hash === unbuildable || stopped) return false;
    // Refused before any building: counted where it was read, so a schema too large costs the event
    // loop nothing past the comparison of its bytes.
    const over = bounds && overBound(live.size, bounds);
    if (over) {
      unbuildable = live.hash;
      refused = `${short(live.hash)} not built: ${describeOverBound(over)}`;
      onFailure?.('bound');
      log(`problems schema: ${short(live.hash)} refused, not built (${describeOverBound(over)}); still serving ${short(previous.hash)} (${source})`, 'error');
      return false;
    }
    // Worked out with the schema, off the event loop when it is large.
    const changes = live.changes ?? [];
    let swap: () => void;
    try {
      swap = await onChange(live, previous);
    } catch (error) {
      unbuildable = live.hash;
      onFailure?.('build');
      log(`problems schema: ${short(live.hash)} cannot be built (${(error as Error).message}); still serving ${short(previous.hash)} (${source})`, 'error');
      return false;
    }
    // The swap and what tells of it, in one turn: no request, /readiness or scrape comes between.
    swap();
    served = live;
    source = 'live';
    unbuildable = undefined;
    refused = undefined;
    log(`problems schema: now serving ${short(live.hash)} (was ${short(previous.hash)}): ${oneLine(formatSchemaDiff(changes, 10))}`, 'warn');
    return true;
  };

  const check = (): Promise<boolean> => {
    if (stopped || !served || source === 'given') return Promise.resolve(false);
    running ??= checkOnce().finally(() => (running = undefined));
    return running;
  };

  const driftCheck = () =>
    void check().then((changed) => {
      driftGapMs = changed ? driftGapMinMs : Math.min(driftGapMs * 2, driftGapMaxMs);
    });

  const poll = () => {
    pollTimer = setTimeout(() => {
      void check().then(() => {
        if (!stopped) poll();
      });
    }, pollMs);
    pollTimer.unref();
  };

  /** `schema`, unless it is over a bound: then start-up stops, with the setting named. */
  const admitted = (schema: IntrospectedSchema, what: string): IntrospectedSchema => {
    const over = bounds && overBound(schema.size, bounds);
    if (over) throw new Error(`${what} is too large to build (${describeOverBound(over)}): building it would hold up every request; raise ${over.variable} to serve it`);
    return schema;
  };

  return {
    async start() {
      if (givenPath) return (served = admitted(await readSnapshot(givenPath), `the problems schema ${givenPath}`));
      let live: IntrospectedSchema;
      try {
        live = await introspectNow();
      } catch (error) {
        return this.fallBack(`it could not be introspected: ${(error as Error).message}`, summaryOf(error));
      }
      // Never the snapshot in its place: it would not match the service that answered.
      served = admitted(live, "the problems service's schema");
      checkedAt = new Date().toISOString();
      lastCheck = 'ok';
      log(`problems schema: introspected from the service, ${short(served.hash)}; ${pollMs > 0 ? `checked again every ${pollMs / 1000} s` : 'PROBLEMS_SCHEMA_POLL_SECONDS=0: checked again only when a request is refused'}`);
      // The difference is the operator's to know once: the snapshot is what codegen and the fallback read.
      const snapshot = await readSnapshot(snapshotPath).catch(() => undefined);
      if (snapshot && snapshot.hash !== served.hash) {
        const changes = await diffSchemas(snapshot.schema, served.schema);
        log(`problems schema: the service's differs from the committed snapshot (run \`npm run sources:refresh\` to update it): ${oneLine(formatSchemaDiff(changes, 10))}`, 'warn');
      }
      return served;
    },
    async fallBack(reason, summary) {
      served = admitted(await readSnapshot(snapshotPath), `the committed snapshot ${snapshotPath}`);
      source = 'snapshot';
      lastCheck = summary;
      onFailure?.('introspection');
      lastFailure = reason;
      const following = pollMs > 0 ? `checking again every ${pollMs / 1000} s` : 'PROBLEMS_SCHEMA_POLL_SECONDS=0: checked again only when a request is refused';
      log(`problems schema: serving the committed snapshot ${short(served.hash)}, since ${reason}; ${following}`, 'warn');
      return served;
    },
    follow() {
      if (source !== 'given' && pollMs > 0 && !pollTimer) poll();
    },
    driftSeen() {
      if (stopped || source === 'given' || running || driftTimer) return;
      const wait = lastStart + driftGapMs - performance.now();
      if (wait <= 0) {
        driftCheck();
        return;
      }
      driftTimer = setTimeout(() => {
        driftTimer = undefined;
        driftCheck();
      }, wait);
      driftTimer.unref();
    },
    check: async () => void (await check()),
    status: () => ({ source, hash: served?.hash ?? '', ...(checkedAt ? { checkedAt } : {}), ...(lastCheck ? { lastCheck } : {}), ...(refused ? { refused } : {}) }),
    stop() {
      stopped = true;
      clearTimeout(pollTimer);
      clearTimeout(driftTimer);
    },
  };
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
function summaryOf(error: unknown): string {
  return error instanceof IntrospectionError ? SUMMARIES[error.failure] : 'failed';
}

/** A multi-line summary as one log line. */
function oneLine(text: string): string {
  return text.split('\n').join('; ');
}
