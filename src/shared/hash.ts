import { createHash } from 'node:crypto';

/** SHA-256 of the parts (kept apart by a NUL, so ["ab", "c"] and ["a", "bc"] differ), base64url. */
export function sha256Of(...parts: string[]): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part).update('\u0000');
  return hash.digest('base64url');
}
