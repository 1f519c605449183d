import { Client, cacheExchange, fetchExchange, gql } from '@urql/core';
import { persistedExchange } from '@urql/exchange-persisted';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHARED_CLIENT_KEY, sharedStack } from '../helpers/shared-stack.ts';
import type { Stack } from '../helpers/start-stack.ts';

/** urql on its defaults (queries as GET within the URL limit), against a gateway that requires a key. */
const KEY = SHARED_CLIENT_KEY;

describe('urql core on its defaults', () => {
  let stack: Stack;
  const methods: string[] = [];
  beforeAll(async () => {
    stack = await sharedStack('keyed');
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

  it('speaks automatic persisted queries with persistedExchange: the document once, then its hash alone', async () => {
    const sent: { method: string; hasQuery: boolean }[] = [];
    const recordingFetch: typeof fetch = (input, init) => {
      const url = new URL(String(input));
      const body = typeof init?.body === 'string' ? JSON.parse(init.body) : {};
      sent.push({ method: init?.method ?? 'GET', hasQuery: Boolean(body.query ?? url.searchParams.get('query')) });
      return fetch(input, init);
    };
    const query = gql`query ProblemTags { problem(id: "p1007") { id tags } }`;
    const createClient = () =>
      new Client({
        url: stack.gatewayUrl,
        exchanges: [cacheExchange, persistedExchange(), fetchExchange],
        fetchOptions: { headers: { authorization: `Bearer ${KEY}` } },
        fetch: recordingFetch,
      });
    const first = await createClient().query(query, {}).toPromise();
    expect(first.error).toBeUndefined();
    expect(first.data.problem.id).toBe('p1007');
    expect(sent.at(0)).toEqual({ method: 'GET', hasQuery: false });
    expect(sent.at(-1)?.hasQuery).toBe(true);
    sent.length = 0;
    const second = await createClient().query(query, {}).toPromise();
    expect(second.data).toEqual(first.data);
    expect(sent).toEqual([{ method: 'GET', hasQuery: false }]);
  });
});
