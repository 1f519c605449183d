import { fetchIntrospectionAnswer, IntrospectionError, settledOutcome, type IntrospectedSchema, type IntrospectOptions } from './introspection.ts';
import { outcomeOffLoop } from './introspection-thread.ts';
import type { SchemaChange } from './schema-diff.ts';
import type { SchemaBounds } from './schema-size.ts';

/** A schema the service answered, with its changes from the schema served when there was one. */
export type IntrospectedWithChanges = IntrospectedSchema & { changes?: SchemaChange[] };

/**
 * Introspects the service, remembering the last answer read, its bytes and what it made: the same
 * bytes again cost neither parsing nor building, whatever they made (the schema served, one that
 * failed, an error). Kept whole rather than hashed: comparing megabytes takes a fraction of what
 * hashing them does, on the event loop.
 */
export function createIntrospectionMemo({
  introspection,
  bounds,
  onAnswer,
}: {
  introspection: IntrospectOptions;
  bounds?: SchemaBounds;
  /** Told of each answer: `unchanged` (byte for byte the last one: not parsed) or `parsed`. */
  onAnswer?(answer: 'unchanged' | 'parsed'): void;
}): {
  /** The service's schema now (with its changes from `served`), or rejects with the IntrospectionError of why not. */
  read(served: IntrospectedSchema | undefined): Promise<IntrospectedWithChanges>;
} {
  let known: { bytes: Buffer; outcome: IntrospectedWithChanges | IntrospectionError } | undefined;
  return {
    async read(served) {
      const { answer, redact } = await fetchIntrospectionAnswer(introspection);
      const read = Buffer.from(answer.bytes.buffer, answer.bytes.byteOffset, answer.bytes.byteLength);
      if (!known?.bytes.equals(read)) {
        // The bytes come back from the thread that read them (they are not copied to be sent there).
        const { outcome, bytes: returned } = await outcomeOffLoop(answer, served && { sdl: served.sdl, hash: served.hash }, bounds);
        const bytes = Buffer.from(returned.buffer, returned.byteOffset, returned.byteLength);
        let settled: IntrospectedWithChanges | IntrospectionError;
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
    },
  };
}
