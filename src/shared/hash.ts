import { hash } from 'node:crypto';
import { LRUCache } from 'lru-cache';

/**
 * SHA-256 of the parts (each followed by a NUL, so ["ab", "c"] and ["a", "bc"] differ), base64url.
 * Node's one-shot `hash`: half the CPU of a `createHash` object for the short texts of every request.
 */
export function sha256Of(...parts: string[]): string {
  return hash('sha256', `${parts.join('\u0000')}\u0000`, 'base64url');
}

/**
 * Digests of texts hashed lately. The translation cache and the statement cache key every title and
 * statement segment of a page by its digest, the same texts every time a page is asked for: hashing
 * each again (a new SHA-256 object per text) was about a tenth of a warm page's CPU, where looking a
 * text up here costs one string hash. A pure function's memo, so it may be shared by everything in
 * the process; bounded by the characters it holds, and texts over 1 MiB are not kept.
 */
const digests = new LRUCache<string, string>({ maxSize: 16 * 1024 * 1024, sizeCalculation: (digest, text) => text.length + digest.length });

/** `sha256Of(text)`, from the memo when the text was hashed lately. */
export function textDigest(text: string): string {
  let digest = digests.get(text);
  if (digest === undefined) {
    digest = sha256Of(text);
    if (text.length <= 1024 * 1024) digests.set(text, digest);
  }
  return digest;
}
