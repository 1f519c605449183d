/** An upstream URL parsed, with what the fetch sends it by (undici's origin and path). */
export interface ParsedUrl {
  url: URL;
  origin: string;
  /** Path and query, as the request line carries them. */
  path: string;
}

// Upstream calls go to a handful of URLs (each service's endpoints), so each is parsed once rather
// than on every call (URL.canParse and new URL were about 1% of a pass-through's profile, and undici
// parsed each URL again). Whoever reads one only reads it. Bounded, for the odd upstream whose URLs vary.
const parsedUrls = new Map<string, ParsedUrl | null>();
const MAX_PARSED_URLS = 256;

/** `text` parsed, from the memo when it was parsed lately; undefined when it is no URL. */
export function parsedUrl(text: string): ParsedUrl | undefined {
  let parsed = parsedUrls.get(text);
  if (parsed === undefined) {
    const url = URL.canParse(text) ? new URL(text) : undefined;
    parsed = url ? { url, origin: url.origin, path: `${url.pathname}${url.search}` } : null;
    if (parsedUrls.size >= MAX_PARSED_URLS) parsedUrls.clear();
    parsedUrls.set(text, parsed);
  }
  return parsed ?? undefined;
}
