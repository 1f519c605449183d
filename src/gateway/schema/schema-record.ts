import type { IntrospectedSchema } from './introspection.ts';

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

/**
 * The problems schema served, and what the checks of the service found: what /readiness and the log
 * tell. Each outcome of a check is one call, which sets everything that outcome changes together.
 */
export interface SchemaRecord {
  readonly served: IntrospectedSchema | undefined;
  readonly source: ProblemsSchemaSource;
  /** The hash of a schema that failed to build or was refused: not built again on every poll, said once, counted once. */
  readonly unbuildable: string | undefined;
  /** Serving `schema` from the start (`live` or `given`). */
  serve(schema: IntrospectedSchema, source: ProblemsSchemaSource): void;
  /** A check answered; true when the one before had failed. */
  succeeded(): boolean;
  /** A check failed with `message` (for the log) and `summary` (for /readiness); true when the message differs from the last failure's. */
  failed(message: string, summary: string): boolean;
  /** Serving the snapshot at start since the service could not be introspected (`reason` for the log, `summary` for /readiness). */
  fellBack(schema: IntrospectedSchema, reason: string, summary: string): void;
  /** The service's schema is the one served: served as the service's, and no longer refused. */
  unchanged(): void;
  /** The service's schema (`hash`) is over a bound (`why`): not built, and told by /readiness until it changes. */
  refuse(hash: string, why: string): void;
  /** The service's schema (`hash`) could not be built: not built again. */
  couldNotBuild(hash: string): void;
  /** `schema`, the service's new one, is now served: nothing is unbuildable or refused any more. */
  swapped(schema: IntrospectedSchema): void;
  status(): ProblemsSchemaStatus;
}

export function createSchemaRecord(source: ProblemsSchemaSource): SchemaRecord {
  let served: IntrospectedSchema | undefined;
  let checkedAt: string | undefined;
  let lastCheck: string | undefined;
  let lastFailure: string | undefined;
  let unbuildable: string | undefined;
  let refused: string | undefined;
  return {
    get served() {
      return served;
    },
    get source() {
      return source;
    },
    get unbuildable() {
      return unbuildable;
    },
    serve(schema, from) {
      served = schema;
      source = from;
    },
    succeeded() {
      checkedAt = new Date().toISOString();
      lastCheck = 'ok';
      const recovered = lastFailure !== undefined;
      lastFailure = undefined;
      return recovered;
    },
    failed(message, summary) {
      checkedAt = new Date().toISOString();
      lastCheck = summary;
      const news = message !== lastFailure;
      lastFailure = message;
      return news;
    },
    fellBack(schema, reason, summary) {
      served = schema;
      source = 'snapshot';
      lastCheck = summary;
      lastFailure = reason;
    },
    unchanged() {
      source = 'live';
      refused = undefined;
    },
    refuse(hash, why) {
      unbuildable = hash;
      refused = why;
    },
    couldNotBuild(hash) {
      unbuildable = hash;
    },
    swapped(schema) {
      served = schema;
      source = 'live';
      unbuildable = undefined;
      refused = undefined;
    },
    status() {
      return { source, hash: served?.hash ?? '', ...(checkedAt ? { checkedAt } : {}), ...(lastCheck ? { lastCheck } : {}), ...(refused ? { refused } : {}) };
    },
  };
}
