import { ApolloClient, HttpLink, InMemoryCache } from '@apollo/client/core';
import { PersistedQueryLink } from '@apollo/client/link/persisted-queries';
import { Client, cacheExchange, fetchExchange } from '@urql/core';
import { GraphQLClient } from 'graphql-request';
import { TranslateTextDocument, type TranslateTextQuery } from 'problems-translation-gateway/sdk';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { standInTranslation } from '../helpers/stand-in-translation.ts';
import { SHARED_CLIENT_KEY, sharedStack } from '../helpers/shared-stack.ts';
import type { Stack } from '../helpers/start-stack.ts';

/**
 * The typed documents `npm run codegen` writes (client preset) go to each client as they are, and
 * each types its result from them; the generated manifest serves as TRUSTED_DOCUMENTS.
 */
const KEY = SHARED_CLIENT_KEY;
const MANIFEST = new URL('../../src/sdk/gql/persisted-documents.json', import.meta.url).pathname;
const variables = { text: 'Print the answer.', to: 'es' };

describe('typed documents from codegen', () => {
  let stack: Stack;
  let trusted: Awaited<ReturnType<Stack['addGateway']>>;
  beforeAll(async () => {
    stack = await sharedStack('keyed');
    trusted = await stack.addGateway({ settings: { gatewayApiKeys: [KEY], trustedDocuments: MANIFEST } });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('Apollo Client types its result from them', async () => {
    const client = new ApolloClient({
      link: new HttpLink({ uri: stack.gatewayUrl, headers: { authorization: `Bearer ${KEY}` } }),
      cache: new InMemoryCache({ typePolicies: { TranslationQuery: { merge: true } } }),
    });
    const { data } = await client.query({ query: TranslateTextDocument, variables });
    expectTypeOf(data).toEqualTypeOf<TranslateTextQuery | undefined>();
    expect(data?.translation.translate?.text).toBe(standInTranslation(variables.text, variables.to));
  });

  it('urql types its result from them', async () => {
    const client = new Client({ url: stack.gatewayUrl, exchanges: [cacheExchange, fetchExchange], fetchOptions: { headers: { authorization: `Bearer ${KEY}` } } });
    const result = await client.query(TranslateTextDocument, variables).toPromise();
    expectTypeOf(result.data).toEqualTypeOf<TranslateTextQuery | undefined>();
    expect(result.data?.translation.translate?.text).toBe(standInTranslation(variables.text, variables.to));
  });

  it('graphql-request types its result from them', async () => {
    const client = new GraphQLClient(stack.gatewayUrl, { headers: { authorization: `Bearer ${KEY}` } });
    const data = await client.request(TranslateTextDocument, variables);
    expectTypeOf(data).toEqualTypeOf<TranslateTextQuery>();
    expect(data.translation.translate?.text).toBe(standInTranslation(variables.text, variables.to));
  });

  it('Apollo Client with PersistedQueryLink runs them against TRUSTED_DOCUMENTS set to the generated manifest', async () => {
    // README "Clients": trusted documents with Apollo Client
    const client = new ApolloClient({
      link: new PersistedQueryLink({
        // The hash codegen computed (src/sdk/gql/persisted-documents.json), not one of Apollo's printing.
        generateHash: (document) => (document as { __meta__?: { hash: string } }).__meta__?.hash ?? '',
      }).concat(new HttpLink({ uri: trusted.gatewayUrl, headers: { authorization: `Bearer ${KEY}` } })),
      cache: new InMemoryCache({ typePolicies: { TranslationQuery: { merge: true } } }),
    });
    // end of snippet
    const { data } = await client.query({ query: TranslateTextDocument, variables });
    expect(data?.translation.translate?.text).toBe(standInTranslation(variables.text, variables.to));
  });
});
