import type { AnswerLanguage } from './answer-language.ts';

/**
 * One answer as kept, ready to write: its bytes exactly as served and the part of its head that
 * depends on nothing but the answer, both made once when it is kept (or read from a shared store),
 * so a hit neither serializes nor builds headers again.
 */
export interface CachedAnswer extends AnswerLanguage {
  /** The answer's JSON (`{"data":…}`), as written. */
  body: Buffer;
  /** Strong validator of `body`, quoted as the `ETag` header wants it. */
  etag: string;
  /**
   * The headers of a 200 carrying this answer that depend on nothing else, as `writeHead` takes a
   * flat list (name, value, name, value…): `ETag`, `Vary`, `Content-Language`, `Content-Length`.
   */
  headers: readonly string[];
  /** The operation's own name (the request log and metrics name a hit as they named the miss). */
  operationName?: string;
  /** Epoch ms when it stops being served. */
  expiresAt: number;
  /**
   * The whole head of a hit in each media type it was answered in, made by the front door the first
   * time (door-answers.ts): a hit copies it and fills in only what changes per request.
   */
  heads?: Map<string, readonly string[]>;
}
