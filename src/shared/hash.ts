import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';

/** SHA-256 of the parts (kept apart by a NUL, so ["ab", "c"] and ["a", "bc"] differ), base64url. */
export function sha256Of(...parts: string[]): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part).update('\u0000');
  return hash.digest('base64url');
}

/**
 * Digests of texts hashed lately. The translation cache and the statement memo key every title and
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
