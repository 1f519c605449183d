import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHARED_CLIENT_KEY, sharedStack } from '../helpers/shared-stack.ts';
import type { Stack } from '../helpers/start-stack.ts';

const KEY = SHARED_CLIENT_KEY;

describe('hardening: every operation of a batch counts against RATE_LIMIT_REQUESTS', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await sharedStack('keyed');
  });
  afterAll(async () => {
    await stack?.close();
  });

  const batch = (url: string, operations: number) =>
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json', authorization: `Bearer ${KEY}` },
      body: JSON.stringify(Array.from({ length: operations }, () => ({ query: '{ __typename }' }))),
    });

  it('refuses the batch that takes the client past its budget: 429 with Retry-After', async () => {
    const gateway = await stack.addGateway({ settings: { gatewayApiKeys: [KEY], rateLimitRequests: 15, maxBatchOperations: 10 } });
    const first = await batch(gateway.gatewayUrl, 10);
    expect(first.status).toBe(200);
    expect(await first.json()).toHaveLength(10);
    // 10 spent; this batch's ten would make 20.
    const second = await batch(gateway.gatewayUrl, 10);
    expect(second.status).toBe(429);
    const retryAfter = Number(second.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    const body = await second.json();
    expect(body.errors[0].extensions).toEqual({ code: 'RATE_LIMITED', retryAfter, limit: 15 });
  });

  it('35 batches of 10 are 350 operations: refused once the budget of 300 is spent', async () => {
    const gateway = await stack.addGateway({ settings: { gatewayApiKeys: [KEY], rateLimitRequests: 300, maxBatchOperations: 10 } });
    const statuses: number[] = [];
    for (let index = 0; index < 35; index += 1) statuses.push((await batch(gateway.gatewayUrl, 10)).status);
    expect(statuses.slice(0, 30)).toEqual(Array(30).fill(200));
    expect(statuses.slice(30)).toEqual(Array(5).fill(429));
  });

  it('a single operation still counts once', async () => {
    const gateway = await stack.addGateway({ settings: { gatewayApiKeys: [KEY], rateLimitRequests: 2 } });
    const statuses: number[] = [];
    for (let index = 0; index < 3; index += 1) statuses.push((await gateway.query('{ __typename }', undefined, { authorization: `Bearer ${KEY}` })).status);
    expect(statuses).toEqual([200, 200, 429]);
  });
});
