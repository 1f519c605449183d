/**
 * Texts the translation service fails on while it translates others: LibreTranslate answers 500
 * "Cannot translate text: …" for a whole call when its model raises on one of its texts. The
 * batcher narrows such a call down to the text (translation-batcher.ts) and notes it here, so that
 * for a short while the text fails at once, without a call: a client repeating it costs the service
 * nothing, and no call carrying it can be a circuit breaker's probe. Bounded in entries and in time,
 * since the service may be fixed or the text may have failed by chance: nothing learned from a
 * moment outlives it by much.
 */
export interface FailingTexts {
  /** Notes that the service answered a call: what shows it works, so a failure is a text's. */
  answered(): void;
  /** Whether the service answered a call within the last `evidenceMs`. */
  answeredLately(): boolean;
  /** Notes `key` (a translation cache key) as failing, for `ttlMs` from now. */
  remember(key: string): void;
  /** Whether `key` failed within the last `ttlMs`. */
  has(key: string): boolean;
  /** How long a text is remembered, for the message clients get. */
  readonly ttlMs: number;
}

export interface FailingTextsOptions {
  /** How long a text that failed is not sent again. @default 60000 */
  ttlMs?: number;
  /** Most texts remembered; past it the oldest is forgotten. @default 1000 */
  maxEntries?: number;
  /** How recent an answer must be to show the service works for other texts. @default 10000 */
  evidenceMs?: number;
  /** @default Date.now */
  now?: () => number;
}

export function createFailingTexts({ ttlMs = 60_000, maxEntries = 1000, evidenceMs = 10_000, now = Date.now }: FailingTextsOptions = {}): FailingTexts {
  // Insertion order is expiry order (one ttl for all): the first entry is always the oldest.
  const until = new Map<string, number>();
  let answeredAt = -Infinity;
  const expire = (at: number) => {
    for (const [key, expiresAt] of until) {
      if (expiresAt > at) break;
      until.delete(key);
    }
  };
  return {
    ttlMs,
    answered() {
      answeredAt = now();
    },
    answeredLately() {
      return now() - answeredAt < evidenceMs;
    },
    remember(key) {
      const at = now();
      expire(at);
      until.delete(key);
      until.set(key, at + ttlMs);
      if (until.size > maxEntries) until.delete(until.keys().next().value!);
    },
    has(key) {
      const expiresAt = until.get(key);
      if (expiresAt === undefined) return false;
      if (expiresAt > now()) return true;
      until.delete(key);
      return false;
    },
  };
}
