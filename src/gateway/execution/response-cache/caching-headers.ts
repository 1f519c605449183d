import type { CachedAnswer } from '../../request/cached-answer.ts';
import type { AnswerLanguage } from '../../request/answer-language.ts';
import { answerLanguageHeaders } from '../../request/languages-served.ts';

/** Seconds an answer may still be reused, for `Cache-Control: max-age` (rounded up: a fresh answer says its whole TTL). */
export function secondsLeft(answer: Pick<CachedAnswer, 'expiresAt'>): number {
  return Math.max(0, Math.ceil((answer.expiresAt - Date.now()) / 1000));
}

/** `Cache-Control` values by seconds left: every hit within a second says the same, written once. */
const cacheControls: string[] = [];

/** `private, max-age=…`, the same string for every answer with as many seconds left. */
export function cacheControlOf(maxAgeSeconds: number): string {
  // A memo of a pure function, bounded by the longest TTL a day allows; longer ones are written each time.
  if (maxAgeSeconds > 86_400) return `private, max-age=${maxAgeSeconds}`;
  return (cacheControls[maxAgeSeconds] ??= `private, max-age=${maxAgeSeconds}`);
}

/**
 * The headers every answer from the cache carries, whichever way it is served: with its language
 * when the reader's languages chose it (`Content-Language`, and `Accept-Language` in `Vary`).
 */
export function cachingHeaders(etag: string, maxAgeSeconds: number, language: AnswerLanguage = {}): Record<string, string> {
  const { vary, ...languageHeaders } = answerLanguageHeaders(language);
  return { etag, 'cache-control': cacheControlOf(maxAgeSeconds), vary: vary ? `Authorization, ${vary}` : 'Authorization', ...languageHeaders };
}

/**
 * Whether an `If-None-Match` header names `etag` (weak or strong, in a list or alone), or is `*`,
 * which any current answer matches (RFC 9110, 13.1.2).
 */
export function matchesEtag(ifNoneMatch: string | null | undefined, etag: string): boolean {
  return ifNoneMatch?.split(',').some((tag) => {
    const trimmed = tag.trim();
    return trimmed === '*' || trimmed.replace(/^W\//, '') === etag;
  }) ?? false;
}
