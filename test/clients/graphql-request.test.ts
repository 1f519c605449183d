import { GraphQLClient, gql } from 'graphql-request';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHARED_CLIENT_KEY, sharedStack } from '../helpers/shared-stack.ts';
import type { Stack } from '../helpers/start-stack.ts';

/** graphql-request, POST (its default) and GET, against a gateway that requires a key. */
const KEY = SHARED_CLIENT_KEY;

describe('graphql-request', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await sharedStack('keyed');
  });
  afterAll(async () => {
    await stack?.close();
  });

  const TranslateText = gql`
    query TranslateText($text: String!, $to: String!) {
      translation { translate(text: $text, to: $to) { text } }
    }
  `;

  it.each(['POST', 'GET'] as const)('runs a README query with method %s', async (method) => {
    const gatewayUrl = stack.gatewayUrl;

    // README "Clients": graphql-request
    const client = new GraphQLClient(gatewayUrl, { method, headers: { authorization: `Bearer ${KEY}` } });
    const data = await client.request<{ translation: { translate: { text: string } } }>(TranslateText, { text: 'Find the shortest path.', to: 'es' });
    // end of snippet

    expect(data.translation.translate.text).not.toBe('Find the shortest path.');
    expect(data.translation.translate.text.length).toBeGreaterThan(0);
  });
});
