import { serverAudits } from 'graphql-http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../helpers/start-stack.ts';

/**
 * The GraphQL over HTTP audits of the `graphql-http` package, run against the gateway with keys
 * required and the CSRF check on. The audits have no headers option, so the key and the CSRF header
 * are added in the fetch they use; introspection is allowed, which two audits need.
 */
const KEY = 'audit-key';
let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ settings: { gatewayApiKeys: [KEY], introspection: true } });
});
afterAll(async () => {
  await stack?.close();
});

describe('graphql-http server audits', () => {
  const audits = serverAudits({
    url: () => stack.gatewayUrl,
    fetchFn: (input: RequestInfo | URL, init?: RequestInit) => {
      const headers = new Headers(init?.headers);
      headers.set('authorization', `Bearer ${KEY}`);
      headers.set('x-graphql-yoga-csrf', 'audit');
      return fetch(input, { ...init, headers });
    },
  });

  const shoulds: string[] = [];
  for (const audit of audits) {
    if (audit.name.startsWith('MUST')) {
      it(`${audit.id} ${audit.name}`, async () => {
        const result = await audit.fn();
        expect(result.status, result.status === 'ok' ? '' : `${result.reason}`).toBe('ok');
      });
    } else {
      it(`${audit.id} ${audit.name} (recorded, not required)`, async () => {
        const result = await audit.fn();
        if (result.status !== 'ok') shoulds.push(`${audit.id} ${audit.name}: ${result.reason}`);
      });
    }
  }

  afterAll(() => {
    if (shoulds.length) console.log(`SHOULD/MAY audits not met (${shoulds.length}):\n${shoulds.join('\n')}`);
  });
});
