import { createHash, timingSafeEqual } from 'node:crypto';

/** Who is calling, for rate limits: the gateway key (hashed) when keys are required, else the address. */
const identityByRequest = new WeakMap<Request, string>();

export function setClientIdentity(request: Request, identity: string): void {
  identityByRequest.set(request, identity);
}

export function clientIdentityOf(request: Request | undefined): string {
  return (request && identityByRequest.get(request)) ?? 'anonymous';
}

export function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/** Compares against every key in constant time (hashing first makes lengths equal). */
export function matchingKey(presented: string, keys: string[]): string | undefined {
  const presentedDigest = digest(presented);
  let match: string | undefined;
  for (const key of keys) {
    // No early exit: the time taken does not depend on which key, if any, matched.
    if (timingSafeEqual(presentedDigest, digest(key)) && match === undefined) match = key;
  }
  return match;
}

/** The token of an `Authorization: Bearer <token>` header, if that is what it holds. */
export function bearerToken(header: string | null): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1];
}

/**
 * The caller's address: the peer of the connection (when the gateway runs on node:http), or, behind
 * a trusted reverse proxy, the client address it put first in `X-Forwarded-For`.
 */
export function remoteAddressOf(serverContext: unknown, request?: Request, trustProxy = false): string | undefined {
  if (trustProxy) {
    const forwarded = request?.headers.get('x-forwarded-for')?.split(',')[0]?.trim();
    if (forwarded && forwarded.length <= 64) return forwarded;
  }
  return (serverContext as { req?: { socket?: { remoteAddress?: string } } } | undefined)?.req?.socket?.remoteAddress;
}
