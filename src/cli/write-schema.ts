/**
 * `npm run schema:write`: writes the gateway's public schema to schema.graphql at the root, the file
 * codegen and editors point at (shipped in the package; a test fails when it is out of date). Needs
 * no upstream: the schema is built from the committed sources (the problems snapshot among them).
 */
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { lexicographicSortSchema, printSchema, type GraphQLSchema } from 'graphql';
import { createGateway } from '../gateway/create-gateway.ts';
import { problemsSnapshotPath } from '../gateway/mesh.ts';

export const SCHEMA_FILE = fileURLToPath(new URL('../../schema.graphql', import.meta.url));

/** The schema as served, sorted so that the file changes only when the graph does. */
export function schemaFileSource(schema: GraphQLSchema): string {
  return `${printSchema(lexicographicSortSchema(schema))}\n`;
}

/**
 * Writes schema.graphql as the gateway serves it over the problems schema in `problemsSchemaPath`
 * (pinned: nothing is introspected, so no upstream is needed). Returns the file written.
 */
export async function writeSchemaFile(problemsSchemaPath: string): Promise<string> {
  // Any URL will do: nothing is called while the schema is built.
  const gateway = await createGateway({ log: () => undefined, requestLog: false, problemsSchemaPath, settings: { problemsUrl: 'http://127.0.0.1:9', translationUrl: 'http://127.0.0.1:9' } });
  try {
    await writeFile(SCHEMA_FILE, schemaFileSource(gateway.schema));
    return SCHEMA_FILE;
  } finally {
    await gateway.close();
  }
}

async function main() {
  console.log(`Wrote ${await writeSchemaFile(await problemsSnapshotPath())}`);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
