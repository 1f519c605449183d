import { parse, validate, type GraphQLSchema } from 'graphql';
import type { TrustedDocuments } from './persisted-documents.ts';

/**
 * The hashes of the trusted documents that do not validate against `schema`: after the problems
 * schema changed, those operations answer GRAPHQL_VALIDATION_FAILED (clients get graphql-js's
 * words, such as `Cannot query field`), so the operator is told which ones before clients are.
 * A document that does not parse is not reported here: it never ran.
 */
export function invalidTrustedDocuments(schema: GraphQLSchema, manifest: TrustedDocuments): string[] {
  const stale: string[] = [];
  for (const [hash, text] of Object.entries(manifest)) {
    let document;
    try {
      document = parse(text, { noLocation: true });
    } catch {
      continue;
    }
    if (validate(schema, document).length > 0) stale.push(hash);
  }
  return stale;
}
