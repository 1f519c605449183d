import { hash } from 'node:crypto';
import { buildClientSchema, buildSchema, lexicographicSortSchema, printSchema, validateSchema, type GraphQLSchema, type IntrospectionQuery } from 'graphql';
import { diffSchemas, type SchemaChange } from './schema-diff.ts';
import { overBound, sizeOf, type SchemaBounds, type SchemaSize } from './schema-size.ts';

/** Why an introspection failed, as a kind a caller can act on and a line an operator can read. */
export type IntrospectionFailure = 'unreachable' | 'timeout' | 'refused' | 'status' | 'too-large' | 'not-json' | 'no-schema' | 'invalid';

/** An introspection answer as it came, before any parsing. */
export interface IntrospectionAnswer {
  status: number;
  bytes: Uint8Array;
  /** The endpoint as it may be written in a message (no user or password). */
  endpoint: string;
}

/** What the answer was compared with: the schema served, so a changed one comes with its changes. */
export interface AnswerBaseline {
  sdl: string;
  hash: string;
}

/**
 * What an answer makes: the sorted printed schema, its hash and its size (with the changes from the
 * baseline, when given and different, and the schema within the bounds), or why it is not a schema.
 */
export type AnswerOutcome =
  | { sdl: string; hash: string; size: SchemaSize; changes?: SchemaChange[] }
  | { failure: IntrospectionFailure; message: string; serviceMessage?: string };

/**
 * Everything an introspection answer costs past its bytes: JSON, the checks, building, validating,
 * sorting, printing, hashing and counting the schema, and the diff from the baseline (skipped for a
 * schema over `bounds`, which will not be built: its changes would only be a large message). Pure (strings in, strings
 * out), so it runs as it is in a worker thread (introspection-thread.ts) when the answer is large.
 * Messages carry the service's words unredacted: the caller cuts secrets out.
 */
export async function outcomeOfAnswer({ status, bytes, endpoint }: IntrospectionAnswer, baseline?: AnswerBaseline, bounds?: SchemaBounds): Promise<AnswerOutcome> {
  let body: { data?: IntrospectionQuery | null; errors?: { message?: unknown }[] } | undefined;
  try {
    body = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8')) as typeof body;
  } catch {
    body = undefined;
  }
  const ok = status >= 200 && status < 300;
  const said = Array.isArray(body?.errors) && typeof body.errors[0]?.message === 'string' ? body.errors[0].message.slice(0, 300) : undefined;
  const failed = (failure: IntrospectionFailure, message: string): AnswerOutcome => ({ failure, message, ...(said ? { serviceMessage: said } : {}) });
  if (status === 401 || status === 403) return failed('refused', `${endpoint} refused the key (HTTP ${status})`);
  if (body === undefined || body === null || typeof body !== 'object') {
    return failed(ok ? 'not-json' : 'status', `${endpoint} answered ${ok ? 'with a body that is not JSON' : `HTTP ${status}`}`);
  }
  if (!body.data?.__schema) {
    return failed(
      ok || said ? 'no-schema' : 'status',
      `${endpoint} answered ${ok ? '' : `HTTP ${status} `}without a schema${said ? `: ${said}` : ' (is introspection disabled there?)'}`,
    );
  }
  let schema: GraphQLSchema;
  try {
    schema = lexicographicSortSchema(buildClientSchema(body.data));
  } catch (error) {
    return failed('invalid', `${endpoint} answered an introspection that is not a schema: ${(error as Error).message.slice(0, 300)}`);
  }
  body = undefined;
  const problems = validateSchema(schema);
  if (problems.length > 0) return failed('invalid', `${endpoint} answered an invalid schema: ${problems[0].message.slice(0, 300)}`);
  const sdl = printSchema(schema);
  const digest = sdlHash(sdl);
  const size = sizeOf(schema);
  if (!baseline || baseline.hash === digest || (bounds && overBound(size, bounds))) return { sdl, hash: digest, size };
  const changes = await diffSchemas(buildSchema(baseline.sdl), schema).catch(() => []);
  return { sdl, hash: digest, size, changes };
}

/** sha256 (hex) of a schema printed sorted: equal for equal schemas whatever order the service lists them in. */
export function sdlHash(sdl: string): string {
  return hash('sha256', sdl, 'hex');
}
