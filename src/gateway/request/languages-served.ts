import type { AnswerLanguage, LanguagesServed } from './answer-language.ts';
import { gatewayRequestOf, type GatewayRequest } from './gateway-request.ts';

/** Notes one field's answer: its language (undefined: the original, nothing matched), and whether the reader's languages chose it. */
export function noteLanguageServed(context: unknown, negotiated: boolean, language: string | undefined): void {
  const request = gatewayRequestOf(context);
  if (!request) return;
  const served = (request.languagesServed ??= { negotiated: false, languages: new Set(), original: false });
  if (negotiated) served.negotiated = true;
  if (language === undefined) served.original = true;
  else served.languages.add(language);
}

/** The answer's languages, as its HTTP headers state them. */
export function answerLanguageOf(served: LanguagesServed | undefined): AnswerLanguage {
  if (!served?.negotiated) return {};
  const one = !served.original && served.languages.size === 1 ? [...served.languages][0] : undefined;
  // A header value: a service's code that is no plain tag is not stated rather than sent malformed.
  return one && HEADER_TAG.test(one) ? { contentLanguage: one, negotiated: true } : { negotiated: true };
}

const HEADER_TAG = /^[A-Za-z0-9-]{1,35}$/;

/** Notes what an answer from the response cache said of its languages, as if its fields had answered again. */
export function noteAnswerLanguage(request: GatewayRequest | undefined, { contentLanguage, negotiated }: AnswerLanguage): void {
  if (!request || !negotiated) return;
  const served = (request.languagesServed ??= { negotiated: false, languages: new Set(), original: false });
  served.negotiated = true;
  if (contentLanguage) served.languages.add(contentLanguage);
  else served.original = true;
}

/**
 * `Content-Language` when one negotiated language holds for the whole answer, and `Accept-Language`
 * for `Vary` whenever the header chose something: an HTTP cache between the reader and the gateway
 * must not hand one reader's language to another.
 */
export function answerLanguageHeaders({ contentLanguage, negotiated }: AnswerLanguage): Record<string, string> {
  return { ...(contentLanguage ? { 'content-language': contentLanguage } : {}), ...(negotiated ? { vary: 'Accept-Language' } : {}) };
}
