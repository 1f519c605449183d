import { createHash, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';

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
 * `trustProxy` reverse proxies (`true` is one), the address the farthest of them appended to
 * `X-Forwarded-For`. Proxies append, so the entries to its left are whatever the client sent: only
 * the right-most ones are trustworthy, one per proxy. An entry that is not an address counts for none.
 */
export function remoteAddressOf(serverContext: unknown, request?: Request, trustProxy: boolean | number = false): string | undefined {
  const hops = trustProxy === true ? 1 : trustProxy === false ? 0 : trustProxy;
  if (hops > 0) {
    const entries = (request?.headers.get('x-forwarded-for') ?? '').split(',').map((entry) => entry.trim()).filter(Boolean);
    const forwarded = addressIn(entries[Math.max(0, entries.length - hops)]);
    if (forwarded) return forwarded;
  }
  return (serverContext as { req?: { socket?: { remoteAddress?: string } } } | undefined)?.req?.socket?.remoteAddress;
}

/** The IP address in an `X-Forwarded-For` entry, without the port some proxies add. */
function addressIn(entry: string | undefined): string | undefined {
  if (!entry || entry.length > 64) return undefined;
  const address = /^\[([^\]]+)\](?::\d+)?$/.exec(entry)?.[1] ?? /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(entry)?.[1] ?? entry;
  return isIP(address) ? address : undefined;
}
