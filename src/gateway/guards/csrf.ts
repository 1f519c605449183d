import { useCSRFPrevention } from '@graphql-yoga/plugin-csrf-prevention';
import type { Plugin } from 'graphql-yoga';

export interface CsrfCheckOptions {
  /**
   * Headers that prove a request is not a cross-site forgery: a page can only add them after a
   * CORS preflight, which `CORS_ORIGINS` answers.
   * @default ['x-graphql-yoga-csrf', 'graphql-require-preflight']
   */
  requestHeaders?: string[];
}

/**
 * CSRF protection where it protects something. A cross-site page can make a browser send, without a
 * preflight, only "simple" requests: a GET, or a POST of a form or of text/plain. None can carry the
 * gateway's credential (a Bearer header, never a cookie), so with keys required they are refused by
 * the key check anyway. What a forged request could still do, in open mode, is act from the
 * victim's browser and network; a GET can only run a query (yoga refuses mutations over GET with
 * 405) and its answer is not readable outside the CORS origins, so GETs pass: that is what urql,
 * graphql-request's GET mode and Apollo's persisted queries send by default. A POST whose body is
 * not JSON (form, multipart, text/plain, or no content type) could carry a mutation, so it keeps
 * needing one of `requestHeaders` (403 otherwise); a JSON POST already forces a preflight.
 */
export function useCsrfCheck({ requestHeaders = ['x-graphql-yoga-csrf', 'graphql-require-preflight'] }: CsrfCheckOptions = {}): Plugin {
  const check = useCSRFPrevention({ requestHeaders });
  return {
    onRequestParse(payload) {
      if (payload.request.method === 'GET' || payload.request.method === 'HEAD') return;
      return check.onRequestParse?.(payload);
    },
  };
}
