import { readFile, rename, writeFile } from 'node:fs/promises';
import { buildClientSchema, buildSchema, getIntrospectionQuery, lexicographicSortSchema, printSchema, type IntrospectionQuery } from 'graphql';
import { LINKS, missingForLink } from './links/index.ts';
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

const HEADER = `# Introspection snapshot of the problems service, read by .meshrc.yaml so that the gateway builds
# without the upstream. Do not edit: \`npm run sources:refresh\` rewrites it from PROBLEMS_URL.
`;

/** Introspects the live problems service and rewrites the snapshot the gateway builds from. */
export async function refreshProblemsSnapshot({ url, apiKey, snapshotPath, timeoutMs = 30_000 }: RefreshOptions): Promise<RefreshResult> {
  const response = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/graphql-response+json, application/json',
      ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
    },
    body: JSON.stringify({ query: getIntrospectionQuery({ descriptions: true, inputValueDeprecation: true }) }),
    signal: AbortSignal.timeout(timeoutMs),
  }).catch((error: Error) => {
    throw new Error(`could not reach ${url}/graphql: ${error.name === 'TimeoutError' ? 'no answer in time' : error.message}`);
  });
  if (response.status === 401 || response.status === 403) {
    throw new Error(`the problems service refused PROBLEMS_API_KEY (HTTP ${response.status})`);
  }
  if (!response.ok) throw new Error(`introspection failed with HTTP ${response.status}`);
  const body = (await response.json().catch(() => undefined)) as { data?: IntrospectionQuery; errors?: unknown[] } | undefined;
  if (!body?.data?.__schema) {
    throw new Error('the answer to the introspection query holds no schema (is introspection disabled upstream?)');
  }
  const schema = lexicographicSortSchema(buildClientSchema(body.data));

  const previous = await readFile(snapshotPath, 'utf8').catch(() => undefined);
  const diff = previous === undefined ? undefined : await diffSchemas(buildSchema(previous), schema);
  // Write then rename, so a gateway starting meanwhile never reads half a file.
  const partial = `${snapshotPath}.${process.pid}.partial`;
  await writeFile(partial, `${HEADER}\n${printSchema(schema)}\n`);
  await rename(partial, snapshotPath);
  const linksLeftOut = LINKS.flatMap((link) => {
    const reason = missingForLink(schema, link);
    return reason ? [{ name: link.name, reason }] : [];
  });
  return { diff, linksLeftOut };
}
