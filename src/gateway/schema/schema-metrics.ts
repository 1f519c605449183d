import { Counter, Gauge, type Registry } from 'prom-client';
import type { ProblemsSchemaStatus } from './live-problems-schema.ts';

export interface SchemaMetrics {
  /** A new problems schema is served. */
  reloaded(): void;
  /** A check failed (`introspection`), or a new schema could not be built (`build`) or was refused for its size (`bound`). */
  failed(reason: 'introspection' | 'build' | 'bound'): void;
  /** An introspection answer came: byte for byte the last one (`unchanged`), or read (`parsed`). */
  answered(answer: 'unchanged' | 'parsed'): void;
}

/**
 * The problems schema's metrics, in the gateway's registry: reloads, failed checks, and the schema
 * served as an info series (`hash`, `source` labels, value 1), read from `status` when scraped, and
 * the engines alive (`engines`), which returns to 1 once the requests on a replaced schema end.
 */
export function createSchemaMetrics(registry: Registry, status: () => ProblemsSchemaStatus, engines: () => number): SchemaMetrics {
  const registers = [registry];
  const reloads = new Counter({
    name: 'gateway_problems_schema_reloads_total',
    help: 'Times a changed problems schema was swapped in while the gateway ran (requests in flight finished on the one they started with).',
    registers,
  });
  const failures = new Counter({
    name: 'gateway_problems_schema_check_failures_total',
    help: 'Checks of the problems schema that failed: `introspection` (unreachable, refused, not a schema, too large, too slow), `build` (a new schema the gateway could not build) or `bound` (a new schema over PROBLEMS_SCHEMA_MAX_TYPES, _FIELDS or _ENUM_VALUES, refused before building). The schema served stays as it was.',
    labelNames: ['reason'] as const,
    registers,
  });
  for (const reason of ['introspection', 'build', 'bound']) failures.inc({ reason }, 0);
  const answers = new Counter({
    name: 'gateway_problems_schema_introspections_total',
    help: 'Introspection answers of the problems service, by `answer`: `unchanged` (byte for byte the last one, so not parsed at all) or `parsed` (read, off the event loop when large).',
    labelNames: ['answer'] as const,
    registers,
  });
  for (const answer of ['unchanged', 'parsed']) answers.inc({ answer }, 0);
  new Gauge({
    name: 'gateway_problems_schema_info',
    help: 'The problems schema served: `hash` (sha256 of the sorted printed schema) and `source` (live, snapshot, given); always 1.',
    labelNames: ['hash', 'source'] as const,
    registers,
    collect() {
      const { hash, source } = status();
      this.reset();
      this.set({ hash, source }, 1);
    },
  });
  new Gauge({
    name: 'gateway_problems_schema_engines',
    help: 'Engines (mesh, yoga, caches) built from a problems schema and not yet released: 1, more only while requests started before a swap are still running.',
    registers,
    collect() {
      this.set(engines());
    },
  });
  return {
    reloaded: () => reloads.inc(),
    failed: (reason) => failures.inc({ reason }),
    answered: (answer) => answers.inc({ answer }),
  };
}
