/**
 * `npm run schema:write`: writes the gateway's public schema to schema.graphql at the root, the file
 * codegen and editors point at (shipped in the package; a test fails when it is out of date). Needs
 * no upstream: the schema is built from the committed sources.
 */
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { lexicographicSortSchema, printSchema, type GraphQLSchema } from 'graphql';
import { createGateway } from '../gateway/create-gateway.ts';

export const SCHEMA_FILE = fileURLToPath(new URL('../../schema.graphql', import.meta.url));

/** The schema as served, sorted so that the file changes only when the graph does. */
export function schemaFileSource(schema: GraphQLSchema): string {
  return `${printSchema(lexicographicSortSchema(schema))}\n`;
}

async function main() {
  // Any URL will do: nothing is called while the schema is built.
  const gateway = await createGateway({ log: () => undefined, requestLog: false, settings: { problemsUrl: 'http://127.0.0.1:9', translationUrl: 'http://127.0.0.1:9' } });
  try {
    await writeFile(SCHEMA_FILE, schemaFileSource(gateway.schema));
    console.log(`Wrote ${SCHEMA_FILE}`);
  } finally {
    await gateway.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
