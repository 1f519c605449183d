import { memoized } from '../../../shared/memoized.ts';

/**
 * The media type the front door answers a one-off result in, for this `Accept` header, when it is
 * one of the two JSON types the GraphQL over HTTP spec names (`application/graphql-response+json`,
 * `application/json`); undefined when the client accepts neither, and the request is yoga's (a
 * stream, multipart, nothing acceptable: yoga answers those, with 406 when nothing fits). The
 * client's first acceptable type wins, whatever its `q` (as yoga does: the answers stay the same
 * whichever serves them); a wildcard (`*` + `/` + `*`, `application/` + `*`) or no header at all
 * is `application/json`, which the spec asks for legacy clients; a type with a charset other than
 * UTF-8 is skipped.
 */
export function answerMediaType(accept: string | null | undefined): string | undefined {
  return mediaTypeFor(accept || '*/*');
}

/** Clients send the same few `Accept` headers, each worked out once. */
const mediaTypeFor = memoized((accept): string | undefined => {
  for (const entry of accept.replace(/\s/g, '').toLowerCase().split(',')) {
    const [mediaType, ...parameters] = entry.split(';');
    const charset = parameters.find((parameter) => parameter.includes('charset=')) ?? 'charset=utf-8';
    if (charset !== 'charset=utf-8') continue;
    const [type, subtype] = mediaType.split('/');
    if (type !== '*' && type !== 'application') continue;
    if (subtype === 'graphql-response+json') return 'application/graphql-response+json';
    if (subtype === '*' || subtype === 'json') return 'application/json';
  }
  return undefined;
});

/** The `Content-Type` of a JSON answer in each media type answerMediaType picks, written once. */
const CONTENT_TYPES: Record<string, string> = {
  'application/json': 'application/json; charset=utf-8',
  'application/graphql-response+json': 'application/graphql-response+json; charset=utf-8',
};

export function contentTypeOf(mediaType: string): string {
  return CONTENT_TYPES[mediaType] ?? `${mediaType}; charset=utf-8`;
}
