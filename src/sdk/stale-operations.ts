import { validate, type DocumentNode, type GraphQLSchema } from 'graphql';
import * as generated from './gql/graphql.ts';

/** The SDK's operations (src/sdk/operations, as codegen compiled them), by name. */
const OPERATIONS: [string, DocumentNode][] = Object.entries(generated as Record<string, unknown>)
  .filter((entry): entry is [string, DocumentNode] => entry[0].endsWith('Document') && (entry[1] as { kind?: unknown } | null)?.kind === 'Document')
  .map(([name, document]) => [name.slice(0, -'Document'.length), document]);

/** The SDK's operations that do not validate against `schema`, each with graphql-js's first reason. */
export function sdkOperationsNotValidating(schema: GraphQLSchema): { name: string; reason: string }[] {
  return OPERATIONS.flatMap(([name, document]) => {
    const [first] = validate(schema, document);
    return first ? [{ name, reason: first.message }] : [];
  });
}

/**
 * The one line saying which of the package's SDK operations (`problems-translation-gateway/sdk`) the
 * served schema refuses, written for the problems service the package was built against; undefined
 * when all validate. A service of one's own with other names or another pagination needs an SDK of
 * its own, generated from its schema.
 */
export function staleSdkOperationsLine(schema: GraphQLSchema, schemaHash: string): string | undefined {
  const stale = sdkOperationsNotValidating(schema);
  if (stale.length === 0) return undefined;
  const which = stale.map(({ name, reason }) => `${name} (${reason})`).join(', ');
  return `SDK operations that do not validate against problems schema ${schemaHash.slice(0, 12)} (their sdk calls and typed documents fail): ${which}; generate your own from the served schema (README "Schema and codegen")`;
}
