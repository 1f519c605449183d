import { memoized } from '../../../shared/memoized.ts';
import { normalizedContentType } from '../../guards/content-type-case.ts';
import type { CacheableParams } from '../../execution/response-cache/response-cache.ts';

/** A JSON body in UTF-8, in any spelling of its media type yoga's parser is given (use-content-type-case.ts). */
export function isJson(contentType: string | null | undefined): boolean {
  return contentType ? isJsonType(contentType) : false;
}

const isJsonType = memoized((contentType) => {
  const [mediaType, ...parameters] = normalizedContentType(contentType).split(';');
  return mediaType === 'application/json' && parameters.every((parameter) => !parameter.startsWith('charset=') || parameter.toLowerCase() === 'charset=utf-8');
});

/**
 * The parameters of a plain JSON request body, or undefined for anything the door leaves to yoga:
 * not an object (a batch is an array), no query text, a persisted-query hash or a trusted document
 * id (yoga resolves and checks those), fields of the wrong type.
 */
export function paramsOfBody(body: Buffer): CacheableParams | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return undefined;
  const { query, variables, operationName, extensions, documentId } = parsed as Record<string, unknown>;
  return plainParams(query, variables, operationName, extensions, documentId);
}

/** As paramsOfBody, for a GET's query string; a parameter given twice is yoga's to judge. */
export function paramsOfQueryString(search: string): CacheableParams | undefined {
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
  return plainParams(entries.get('query') ?? undefined, json('variables'), entries.get('operationName') || undefined, json('extensions'), entries.get('documentId') ?? undefined);
}

function plainParams(query: unknown, variables: unknown, operationName: unknown, extensions: unknown, documentId: unknown): CacheableParams | undefined {
  if (typeof query !== 'string' || documentId !== undefined) return undefined;
  if (variables !== undefined && variables !== null && (typeof variables !== 'object' || Array.isArray(variables))) return undefined;
  if (operationName !== undefined && operationName !== null && typeof operationName !== 'string') return undefined;
  // An extensions map only (an array is yoga's 400), without a persisted-query hash (yoga resolves those).
  if (extensions !== undefined && extensions !== null && (typeof extensions !== 'object' || Array.isArray(extensions) || 'persistedQuery' in extensions)) return undefined;
  return { query, variables, operationName: operationName as string | null | undefined };
}
