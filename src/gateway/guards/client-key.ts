import { ErrorCode } from '../errors.ts';
import { gatewayError } from '../pipeline/gateway-error.ts';
import type { HeadGuard } from '../pipeline/guard-list.ts';
import { identifyCaller, type CallerOptions } from './client-identity.ts';

/**
 * Names the caller: its key (hashed) when it presents one of the configured keys, else its address
 * (client-identity.ts). Placed before the rate limits, which count per caller.
 */
export function identifyCallerGuard(options: CallerOptions): HeadGuard {
  return {
    name: 'identify caller',
    check(request) {
      const { headers } = request.head;
      const { identity, keyAccepted } = identifyCaller(
        { authorization: headers.get('authorization'), forwardedFor: headers.get('x-forwarded-for'), socketAddress: request.socketAddress },
        options,
      );
      request.identity = identity;
      request.keyAccepted = keyAccepted;
    },
  };
}

/**
 * With keys configured, every GraphQL request must carry `Authorization: Bearer <one of them>`;
 * anything else gets 401 before its body is read. Health and readiness stay open, and so do the
 * GraphiQL page itself (static HTML; its queries carry the key like any client's) and CORS
 * preflights. Keys are compared in constant time and never logged or echoed. Placed after the rate
 * limits, which count the attempt first: guessing keys is as rate-limited as any other request.
 */
export function requireKeyGuard(): HeadGuard {
  const refusal = gatewayError(401, 'A valid gateway key is required: send `Authorization: Bearer <key>`.', ErrorCode.Unauthenticated, {
    'www-authenticate': 'Bearer realm="gateway"',
  });
  return {
    name: 'require key',
    check: (request) => (request.graphql && !request.keyAccepted ? refusal : undefined),
  };
}
