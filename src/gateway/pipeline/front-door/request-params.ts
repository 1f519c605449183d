import { memoized } from '../../../shared/memoized.ts';
import { normalizedContentType } from '../../guards/content-type-case.ts';

/** A JSON body in UTF-8, in any spelling of its media type yoga's parser is given (use-content-type-case.ts). */
export function isJson(contentType: string | null | undefined): boolean {
  return contentType ? isJsonType(contentType) : false;
}

const isJsonType = memoized((contentType) => {
  const [mediaType, ...parameters] = normalizedContentType(contentType).split(';');
  return mediaType === 'application/json' && parameters.every((parameter) => !parameter.startsWith('charset=') || parameter.toLowerCase() === 'charset=utf-8');
});

/**
 * One operation's parameters as the door reads them: what the cache keys (query, variables,
 * operation name) and, for a persisted document, its hash or id (`extensions`, `documentId`) with
 * `query` possibly absent until the persisted documents resolve it (guards/persisted-documents.ts).
 */
export interface DoorParams {
  query: string | undefined;
  variables?: unknown;
  operationName?: string | null;
  extensions?: Record<string, unknown>;
  documentId?: string;
}

/** What a JSON body holds, as far as the door serves it: one operation, or a batch (a JSON array of them). */
export type DoorBody = { batch: false; params: DoorParams } | { batch: true; operations: (DoorParams | undefined)[] };

/**
 * The parameters of a JSON request body, or undefined for anything the door leaves to yoga (which
 * words the error): no JSON, not an object or array, fields of the wrong type. An operation of a
 * batch that is none of those is undefined in its place.
 */
export function paramsOfBody(body: Buffer): DoorBody | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
  if (Array.isArray(parsed)) return { batch: true, operations: parsed.map(paramsOfObject) };
  const params = paramsOfObject(parsed);
  return params && { batch: false, params };
}

/** The parameters a body may hold; yoga refuses any other that is not null ("Unexpected parameter"), and words it. */
const BODY_PARAMETERS = new Set(['query', 'variables', 'operationName', 'extensions', 'documentId']);

function paramsOfObject(parsed: unknown): DoorParams | undefined {
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return undefined;
  for (const name in parsed) if (!BODY_PARAMETERS.has(name) && (parsed as Record<string, unknown>)[name] != null) return undefined;
  const { query, variables, operationName, extensions, documentId } = parsed as Record<string, unknown>;
  return doorParams(query, variables, operationName, extensions, documentId);
}

/** As paramsOfBody, for a GET's query string; a parameter given twice is yoga's to judge. */
export function paramsOfQueryString(search: string): DoorParams | undefined {
  const entries = new URLSearchParams(search);
  const names = [...entries.keys()];
  if (new Set(names).size !== names.length) return undefined;
  const json = (name: string): unknown => {
    const value = entries.get(name);
    if (value === null) return undefined;
    try {
      return JSON.parse(value);
    } catch {
      return Symbol('not JSON');
    }
  };
  // An empty `query` is none, as yoga's GET parser reads it ("Must provide query string.").
  return doorParams(entries.get('query') || undefined, json('variables'), entries.get('operationName') || undefined, json('extensions'), entries.get('documentId') ?? undefined);
}

function doorParams(query: unknown, variables: unknown, operationName: unknown, extensions: unknown, documentId: unknown): DoorParams | undefined {
  if (variables !== undefined && variables !== null && (typeof variables !== 'object' || Array.isArray(variables))) return undefined;
  if (operationName !== undefined && operationName !== null && typeof operationName !== 'string') return undefined;
  // An extensions map only (an array is yoga's 400).
  if (extensions !== undefined && extensions !== null && (typeof extensions !== 'object' || Array.isArray(extensions))) return undefined;
  const persisted = (extensions !== undefined && extensions !== null && 'persistedQuery' in extensions) || documentId !== undefined;
  if (persisted) {
    // The persisted documents read the rest (persisted-documents.ts); a query, if any, is a text.
    if (query !== undefined && typeof query !== 'string') return undefined;
    if (documentId !== undefined && typeof documentId !== 'string') return undefined;
    return { query, variables, operationName: operationName as string | null | undefined, extensions: extensions as Record<string, unknown>, documentId };
  }
  if (typeof query !== 'string') return undefined;
  return { query, variables, operationName: operationName as string | null | undefined };
}
