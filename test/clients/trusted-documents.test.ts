import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { GraphQLClient } from 'graphql-request';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { standInTranslation } from '../helpers/stand-in-translation.ts';
import { createGateway } from '../../src/gateway/create-gateway.ts';
import { ProblemsInLanguageDocument, TranslateTextDocument } from '../../src/sdk/gql/graphql.ts';
import { SHARED_CLIENT_KEY, sharedStack } from '../helpers/shared-stack.ts';
import type { Stack } from '../helpers/start-stack.ts';

/**
 * TRUSTED_DOCUMENTS: only the manifest's operations run, by hash, document id or exact text. The
 * manifest is the one `npm run codegen` writes for the SDK's operations.
 */
const KEY = SHARED_CLIENT_KEY;
const MANIFEST = fileURLToPath(new URL('../../src/sdk/gql/persisted-documents.json', import.meta.url));
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('trusted documents', () => {
  let stack: Stack;
  let trusted: Awaited<ReturnType<Stack['addGateway']>>;
  let manifest: Record<string, string>;

  beforeAll(async () => {
    manifest = JSON.parse(await readFile(MANIFEST, 'utf8'));
    stack = await sharedStack('keyed');
    trusted = await stack.addGateway({ settings: { gatewayApiKeys: [KEY], trustedDocuments: MANIFEST } });
  });
  afterAll(async () => {
    await stack?.close();
  });

  const entry = (name: string) => Object.entries(manifest).find(([, text]) => text.includes(`query ${name}`))!;
  const post = (body: unknown) =>
    fetch(trusted.gatewayUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
      body: JSON.stringify(body),
    }).then(async (response) => ({ status: response.status, body: (await response.json()) as any }));

  it('runs a manifest operation named by its APQ hash, over POST and GET', async () => {
    const [hash] = entry('TranslationLanguages');
    const extensions = { persistedQuery: { version: 1, sha256Hash: hash } };
    const byPost = await post({ extensions });
    expect(byPost.status).toBe(200);
    expect(byPost.body.data.translation.languages.length).toBeGreaterThan(1);
    const byGet = await fetch(`${trusted.gatewayUrl}?extensions=${encodeURIComponent(JSON.stringify(extensions))}`, { headers: { authorization: `Bearer ${KEY}` } });
    expect(((await byGet.json()) as any).data).toEqual(byPost.body.data);
  });

  it('runs one named by documentId, with variables', async () => {
    const [hash] = entry('TranslateText');
    const sent = await post({ documentId: hash, variables: { text: 'Print the answer.', to: 'fr' } });
    expect(sent.status).toBe(200);
    expect(sent.body.data.translation.translate.text).toBe(standInTranslation('Print the answer.', 'fr'));
  });

  it('runs one sent as the exact text of an entry', async () => {
    const [, text] = entry('TranslationLanguages');
    expect((await post({ query: text })).status).toBe(200);
  });

  it('runs graphql-request sending the codegen documents, printed its own way', async () => {
    const client = new GraphQLClient(trusted.gatewayUrl, { headers: { authorization: `Bearer ${KEY}` } });
    const translated = await client.request(TranslateTextDocument, { text: 'Print the answer.', to: 'fr' });
    expect(translated.translation.translate?.text).toBe(standInTranslation('Print the answer.', 'fr'));
    const problems = await client.request(ProblemsInLanguageDocument, { to: 'es', first: 2 });
    expect(problems.problems?.nodes).toHaveLength(2);
  });

  it('runs an entry printed another way (order, layout, comments), by text or with its hash', async () => {
    const [hash] = entry('TranslateText');
    const reprinted = `# sent by hand
      query TranslateText($to: [String!]!, $text: String!, $from: String) {
        translation { translate(from: $from, to: $to, text: $text) { text detectedLanguage { confidence code } } }
      }`;
    const variables = { text: 'Print the answer.', to: 'fr' };
    const byText = await post({ query: reprinted, variables });
    expect(byText.status).toBe(200);
    expect(byText.body.data.translation.translate.text).toBe(standInTranslation('Print the answer.', 'fr'));
    const withHash = await post({ query: reprinted, variables, extensions: { persistedQuery: { version: 1, sha256Hash: hash } } });
    expect(withHash.status).toBe(200);
  });

  it('refuses a printing that asks for anything more or other than an entry', async () => {
    const [hash, text] = entry('TranslateText');
    const variables = { text: 'Print the answer.', to: 'fr' };
    for (const query of [
      text.replace('confidence', 'confidence name'),
      text.replace('{ code', '{ language: code'),
      text.replace('translate(', 'translate @include(if: true) ('),
      text.replace('query TranslateText', 'query Other'),
    ]) {
      const byText = await post({ query, variables });
      expect([byText.status, byText.body.errors?.[0]?.extensions?.code]).toEqual([400, 'PERSISTED_QUERY_ONLY']);
      const withHash = await post({ query, variables, extensions: { persistedQuery: { version: 1, sha256Hash: hash } } });
      expect([withHash.status, withHash.body.errors?.[0]?.extensions?.code]).toEqual([400, 'UNKNOWN_OPERATION']);
    }
  });

  it('refuses any other document with 400 PERSISTED_QUERY_ONLY', async () => {
    const sent = await post({ query: '{ problems(first: 100) { nodes { id } } }' });
    expect(sent.status).toBe(400);
    expect(sent.body.errors[0].extensions.code).toBe('PERSISTED_QUERY_ONLY');
  });

  it('refuses an unknown hash with 400 UNKNOWN_OPERATION and never registers one', async () => {
    const query = '{ tags }';
    const register = await post({ query, extensions: { persistedQuery: { version: 1, sha256Hash: sha256(query) } } });
    expect([register.status, register.body.errors[0].extensions.code]).toEqual([400, 'UNKNOWN_OPERATION']);
    const again = await post({ extensions: { persistedQuery: { version: 1, sha256Hash: sha256(query) } } });
    expect([again.status, again.body.errors[0].extensions.code]).toEqual([400, 'UNKNOWN_OPERATION']);
  });

  it('checks the key first: no key, 401', async () => {
    const response = await fetch(trusted.gatewayUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ documentId: entry('TranslateText')[0] }) });
    expect(response.status).toBe(401);
  });

  it('stops start-up with one line naming TRUSTED_DOCUMENTS when the manifest cannot be read', async () => {
    await expect(createGateway({ log: () => undefined, requestLog: false, settings: { ...stack.upstreamSettings, trustedDocuments: '/nonexistent/manifest.json' } })).rejects.toThrow(/^TRUSTED_DOCUMENTS: /);
  });
});
