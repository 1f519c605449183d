import { createHash } from 'node:crypto';
import { ApolloClient, HttpLink, InMemoryCache, gql } from '@apollo/client/core';
import { PersistedQueryLink } from '@apollo/client/link/persisted-queries';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startStack, type Stack } from '../helpers/start-stack.ts';

/**
 * Apollo Client core (no React) with its normalized cache and PersistedQueryLink, against a gateway
 * that requires a key. The snippets between the README markers are the README's "Clients" code.
 */
const KEY = 'apollo-suite-key';

const TranslateText = gql`
  query TranslateText {
    translation { translate(text: "Find the shortest path.", to: "es") { text } }
  }
`;
const TranslationLanguages = gql`
  query TranslationLanguages {
    translation { languages { code name targets } }
  }
`;

describe('Apollo Client core', () => {
  let stack: Stack;
  const sent: { method: string; hasQuery: boolean }[] = [];
  const recordingFetch: typeof fetch = async (input, init) => {
    const url = new URL(String(input));
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : {};
    sent.push({ method: init?.method ?? 'GET', hasQuery: Boolean(body.query ?? url.searchParams.get('query')) });
    return fetch(input, init);
  };

  beforeAll(async () => {
    stack = await startStack({ settings: { gatewayApiKeys: [KEY] } });
  });
  afterAll(async () => {
    await stack?.close();
  });

  function createClient(options: { typePolicies?: boolean; useGETForHashedQueries?: boolean } = {}) {
    const gatewayUrl = stack.gatewayUrl;
    const fetch = recordingFetch;

    // README "Clients": Apollo Client
    const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
    const client = new ApolloClient({
      link: new PersistedQueryLink({ sha256, useGETForHashedQueries: options.useGETForHashedQueries }).concat(
        new HttpLink({ uri: gatewayUrl, headers: { authorization: `Bearer ${KEY}` }, fetch }),
      ),
      cache: new InMemoryCache({
        // Query.translation is a namespace with no id: merge it, so one query's fields do not
        // replace another's (languages would otherwise evict translate, "Cache data may be lost").
        typePolicies: options.typePolicies === false ? {} : { TranslationQuery: { merge: true } },
      }),
    });
    // end of snippet
    return client;
  }

  it('keeps both of two translation queries in its cache with the README typePolicies', async () => {
    const client = createClient();
    const first = await client.query<any>({ query: TranslateText });
    const second = await client.query<any>({ query: TranslationLanguages });
    expect(first.data?.translation.translate.text).toBeTruthy();
    expect(second.data?.translation.languages.length).toBeGreaterThan(1);
    expect(client.readQuery({ query: TranslateText })).toEqual(first.data);
    expect(client.readQuery({ query: TranslationLanguages })).toEqual(second.data);
  });

  it('loses the first one without them (why the README asks for them)', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const client = createClient({ typePolicies: false });
      await client.query<any>({ query: TranslateText });
      await client.query<any>({ query: TranslationLanguages });
      expect(client.readQuery({ query: TranslateText })).toBeNull();
      expect(warn.mock.calls.flat().join(' ')).toContain('Cache data may be lost');
    } finally {
      warn.mockRestore();
    }
  });

  it('persisted queries over POST: a hash alone, the document once when unknown, then the hash alone', async () => {
    const query = gql`query ProblemTitle { problem(id: "p1002") { id title } }`;
    sent.length = 0;
    const result = await createClient().query<any>({ query });
    expect(result.data?.problem.id).toBe('p1002');
    expect(sent).toEqual([{ method: 'POST', hasQuery: false }, { method: 'POST', hasQuery: true }]);
    sent.length = 0;
    const again = await createClient().query<any>({ query });
    expect(again.data).toEqual(result.data);
    expect(sent).toEqual([{ method: 'POST', hasQuery: false }]);
  });

  it('persisted queries over GET (useGETForHashedQueries), with no CSRF header', async () => {
    const query = gql`query ProblemRating { problem(id: "p1003") { id rating } }`;
    sent.length = 0;
    const result = await createClient({ useGETForHashedQueries: true }).query<any>({ query });
    expect(result.data?.problem.id).toBe('p1003');
    expect(sent).toEqual([{ method: 'GET', hasQuery: false }, { method: 'POST', hasQuery: true }]);
    sent.length = 0;
    await createClient({ useGETForHashedQueries: true }).query<any>({ query });
    expect(sent).toEqual([{ method: 'GET', hasQuery: false }]);
  });
});
