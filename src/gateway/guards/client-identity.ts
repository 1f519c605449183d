import { hash } from 'node:crypto';
import { isIP } from 'node:net';
import { bearerToken } from '../../shared/bearer-token.ts';

/** SHA-256 of a key, base64url: Node's one-shot hash gives this in 0.4 µs, a Buffer in 1.0. */
export function digest(value: string): string {
  return hash('sha256', value, 'base64url');
}

/**
 * Whether two digests are equal, looking at every character whatever the first difference (as
 * crypto's timingSafeEqual, without turning the strings into Buffers first). Digests all have one
 * length, so comparing lengths first gives nothing away.
 */
function sameDigest(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let index = 0; index < a.length; index += 1) difference |= a.charCodeAt(index) ^ b.charCodeAt(index);
  return difference === 0;
}

/** The configured keys' digests and the identities they give, worked out once per key list rather than on every request. */
const digestsOfKeys = new WeakMap<string[], { digests: string[]; identities: string[] }>();

function keyDigests(keys: string[]): { digests: string[]; identities: string[] } {
  let known = digestsOfKeys.get(keys);
  if (!known) {
    const digests = keys.map(digest);
    known = { digests, identities: digests.map((each) => `key:${each.slice(0, 16)}`) };
    digestsOfKeys.set(keys, known);
  }
  return known;
}

/** Compares against every key in constant time (hashing first makes lengths equal); the index of the key matched. */
function matchingKeyIndex(presented: string, keys: string[]): number | undefined {
  const { digests } = keyDigests(keys);
  const presentedDigest = digest(presented);
  let match: number | undefined;
  for (let index = 0; index < keys.length; index += 1) {
    // No early exit: the time taken does not depend on which key, if any, matched.
    if (sameDigest(presentedDigest, digests[index]) && match === undefined) match = index;
  }
  return match;
}

/** What the identity of a caller is worked out from (yoga's request, or the node:http request in front of it). */
export interface CallerFacts {
  authorization: string | null | undefined;
  forwardedFor: string | null | undefined;
  /** The peer of the connection, when the gateway runs on node:http. */
  socketAddress: string | undefined;
}

export interface CallerOptions {
  /** Keys clients may present (`GATEWAY_API_KEYS`); empty = open. */
  keys: string[];
  /** Tell clients apart by `X-Forwarded-For` behind this many proxies (TRUST_PROXY; `true` is one). */
  trustProxy: boolean | number;
}

/**
 * Who is calling, for rate limits: `key:<hash>` for a caller presenting one of `keys`, else
 * `address:<ip>`. `keyAccepted` is false when keys are required and none of them was presented.
 */
export function identifyCaller(facts: CallerFacts, { keys, trustProxy }: CallerOptions): { identity: string; keyAccepted: boolean } {
  if (keys.length > 0) {
    const token = bearerToken(facts.authorization ?? null);
    const index = token === undefined ? undefined : matchingKeyIndex(token, keys);
    if (index !== undefined) return { identity: keyDigests(keys).identities[index], keyAccepted: true };
  }
  return { identity: `address:${callerAddress(facts, trustProxy) ?? 'unknown'}`, keyAccepted: keys.length === 0 };
}

/**
 * The caller's address: the peer of the connection, or, behind `trustProxy` reverse proxies (`true`
 * is one), the address the farthest of them appended to `X-Forwarded-For`. Proxies append, so the
 * entries to its left are whatever the client sent: only the right-most ones are trustworthy, one per
 * proxy. An entry that is not an address counts for none.
 */
function callerAddress({ forwardedFor, socketAddress }: CallerFacts, trustProxy: boolean | number): string | undefined {
  const hops = trustProxy === true ? 1 : trustProxy === false ? 0 : trustProxy;
  if (hops > 0) {
    const entries = (forwardedFor ?? '').split(',').map((entry) => entry.trim()).filter(Boolean);
    const forwarded = addressIn(entries[Math.max(0, entries.length - hops)]);
    if (forwarded) return forwarded;
  }
  return socketAddress;
}

/** The IP address in an `X-Forwarded-For` entry, without the port some proxies add. */
function addressIn(entry: string | undefined): string | undefined {
  if (!entry || entry.length > 64) return undefined;
  const address = /^\[([^\]]+)\](?::\d+)?$/.exec(entry)?.[1] ?? /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(entry)?.[1] ?? entry;
  return isIP(address) ? address : undefined;
}
