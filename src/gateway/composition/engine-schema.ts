import { validateSchema, type GraphQLSchema } from 'graphql';
import type { GatewayLog } from '../gateway-log.ts';
import { invalidTrustedDocuments } from '../guards/stale-trusted-documents.ts';
import type { BuiltMesh } from '../mesh.ts';
import { toPublicSchema } from '../public-schema.ts';
import { nextTurn } from '../schema/next-turn.ts';
import { staleSdkOperationsLine } from '../../sdk/stale-operations.ts';

/**
 * The schema clients see, made from one mesh: the public schema, validated, and what no longer
 * validates against it said. Each step over the whole schema runs whole in a turn of its own
 * (nextTurn), so requests are served in between.
 */
export async function publicSchemaOf(mesh: BuiltMesh['mesh'], hash: string, trustedDocuments: Record<string, string> | undefined, log: GatewayLog): Promise<GraphQLSchema> {
  const schema = toPublicSchema(mesh.schema);
  await nextTurn();
  // graphql-js validates a schema once, at its first use, and keeps the result on it: here, in a
  // turn of its own, rather than in the first request's or in the next step's.
  validateSchema(schema);
  await nextTurn();
  warnOfStaleOperations(schema, hash, trustedDocuments, log);
  return schema;
}

/** Says which trusted documents and SDK operations no longer validate against the schema just built. */
function warnOfStaleOperations(schema: GraphQLSchema, hash: string, trustedDocuments: Record<string, string> | undefined, log: GatewayLog): void {
  const stale = trustedDocuments ? invalidTrustedDocuments(schema, trustedDocuments) : [];
  if (stale.length > 0) {
    log(`trusted documents that no longer validate against problems schema ${hash.slice(0, 12)} (they answer GRAPHQL_VALIDATION_FAILED): ${stale.join(', ')}`, 'warn');
  }
  const staleSdk = staleSdkOperationsLine(schema, hash);
  if (staleSdk) log(staleSdk, 'warn');
}
