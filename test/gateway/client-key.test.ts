import { describe, expect, it } from 'vitest';
import { identifyCallerGuard } from '../../src/gateway/guards/client-key.ts';
import { createGatewayRequest } from '../../src/gateway/pipeline/create-gateway-request.ts';
import type { GatewayRequest } from '../../src/gateway/request/gateway-request.ts';
import type { CallerOptions } from '../../src/gateway/guards/client-identity.ts';

function requestWith(authorization: string | undefined, socketAddress = '10.0.0.1'): GatewayRequest {
  const headers: Record<string, string> = authorization === undefined ? {} : { authorization };
  return createGatewayRequest({
    head: { method: 'POST', url: 'http://gateway/graphql', headers: { get: (name) => headers[name.toLowerCase()] ?? null } },
    pathname: '/graphql',
    hasQueryParameter: false,
    socketAddress,
  });
}

function identify(guard: ReturnType<typeof identifyCallerGuard>, authorization: string | undefined, socketAddress?: string) {
  const request = requestWith(authorization, socketAddress);
  void guard.check(request);
  return { identity: request.identity, keyAccepted: request.keyAccepted };
}

/** The caller guard remembers accepted keys: the same answers as checking each time, whatever came before. */
describe('identify caller', () => {
  it('names a keyed caller by its key every time, and anyone else by address', () => {
    const guard = identifyCallerGuard({ keys: ['key-a', 'key-b'], trustProxy: false });
    const first = identify(guard, 'Bearer key-a');
    expect(first).toMatchObject({ keyAccepted: true, identity: expect.stringMatching(/^key:/) });
    // Remembered: the same identity from another address, as the key names the caller.
    expect(identify(guard, 'Bearer key-a', '10.0.0.2')).toEqual(first);
    expect(identify(guard, 'Bearer key-b').identity).not.toBe(first.identity);
    for (const refused of ['Bearer key-c', 'Bearer key-a2', 'Basic key-a', '', undefined]) {
      expect(identify(guard, refused, '10.0.0.3')).toEqual({ identity: 'address:10.0.0.3', keyAccepted: false });
    }
    expect(identify(guard, 'Bearer key-a')).toEqual(first);
  });

  it('forgets what it remembered when the keys change', () => {
    const options: CallerOptions = { keys: ['key-a'], trustProxy: false };
    const guard = identifyCallerGuard(options);
    expect(identify(guard, 'Bearer key-a').keyAccepted).toBe(true);
    options.keys = ['key-b'];
    expect(identify(guard, 'Bearer key-a')).toEqual({ identity: 'address:10.0.0.1', keyAccepted: false });
    expect(identify(guard, 'Bearer key-b').keyAccepted).toBe(true);
  });

  it('names callers of an open gateway by address, key or not', () => {
    const guard = identifyCallerGuard({ keys: [], trustProxy: false });
    for (const address of ['10.0.0.1', '10.0.0.2']) {
      expect(identify(guard, 'Bearer anything', address)).toEqual({ identity: `address:${address}`, keyAccepted: true });
    }
  });
});
