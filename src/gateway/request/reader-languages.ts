/**
 * A reader's languages as an `Accept-Language` header states them (RFC 9110, 12.5.4), read into what
 * the translation fields negotiate with. The header is the client's to fill: it is read bounded (its
 * first MAX_HEADER_CHARS characters, at most MAX_TAGS tags), and whatever does not read as a tag
 * with a valid weight is passed over, never refused: a bad header costs the reader their preference,
 * never the request.
 */
export interface ReaderLanguages {
  /** Tags in BCP 47's usual case (`pt-BR`), most wanted first (by weight, then as written), without duplicates or weight 0. */
  readonly tags: readonly string[];
  /** Tags the reader refuses (`;q=0`): never chosen, whether from the header or from the gateway's defaults. */
  readonly refused: readonly string[];
  /** `*;q=0`: nothing beyond the listed tags, so the gateway's default languages are not tried either. */
  readonly onlyListed: boolean;
  /**
   * The preference as one short string (`pt-BR,es!de*`): equal for headers that negotiate alike, and
   * bounded, so caches can vary by it rather than by the raw header.
   */
  readonly key: string;
}
