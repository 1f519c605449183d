import { ErrorCode } from '../errors.ts';
import { gatewayError } from '../request/early-answer.ts';
import type { HeadGuard } from '../request/guards.ts';
import { normalizedContentType } from './content-type-case.ts';

export interface CsrfCheckOptions {
  /**
   * Headers that prove a request is not a cross-site forgery: a page can only add them after a
   * CORS preflight, which `CORS_ORIGINS` answers.
   * @default ['x-graphql-yoga-csrf', 'graphql-require-preflight']
   */
  requestHeaders?: string[];
}

/** Media types a page may POST cross-site without a preflight (the Fetch standard's "simple" requests). */
const NON_PREFLIGHTED_CONTENT_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain'];

/**
 * CSRF protection where it protects something. A cross-site page can make a browser send, without a
 * preflight, only "simple" requests: a GET, or a POST of a form or of text/plain. None can carry the
 * gateway's credential (a Bearer header, never a cookie), so with keys required they are refused by
 * the key check anyway. What a forged request could still do, in open mode, is act from the
 * victim's browser and network; a GET can only run a query (yoga refuses mutations over GET with
 * 405) and its answer is not readable outside the CORS origins, so GETs pass: that is what urql,
 * graphql-request's GET mode and Apollo's persisted queries send by default. A POST whose body is
 * not JSON (form, multipart, text/plain, or no content type) could carry a mutation, so it keeps
 * needing one of `requestHeaders` (403 otherwise); a JSON POST already forces a preflight. The rule
 * is yoga's CSRF prevention plugin's, applied to the head, before any body is read.
 */
export function csrfGuard({ requestHeaders = ['x-graphql-yoga-csrf', 'graphql-require-preflight'] }: CsrfCheckOptions = {}): HeadGuard {
  const refusal = gatewayError(403, 'Required CSRF header(s) not present', ErrorCode.CsrfCheckFailed);
  return {
    name: 'csrf',
    check({ route, head }) {
      if (route !== 'graphql' || head.method === 'GET' || head.method === 'HEAD' || head.method === 'OPTIONS') return undefined;
      const declared = head.headers.get('content-type');
      // In the spelling yoga's parsers read (` Text/Plain` is text/plain to them, so it is here too).
      const contentType = declared === null ? undefined : normalizedContentType(declared);
      if (contentType && !NON_PREFLIGHTED_CONTENT_TYPES.some((simple) => contentType.startsWith(simple))) return undefined;
      return requestHeaders.some((name) => head.headers.get(name) !== null) ? undefined : refusal;
    },
  };
}
