import { LRUCache } from 'lru-cache';

/** A request seen before, by its bytes: what they parse to and its key (keyOf). */
export interface KnownRequest {
  key: string;
  /**
   * Its parameters as sent, as the params guards read them (a persisted-query hash without its
   * document, say): the same bytes again are judged as the first time.
   */
  params: { query?: string; variables?: unknown; operationName?: string | null; extensions?: Record<string, unknown>; documentId?: string };
  /** The document its key was made of (its persisted document, resolved). */
  query: string;
  /** The length of the bytes it was parsed from (what remembering it costs). */
  rawLength: number;
  /**
   * The translations in force when it was keyed, for a document that may translate (remember sets
   * it): its key holds them, so once they change it is forgotten (recall).
   */
  variant?: string;
}

export interface KnownRequestsOptions {
  /** Memory bound of the requests remembered, counting two bytes a character. */
  maxBytes: number;
  /** The translations in force (ResponseCacheOptions.translationVariant): a remembered request that may translate is forgotten once they change. */
  translationVariant?: () => string;
  /** Whether a document may hold a translation field (response-cache.ts). */
  mayTranslate: (query: string) => boolean;
}

/**
 * The requests answered from the response cache lately, remembered by their exact bytes: the same
 * bytes again, with the same credential and languages, find their key and parameters without being
 * parsed or keyed again (the front door's hits).
 */
export function createKnownRequests({ maxBytes, translationVariant, mayTranslate }: KnownRequestsOptions) {
  // The parameters are as long as the bytes they came from, give or take their escapes; a
  // persisted document resolved is held besides.
  const sizeOf = (request: KnownRequest, rawKey: string) => 2 * (rawKey.length + request.key.length + request.rawLength + (request.query === request.params.query ? 0 : request.query.length)) + 128;
  const known = new LRUCache<string, KnownRequest>({ maxSize: maxBytes, sizeCalculation: sizeOf });
  const credentials = credentialClasses();
  return {
    // Equal keys only for equal credentials, languages, method and bytes: each part but the last is
    // free of NUL (a header value cannot hold one, nor a method or a languages key).
    rawKeyOf: (authorization: string | null | undefined, method: string, raw: string, readerLanguages = ''): string =>
      `${credentials.classOf(authorization)}\u0000${readerLanguages}\u0000${method}\u0000${raw}`,
    recall(rawKey: string): KnownRequest | undefined {
      const request = known.get(rawKey);
      return request?.variant === undefined || request.variant === translationVariant?.() ? request : undefined;
    },
    remember(rawKey: string, request: KnownRequest): void {
      const variant = translationVariant && mayTranslate(request.query) ? translationVariant() : undefined;
      known.set(rawKey, variant === undefined ? request : { ...request, variant });
    },
  };
}

/** Most credentials numbered at once (credentialClasses); past it, numbering goes on in a fresh table. */
const MAX_CREDENTIAL_CLASSES = 256;

/**
 * A number for each credential (`Authorization` header) seen, for the raw keys: hashing the header
 * on every request cost more than the lookup it serves. A number is never given twice, even after
 * the table starts over (bounded, for callers that send a new header each time), so a raw key can
 * never stand for another credential; one whose number was forgotten gets a new one, and its
 * requests are parsed and remembered again. No credential is `-`.
 */
function credentialClasses() {
  let numbers = new Map<string, number>();
  let next = 0;
  return {
    classOf(authorization: string | null | undefined): string | number {
      if (authorization === null || authorization === undefined) return '-';
      let number = numbers.get(authorization);
      if (number === undefined) {
        if (numbers.size >= MAX_CREDENTIAL_CLASSES) numbers = new Map();
        number = next++;
        numbers.set(authorization, number);
      }
      return number;
    },
  };
}
