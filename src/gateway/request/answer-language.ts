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
