import type { Plugin } from 'graphql-yoga';
import { bearerToken, digest, matchingKey, remoteAddressOf, setClientIdentity } from './client-identity.ts';
import { gatewayErrorResponse } from './gateway-error-response.ts';

export interface ClientKeysOptions {
  /** Keys clients may present (`GATEWAY_API_KEYS`); empty = open. */
  keys: string[];
  /** @default '/graphql' */
  graphqlEndpoint?: string;
}

/**
 * With keys configured, every GraphQL request must carry `Authorization: Bearer <one of them>`;
 * anything else gets 401 before it is parsed. Health and readiness stay open, and so do the GraphiQL
 * page itself (static HTML; its queries carry the key like any client's) and CORS preflights.
 * Keys are compared in constant time and never logged or echoed. The caller's identity (its key,
 * hashed, or its address when open) is recorded for the rate limits.
 */
export function useClientKeys({ keys, graphqlEndpoint = '/graphql' }: ClientKeysOptions): Plugin {
  return {
    onRequest({ request, url, serverContext, endResponse }) {
      if (keys.length === 0) {
        setClientIdentity(request, `address:${remoteAddressOf(serverContext) ?? 'unknown'}`);
        return;
      }
      if (url.pathname !== graphqlEndpoint || request.method === 'OPTIONS' || isGraphiQLPage(request, url)) return;
      const token = bearerToken(request.headers.get('authorization'));
      const key = token === undefined ? undefined : matchingKey(token, keys);
      if (key === undefined) {
        endResponse(
          gatewayErrorResponse(401, 'A valid gateway key is required: send `Authorization: Bearer <key>`.', 'UNAUTHENTICATED', {
            'www-authenticate': 'Bearer realm="gateway"',
          }),
        );
        return;
      }
      setClientIdentity(request, `key:${digest(key).toString('base64url').slice(0, 16)}`);
    },
  };
}

/** A browser asking for the GraphiQL page: a GET for HTML with no operation in it. */
function isGraphiQLPage(request: Request, url: URL): boolean {
  return request.method === 'GET' && !url.searchParams.has('query') && (request.headers.get('accept') ?? '').includes('text/html');
}
