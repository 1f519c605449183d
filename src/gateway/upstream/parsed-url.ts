import { memoized } from '../../shared/memoized.ts';

/** An upstream URL parsed, with what the fetch sends it by (undici's origin and path). */
export interface ParsedUrl {
  url: URL;
  origin: string;
  /** Path and query, as the request line carries them. */
  path: string;
}

/**
 * `text` parsed; undefined when it is no URL. Upstream calls go to a handful of URLs (each service's
 * endpoints), so each is parsed once rather than on every call (URL.canParse and new URL were about 1%
 * of a pass-through's profile, and undici parsed each URL again). Whoever reads one only reads it.
 */
export const parsedUrl = memoized((text): ParsedUrl | undefined => {
  const url = URL.canParse(text) ? new URL(text) : undefined;
  return url && { url, origin: url.origin, path: `${url.pathname}${url.search}` };
}, { maxLength: 8192 });
