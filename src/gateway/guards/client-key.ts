import { ErrorCode } from '../errors.ts';
import { gatewayError } from '../request/early-answer.ts';
import type { HeadGuard } from '../request/guards.ts';
import { identifyCaller, type CallerOptions } from './client-identity.ts';

/** Most `Authorization` headers remembered as accepted; past it, the memory starts over. */
const MAX_REMEMBERED_KEYS = 64;

/**
 * Names the caller: its key (hashed) when it presents one of the configured keys, else its address
 * (client-identity.ts). Placed before the rate limits, which count per caller.
 *
 * An `Authorization` header once accepted is remembered with its identity, so a keyed client's
 * every request costs a Map lookup rather than a regular expression, a SHA-256 and a comparison
 * with every key. Only accepted headers are remembered (a header refused, or guessed, is checked
 * in full every time, in constant time as before), at most MAX_REMEMBERED_KEYS of them (a few keys
 * in a few spellings), and per `keys` list, so changed keys are never answered from memory. The
 * lookup itself reveals nothing of a key: it hashes the whole header and compares only a header
 * that is exactly one remembered.
 */
export function identifyCallerGuard(options: CallerOptions): HeadGuard {
  let accepted = new Map<string, string>();
  let acceptedFor = options.keys;
  return {
    name: 'identify caller',
    check(request) {
      const { headers } = request.head;
      const authorization = headers.get('authorization');
      if (acceptedFor !== options.keys) {
        accepted = new Map();
        acceptedFor = options.keys;
      }
      const known = authorization === null ? undefined : accepted.get(authorization);
      if (known !== undefined) {
        request.identity = known;
        request.keyAccepted = true;
        return;
      }
      const { identity, keyAccepted } = identifyCaller({ authorization, forwardedFor: headers.get('x-forwarded-for'), socketAddress: request.socketAddress }, options);
      request.identity = identity;
      request.keyAccepted = keyAccepted;
      // Accepted for its key, not for being open: an open gateway names callers by address.
      if (keyAccepted && authorization !== null && options.keys.length > 0 && identity.startsWith('key:')) {
        if (accepted.size >= MAX_REMEMBERED_KEYS) accepted.clear();
        accepted.set(authorization, identity);
      }
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
