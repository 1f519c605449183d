import { Client, cacheExchange, fetchExchange, gql } from '@urql/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../helpers/start-stack.ts';

/** urql on its defaults (queries as GET within the URL limit), against a gateway that requires a key. */
const KEY = 'urql-suite-key';

describe('urql core on its defaults', () => {
  let stack: Stack;
  const methods: string[] = [];
  beforeAll(async () => {
    stack = await startStack({ settings: { gatewayApiKeys: [KEY] } });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('runs a README query over GET', async () => {
    const gatewayUrl = stack.gatewayUrl;
    const recordingFetch: typeof fetch = (input, init) => {
      methods.push(init?.method ?? 'GET');
      return fetch(input, init);
    };

    // README "Clients": urql
    const client = new Client({
      url: gatewayUrl,
      exchanges: [cacheExchange, fetchExchange],
      fetchOptions: { headers: { authorization: `Bearer ${KEY}` } },
      fetch: recordingFetch,
    });
    const ProblemsInSpanish = gql`
      query ProblemsInSpanish {
        problems(first: 2) { nodes { id title translation(to: "es") { language title } } }
      }
    `;
    const result = await client.query(ProblemsInSpanish, {}).toPromise();
    // end of snippet

    expect(result.error).toBeUndefined();
    expect(result.data.problems.nodes).toHaveLength(2);
    expect(result.data.problems.nodes[0].translation.language).toBe('es');
    expect(methods).toEqual(['GET']);
  });
});
