import type { AnswerLanguage } from './answer-language.ts';

/** One answer as kept: its bytes exactly as served, so a hit writes them without serializing again. */
export interface CachedAnswer extends AnswerLanguage {
  /** The answer's JSON (`{"data":…}`). */
  body: string;
  /** Strong validator of `body`, quoted as the `ETag` header wants it. */
  etag: string;
  /** The operation's own name (the request log and metrics name a hit as they named the miss). */
  operationName?: string;
  /** Epoch ms when it stops being served. */
  expiresAt: number;
}
