import { buildSchema, getIntrospectionQuery, lexicographicSortSchema, printSchema, type GraphQLSchema } from 'graphql';
import { readBoundedBytes } from '../../shared/read-bounded.ts';
import { sdlHash, type AnswerOutcome, type IntrospectionAnswer, type IntrospectionFailure } from './introspection-answer.ts';
import { outcomeOffLoop } from './introspection-thread.ts';
import { defaultOf } from '../settings.ts';
import { sizeOf, type SchemaSize } from './schema-size.ts';

export interface IntrospectOptions {
  /** The GraphQL endpoint itself (`<PROBLEMS_URL>/graphql`, or a gateway's `/graphql`). */
  endpoint: string;
  /** Sent as `Authorization: Bearer <key>`. */
  apiKey?: string;
  /** The whole exchange, answer read included, gives up past this. @default as PROBLEMS_TIMEOUT_MS */
  timeoutMs?: number;
  /** Largest answer read; reading stops there and the check fails. @default as PROBLEMS_MAX_RESPONSE_BYTES */
  maxBytes?: number;
  /** @default globalThis.fetch */
  fetch?: typeof fetch;
}

export type { IntrospectionFailure } from './introspection-answer.ts';

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
  /** Built from `sdl` when first read (building a large schema takes a while: only what needs it reads it). */
  readonly schema: GraphQLSchema;
  /** The schema printed with its types and fields sorted: what the hash is taken of, and what a snapshot holds. */
  sdl: string;
  /** sha256 (hex) of `sdl`: equal for equal schemas whatever order the service lists them in. */
  hash: string;
  /** Its types, fields and enum values, counted where it was read (off the event loop when large). */
  size: SchemaSize;
}

/** One introspection answer as it came, with what cuts secrets out of lines about it. */
export interface FetchedAnswer {
  answer: IntrospectionAnswer;
  redact(text: string): string;
}

const QUERY = JSON.stringify({ query: getIntrospectionQuery({ descriptions: true, inputValueDeprecation: true }) });

/**
 * Introspects a GraphQL endpoint, bounded in time and bytes like every upstream answer, and checks
 * that what came back is a valid schema, read off the event loop when it is large. The one
 * introspection of the project: the gateway's start, its polling and drift checks,
 * `npm run sources:refresh` and `npm run schema:print` all use it (the gateway's checks through
 * `fetchIntrospectionAnswer`, to skip what did not change). Fails with an IntrospectionError saying
 * what went wrong in one line (never the key).
 */
export async function introspect(options: IntrospectOptions): Promise<IntrospectedSchema> {
  const { answer, redact } = await fetchIntrospectionAnswer(options);
  return settledOutcome((await outcomeOffLoop(answer)).outcome, redact);
}

/** The introspection answer's bytes, unparsed; fails with an IntrospectionError when none came whole in time. */
export async function fetchIntrospectionAnswer({ endpoint: given, apiKey, timeoutMs = defaultOf('problemsTimeoutMs'), maxBytes = defaultOf('problemsMaxResponseBytes'), fetch: fetchFn = globalThis.fetch }: IntrospectOptions): Promise<FetchedAnswer> {
  // Messages name the endpoint without the user and password a URL may carry, and never the key.
  const secrets = [apiKey, ...credentialsIn(given)].filter((secret): secret is string => Boolean(secret));
  const redact = (text: string) => secrets.reduce((line, secret) => line.replaceAll(secret, '[redacted]'), text);
  const endpoint = withoutCredentials(given);
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
  let bytes: Uint8Array;
  try {
    bytes = await readBounded(response, maxBytes);
  } catch (error) {
    if (error instanceof IntrospectionError) throw error;
    if (late(error)) throw new IntrospectionError('timeout', `the answer from ${endpoint} did not end within ${timeoutMs} ms`);
    throw new IntrospectionError('unreachable', `the answer from ${endpoint} broke off: ${redact(causeOf(error))}`);
  }
  return { answer: { status: response.status, bytes, endpoint }, redact };
}

/** The schema an answer made, or its failure thrown as an IntrospectionError, secrets cut out. */
export function settledOutcome(outcome: AnswerOutcome, redact: (text: string) => string): IntrospectedSchema {
  if ('failure' in outcome) throw new IntrospectionError(outcome.failure, redact(outcome.message), outcome.serviceMessage === undefined ? undefined : redact(outcome.serviceMessage));
  return introspectedSchema(outcome.sdl, outcome.hash, outcome.size);
}

/** A schema with its sorted printing and the hash of that. */
export function withHash(schema: GraphQLSchema): IntrospectedSchema {
  const sdl = printSchema(lexicographicSortSchema(schema));
  return { schema, sdl, hash: sdlHash(sdl), size: sizeOf(schema) };
}

/** A printed schema and its hash, the schema itself built only if something reads it. */
function introspectedSchema(sdl: string, hash: string, size: SchemaSize): IntrospectedSchema {
  let schema: GraphQLSchema | undefined;
  return {
    sdl,
    hash,
    size,
    get schema() {
      return (schema ??= buildSchema(sdl));
    },
  };
}

/** The body, stopped (and the transfer with it) once it passes `maxBytes`. */
async function readBounded(response: Response, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(response.headers.get('content-length'));
  if (declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge(maxBytes);
  }
  if (!response.body) return new Uint8Array(0);
  return readBoundedBytes(response.body, maxBytes, () => tooLarge(maxBytes));
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
