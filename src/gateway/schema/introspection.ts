import { hash } from 'node:crypto';
import { buildClientSchema, getIntrospectionQuery, lexicographicSortSchema, printSchema, validateSchema, type GraphQLSchema, type IntrospectionQuery } from 'graphql';
import { readBoundedBytes } from '../../shared/read-bounded.ts';

export interface IntrospectOptions {
  /** The GraphQL endpoint itself (`<PROBLEMS_URL>/graphql`, or a gateway's `/graphql`). */
  endpoint: string;
  /** Sent as `Authorization: Bearer <key>`. */
  apiKey?: string;
  /** The whole exchange, answer read included, gives up past this. @default 10000 */
  timeoutMs?: number;
  /** Largest answer read; reading stops there and the check fails. @default 10485760 (10 MiB) */
  maxBytes?: number;
  /** @default globalThis.fetch */
  fetch?: typeof fetch;
}

/** Why an introspection failed, as a kind a caller can act on and a line an operator can read. */
export type IntrospectionFailure = 'unreachable' | 'timeout' | 'refused' | 'status' | 'too-large' | 'not-json' | 'no-schema' | 'invalid';

export class IntrospectionError extends Error {
  readonly failure: IntrospectionFailure;
  /** The first error message the service wrote in its answer, when it wrote one (never a key: the key is not echoed by GraphQL errors, and is cut out anyway). */
  readonly serviceMessage?: string;

  constructor(failure: IntrospectionFailure, message: string, serviceMessage?: string) {
    super(message);
    this.failure = failure;
    this.serviceMessage = serviceMessage;
    this.name = 'IntrospectionError';
  }
}

/** A schema as introspected, with what identifies it. */
export interface IntrospectedSchema {
  schema: GraphQLSchema;
  /** The schema printed with its types and fields sorted: what the hash is taken of, and what a snapshot holds. */
  sdl: string;
  /** sha256 (hex) of `sdl`: equal for equal schemas whatever order the service lists them in. */
  hash: string;
}

const QUERY = JSON.stringify({ query: getIntrospectionQuery({ descriptions: true, inputValueDeprecation: true }) });

/**
 * Introspects a GraphQL endpoint, bounded in time and bytes like every upstream answer, and checks
 * that what came back is a valid schema. The one introspection of the project: the gateway's start,
 * its polling and drift checks, `npm run sources:refresh` and `npm run schema:print` all use it.
 * Fails with an IntrospectionError saying what went wrong in one line (never the key).
 */
export async function introspect({ endpoint: given, apiKey, timeoutMs = 10_000, maxBytes = 10 * 1024 * 1024, fetch: fetchFn = globalThis.fetch }: IntrospectOptions): Promise<IntrospectedSchema> {
  let endpoint = given;
  // Messages name the endpoint without the user and password a URL may carry, and never the key.
  const secrets = [apiKey, ...credentialsIn(endpoint)].filter((secret): secret is string => Boolean(secret));
  const redact = (text: string) => secrets.reduce((line, secret) => line.replaceAll(secret, '[redacted]'), text);
  endpoint = withoutCredentials(endpoint);
  const signal = AbortSignal.timeout(timeoutMs);
  const late = (error: unknown) => (error as Error)?.name === 'TimeoutError' || signal.aborted;
  let response: Response;
  try {
    response = await fetchFn(given, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/graphql-response+json, application/json',
        ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
      },
      body: QUERY,
      signal,
    });
  } catch (error) {
    if (late(error)) throw new IntrospectionError('timeout', `no answer from ${endpoint} within ${timeoutMs} ms`);
    throw new IntrospectionError('unreachable', `could not reach ${endpoint}: ${redact(causeOf(error))}`);
  }
  let text: string;
  try {
    text = await readBounded(response, maxBytes);
  } catch (error) {
    if (error instanceof IntrospectionError) throw error;
    if (late(error)) throw new IntrospectionError('timeout', `the answer from ${endpoint} did not end within ${timeoutMs} ms`);
    throw new IntrospectionError('unreachable', `the answer from ${endpoint} broke off: ${redact(causeOf(error))}`);
  }
  let body: { data?: IntrospectionQuery | null; errors?: { message?: unknown }[] } | undefined;
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    body = undefined;
  }
  const said = Array.isArray(body?.errors) && typeof body.errors[0]?.message === 'string' ? redact(body.errors[0].message.slice(0, 300)) : undefined;
  if (response.status === 401 || response.status === 403) throw new IntrospectionError('refused', `${endpoint} refused the key (HTTP ${response.status})`, said);
  if (body === undefined || body === null || typeof body !== 'object') {
    throw new IntrospectionError(response.ok ? 'not-json' : 'status', `${endpoint} answered ${response.ok ? 'with a body that is not JSON' : `HTTP ${response.status}`}`);
  }
  if (!body.data?.__schema) {
    throw new IntrospectionError(
      response.ok || said ? 'no-schema' : 'status',
      `${endpoint} answered ${response.ok ? '' : `HTTP ${response.status} `}without a schema${said ? `: ${said}` : ' (is introspection disabled there?)'}`,
      said,
    );
  }
  let schema: GraphQLSchema;
  try {
    schema = lexicographicSortSchema(buildClientSchema(body.data));
  } catch (error) {
    throw new IntrospectionError('invalid', `${endpoint} answered an introspection that is not a schema: ${(error as Error).message.slice(0, 300)}`);
  }
  const problems = validateSchema(schema);
  if (problems.length > 0) throw new IntrospectionError('invalid', `${endpoint} answered an invalid schema: ${problems[0].message.slice(0, 300)}`);
  return withHash(schema);
}

/** A schema with its sorted printing and the hash of that. */
export function withHash(schema: GraphQLSchema): IntrospectedSchema {
  const sdl = printSchema(lexicographicSortSchema(schema));
  return { schema, sdl, hash: hash('sha256', sdl, 'hex') };
}

/** The body as text, stopped (and the transfer with it) once it passes `maxBytes`. */
async function readBounded(response: Response, maxBytes: number): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge(maxBytes);
  }
  if (!response.body) return '';
  return Buffer.from(await readBoundedBytes(response.body, maxBytes, () => tooLarge(maxBytes))).toString('utf8');
}

function tooLarge(maxBytes: number): IntrospectionError {
  return new IntrospectionError('too-large', `the introspection answer is larger than ${maxBytes} bytes (PROBLEMS_MAX_RESPONSE_BYTES)`);
}

/** The network's own code (ECONNREFUSED) where it gave one, else its message. */
function causeOf(error: unknown): string {
  for (let current = error, depth = 0; current && depth < 5; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return (error as Error)?.message ?? String(error);
}

/** The user and password in `url`, as written and decoded. */
function credentialsIn(url: string): string[] {
  try {
    const { username, password } = new URL(url);
    return [password, decodeURIComponent(password), username, decodeURIComponent(username)].filter((part) => part.length > 0);
  } catch {
    return [];
  }
}

function withoutCredentials(url: string): string {
  try {
    const parsed = new URL(url);
    if (!parsed.username && !parsed.password) return url;
    parsed.username = '';
    parsed.password = '';
    return parsed.toString();
  } catch {
    return url;
  }
}
