import type { Plugin } from 'graphql-yoga';

/** What normalizedContentType would change: capitals, spaces, a list, an empty parameter. */
const ALTERED = /[A-Z\s,]|;;|;$/;

/**
 * A `Content-Type` in the one spelling yoga's body parsers recognise: the type, subtype and parameter
 * names in lower case, no spaces around `;` or `=`. Media types and parameter names are
 * case-insensitive (RFC 9110, 8.3.1), so `Application/JSON` and `application/json ; charset=UTF-8`
 * are JSON; yoga compares the header as written (`application/json` or `application/json;…`) and
 * answered those 415. Parameter values are kept as sent: a multipart boundary is case-sensitive.
 * Like yoga, only the first of a comma-separated list counts.
 */
export function normalizedContentType(contentType: string): string {
  // Already in that spelling (nearly every request): nothing to take apart.
  if (!ALTERED.test(contentType)) return contentType;
  const [mediaType, ...parameters] = contentType.split(',')[0].split(';');
  const normalized = [mediaType.trim().toLowerCase()];
  for (const parameter of parameters) {
    const equals = parameter.indexOf('=');
    if (equals < 0) {
      if (parameter.trim()) normalized.push(parameter.trim().toLowerCase());
      continue;
    }
    normalized.push(`${parameter.slice(0, equals).trim().toLowerCase()}=${parameter.slice(equals + 1).trim()}`);
  }
  return normalized.join(';');
}

/**
 * Rewrites a request's `Content-Type` to normalizedContentType before yoga chooses a body parser
 * (it chooses in onRequestParse; this runs in onRequest), so every spelling of one media type is
 * parsed alike, through yoga and in front of it (the front door, pipeline/front-door/request-params.ts, reads the same function).
 */
export function useContentTypeCase(): Plugin {
  return {
    onRequest({ request }) {
      const contentType = request.headers.get('content-type');
      if (contentType === null) return;
      const normalized = normalizedContentType(contentType);
      if (normalized !== contentType) request.headers.set('content-type', normalized);
    },
  };
}
