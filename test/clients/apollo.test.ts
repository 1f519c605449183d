import { createHash } from 'node:crypto';
import { ApolloClient, HttpLink, InMemoryCache, gql } from '@apollo/client/core';
import { PersistedQueryLink } from '@apollo/client/link/persisted-queries';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { standInTranslation } from '../helpers/stand-in-translation.ts';
import { apolloTypePolicies } from 'problems-translation-gateway/sdk';
import { SHARED_CLIENT_KEY, sharedStack } from '../helpers/shared-stack.ts';
import type { Stack } from '../helpers/start-stack.ts';

/**
 * Apollo Client core (no React) with its normalized cache and PersistedQueryLink, against a gateway
 * that requires a key, with the cache policy the package ships (apolloTypePolicies).
 */
const KEY = SHARED_CLIENT_KEY;

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
    stack = await sharedStack('keyed');
  });
  afterAll(async () => {
    await stack?.close();
  });

  function createClient(options: { typePolicies?: boolean; persisted?: boolean; useGETForHashedQueries?: boolean } = {}) {
    const http = new HttpLink({ uri: stack.gatewayUrl, headers: { authorization: `Bearer ${KEY}` }, fetch: recordingFetch });
    const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
    return new ApolloClient({
      link: options.persisted === false ? http : new PersistedQueryLink({ sha256, useGETForHashedQueries: options.useGETForHashedQueries }).concat(http),
      cache: new InMemoryCache({ typePolicies: options.typePolicies === false ? {} : { ...apolloTypePolicies } }),
    });
  }

  const ProblemTitleInSpanish = gql`
    query ProblemTitleInSpanish { problem(id: "p1004") { id translation(to: "es") { title } } }
  `;
  const ProblemStatementInSpanish = gql`
    query ProblemStatementInSpanish { problem(id: "p1004") { id translation(to: "es") { statement } } }
  `;

  it('languages, translate, languages again: 2 network calls with apolloTypePolicies, and a cache-only read has the data', async () => {
    const client = createClient({ persisted: false });
    sent.length = 0;
    const languages = await client.query<any>({ query: TranslationLanguages });
    await client.query<any>({ query: TranslateText });
    const again = await client.query<any>({ query: TranslationLanguages });
    expect(sent).toHaveLength(2);
    expect(again.data).toEqual(languages.data);
    const cacheOnly = await client.query<any>({ query: TranslateText, fetchPolicy: 'cache-only' });
    expect(cacheOnly.data?.translation.translate.text).toBe(standInTranslation('Find the shortest path.', 'es'));
    expect(sent).toHaveLength(2);
  });

  it('without the policies the same sequence costs 3 calls and the cache-only read comes back empty (what the export prevents)', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const client = createClient({ persisted: false, typePolicies: false });
      sent.length = 0;
      await client.query<any>({ query: TranslationLanguages });
      await client.query<any>({ query: TranslateText });
      await client.query<any>({ query: TranslationLanguages });
      expect(sent).toHaveLength(3);
      const cacheOnly = await client.query<any>({ query: TranslateText, fetchPolicy: 'cache-only' });
      expect(cacheOnly.data).toBeUndefined();
    } finally {
      warn.mockRestore();
    }
  });

  it("keeps two selections of one problem's translation (ProblemTranslation merged too)", async () => {
    const client = createClient({ persisted: false });
    sent.length = 0;
    await client.query<any>({ query: ProblemTitleInSpanish });
    await client.query<any>({ query: ProblemStatementInSpanish });
    await client.query<any>({ query: ProblemTitleInSpanish });
    expect(sent).toHaveLength(2);
    const asked = await stack.query('{ problem(id: "p1004") { translation(to: "es") { statement } } }', undefined, { authorization: `Bearer ${KEY}` });
    expect(asked.data.problem.translation.statement).toEqual(expect.any(String));
    expect(client.readQuery<any>({ query: ProblemStatementInSpanish })?.problem.translation.statement).toBe(asked.data.problem.translation.statement);
  });

  it('keeps both of two translation queries in its cache with apolloTypePolicies', async () => {
    const client = createClient();
    const first = await client.query<any>({ query: TranslateText });
    const second = await client.query<any>({ query: TranslationLanguages });
    expect(first.data?.translation.translate.text).toBe(standInTranslation('Find the shortest path.', 'es'));
    expect(second.data?.translation.languages.length).toBeGreaterThan(1);
    expect(client.readQuery({ query: TranslateText })).toEqual(first.data);
    expect(client.readQuery({ query: TranslationLanguages })).toEqual(second.data);
  });

  it('loses the first one without them', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const client = createClient({ typePolicies: false });
      await client.query<any>({ query: TranslateText });
      await client.query<any>({ query: TranslationLanguages });
      expect(client.readQuery({ query: TranslateText })).toBeNull();
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
