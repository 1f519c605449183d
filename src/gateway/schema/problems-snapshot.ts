import { readFile, rename, writeFile } from 'node:fs/promises';
import { buildSchema, type GraphQLSchema } from 'graphql';
import { LINKS, missingForLink } from '../links/index.ts';
import { introspect, IntrospectionError, withHash, type IntrospectedSchema } from './introspection.ts';
import { diffSchemas, type SchemaChange } from './schema-diff.ts';

export interface RefreshOptions {
  /** Base URL of the problems service; `<url>/graphql` is introspected. */
  url: string;
  apiKey?: string;
  /** The snapshot file to rewrite. */
  snapshotPath: string;
  /** Give up after this long. @default 30000 */
  timeoutMs?: number;
}

export interface RefreshResult {
  /** Undefined when there was no snapshot before. */
  diff?: SchemaChange[];
  /** Links the new schema cannot carry, with the reason. */
  linksLeftOut: { name: string; reason: string }[];
}

const HEADER = `# Introspection snapshot of the problems service: what the gateway builds from when the service
# cannot be reached at start, and what codegen reads. Do not edit: \`npm run sources:refresh\`
# rewrites it (and the public schema.graphql) from PROBLEMS_URL.
`;

/** Introspects the live problems service and rewrites the snapshot the gateway falls back on. */
export async function refreshProblemsSnapshot({ url, apiKey, snapshotPath, timeoutMs = 30_000 }: RefreshOptions): Promise<RefreshResult> {
  const live = await introspect({ endpoint: `${url}/graphql`, apiKey, timeoutMs }).catch((error: unknown) => {
    if (error instanceof IntrospectionError && error.failure === 'refused') throw new Error(`the problems service refused PROBLEMS_API_KEY (${/HTTP \d+/.exec(error.message)?.[0]})`);
    throw error;
  });
  const previous = await readSnapshot(snapshotPath).catch(() => undefined);
  const diff = previous === undefined ? undefined : await diffSchemas(previous.schema, live.schema);
  // Write then rename, so a gateway starting meanwhile never reads half a file.
  const partial = `${snapshotPath}.${process.pid}.partial`;
  await writeFile(partial, `${HEADER}\n${live.sdl}\n`);
  await rename(partial, snapshotPath);
  return { diff, linksLeftOut: linksLeftOutOf(live.schema) };
}

/** An SDL file (a snapshot, a fixture) read and built, with its hash as a live schema's is taken. */
export async function readSnapshot(path: string): Promise<IntrospectedSchema> {
  return withHash(buildSchema(await readFile(path, 'utf8')));
}

/** The links `schema` cannot carry, with the reason. */
export function linksLeftOutOf(schema: GraphQLSchema): { name: string; reason: string }[] {
  return LINKS.flatMap((link) => {
    const reason = missingForLink(schema, link);
    return reason ? [{ name: link.name, reason }] : [];
  });
}
