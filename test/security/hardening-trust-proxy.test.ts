import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSettings } from '../../src/gateway/settings.ts';
import { SHARED_CLIENT_KEY, sharedStack } from '../helpers/shared-stack.ts';
import type { Stack } from '../helpers/start-stack.ts';

const KEY = SHARED_CLIENT_KEY;

describe('hardening: behind a trusted proxy, the client is the address the proxy appended', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await sharedStack('keyed');
  });
  afterAll(async () => {
    await stack?.close();
  });

  const guess = (gateway: Awaited<ReturnType<Stack['addGateway']>>, forwardedFor: string, attempt: number) =>
    gateway.query('{ __typename }', undefined, { authorization: `Bearer guess-${attempt}`, 'x-forwarded-for': forwardedFor });

  it('TRUST_PROXY=true: a client varying the entries it wrote itself still spends one budget guessing keys', async () => {
    const gateway = await stack.addGateway({ settings: { gatewayApiKeys: [KEY], trustProxy: true, rateLimitRequests: 3 } });
    const statuses: number[] = [];
    // The client sends "X-Forwarded-For: <anything>"; the proxy appends the address it saw.
    for (let attempt = 0; attempt < 6; attempt += 1) statuses.push((await guess(gateway, `203.0.113.${attempt}, 198.51.100.7`, attempt)).status);
    expect(statuses).toEqual([401, 401, 401, 429, 429, 429]);
    // Another address, as appended by the proxy, has its own budget.
    expect((await guess(gateway, '203.0.113.1, 198.51.100.8', 99)).status).toBe(401);
  });

  it('TRUST_PROXY=2: the address the farther of two proxies appended, second from the right', async () => {
    const gateway = await stack.addGateway({ settings: { gatewayApiKeys: [KEY], trustProxy: 2, rateLimitRequests: 2 } });
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 4; attempt += 1) statuses.push((await guess(gateway, `203.0.113.${attempt}, 198.51.100.7, 10.0.0.${attempt}`, attempt)).status);
    expect(statuses).toEqual([401, 401, 429, 429]);
    expect((await guess(gateway, '198.51.100.9, 10.0.0.1', 99)).status).toBe(401);
  });

  it('an entry that is not an address falls back to the connection\'s peer, never to a name the client chose', async () => {
    const gateway = await stack.addGateway({ settings: { gatewayApiKeys: [KEY], trustProxy: true, rateLimitRequests: 2 } });
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 3; attempt += 1) statuses.push((await guess(gateway, `client-${attempt}`, attempt)).status);
    expect(statuses).toEqual([401, 401, 429]);
  });

  it('reads TRUST_PROXY as true, false or a number of proxies', () => {
    expect(readSettings({}).trustProxy).toBe(false);
    expect(readSettings({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(readSettings({ TRUST_PROXY: 'off' }).trustProxy).toBe(false);
    expect(readSettings({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(() => readSettings({ TRUST_PROXY: 'some' })).toThrow(/TRUST_PROXY/);
    expect(() => readSettings({ TRUST_PROXY: '11' })).toThrow(/TRUST_PROXY/);
  });
});
