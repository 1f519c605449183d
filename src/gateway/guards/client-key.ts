import type { Plugin } from 'graphql-yoga';
import { identifyCaller, setClientIdentity } from './client-identity.ts';
import { gatewayErrorResponse } from '../pipeline/gateway-error.ts';
import { isGraphQLRequest } from './route.ts';
import { ErrorCode } from '../errors.ts';

export interface ClientKeysOptions {
  /** Keys clients may present (`GATEWAY_API_KEYS`); empty = open. */
  keys: string[];
  /** Tell clients apart by `X-Forwarded-For` behind this many proxies (TRUST_PROXY; `true` is one). @default false */
  trustProxy?: boolean | number;
}

/**
 * With keys configured, every GraphQL request must carry `Authorization: Bearer <one of them>`;
 * anything else gets 401 before it is parsed. Health and readiness stay open, and so do the GraphiQL
 * page itself (static HTML; its queries carry the key like any client's) and CORS preflights.
 * Keys are compared in constant time and never logged or echoed.
 *
 * Two plugins, placed around the rate limits: `identify` names the caller (its key, hashed, or its
 * address when open or when the key is wrong), `enforce` answers 401 after the rate limits have
 * counted the attempt, so guessing keys is as rate-limited as any other request.
 */
export function useClientKeys({ keys, trustProxy = false }: ClientKeysOptions): { identify: Plugin; enforce: Plugin } {
  const refused = new WeakSet<Request>();
  const guarded = (request: Request) => keys.length > 0 && isGraphQLRequest(request);
  return {
    identify: {
      onRequest({ request, serverContext }) {
        const { identity, keyAccepted } = identifyCaller(
          {
            authorization: request.headers.get('authorization'),
            forwardedFor: request.headers.get('x-forwarded-for'),
            socketAddress: (serverContext as { req?: { socket?: { remoteAddress?: string } } } | undefined)?.req?.socket?.remoteAddress,
          },
          { keys, trustProxy },
        );
        setClientIdentity(request, identity);
        if (!keyAccepted && guarded(request)) refused.add(request);
      },
    },
    enforce: {
      onRequest({ request, endResponse }) {
        if (!refused.has(request)) return;
        endResponse(
          gatewayErrorResponse(401, 'A valid gateway key is required: send `Authorization: Bearer <key>`.', ErrorCode.Unauthenticated, {
            'www-authenticate': 'Bearer realm="gateway"',
          }),
        );
      },
    },
  };
}
