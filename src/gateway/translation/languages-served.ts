import { gatewayRequestOf, type GatewayRequest } from '../pipeline/gateway-request.ts';

/** What the translation fields of one request answered in, noted on its request object as they answer. */
export interface LanguagesServed {
  /** Some field chose its language from the reader's (no `to:`): the answer depends on `Accept-Language`. */
  negotiated: boolean;
  /** The languages of the texts answered, chosen by `to:` or negotiated. */
  languages: Set<string>;
  /**
   * Some texts are in no negotiated language: a field without `to:` found none to serve and answered
   * the original, or a cached answer was in more than one.
   */
  original: boolean;
}

/** What an answer says of its languages in HTTP, kept with a cached answer so a hit says the same. */
export interface AnswerLanguage {
  /** `Content-Language`: the one language every translated text of the answer is in, when the reader's languages chose it. */
  contentLanguage?: string;
  /** The answer depends on `Accept-Language` (`Vary: Accept-Language`). */
  negotiated?: boolean;
}

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
