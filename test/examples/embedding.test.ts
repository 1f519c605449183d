import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startExpressExample } from '../../examples/express/server.ts';
import { startFastifyExample } from '../../examples/fastify/server.ts';
import { startNodeHttpExample } from '../../examples/node-http/server.ts';
import { createGateway, SettingsError } from 'problems-translation-gateway';
import { postGraphQL, startStack, type Stack } from '../helpers/start-stack.ts';

/** Each example under examples/, started on a free port over the stand-ins, answers the link query. */
describe('embedding the gateway', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.close();
  });

  const LINK = /* GraphQL */ `{ problems(first: 2) { nodes { id title translation(to: "es") { title } } } }`;
  const examples = [
    ['node:http', startNodeHttpExample],
    ['Express', startExpressExample],
    ['Fastify', startFastifyExample],
  ] as const;

  it.each(examples)('%s: serves the cross-source query and refuses a client without a key', async (_name, start) => {
    const running = await start({ port: 0, settings: { ...stack.upstreamSettings, gatewayApiKeys: ['example-key'] }, log: () => undefined });
    try {
      const answered = await postGraphQL(running.url, LINK, undefined, { authorization: 'Bearer example-key' });
      expect(answered.errors).toBeUndefined();
      for (const node of answered.data.problems.nodes) expect(node.translation.title).not.toBe(node.title);
      const refused = await postGraphQL(running.url, '{ __typename }');
      expect(refused.status).toBe(401);
    } finally {
      await running.close();
    }
  });

  it('validates options with the same one-line errors as the environment', async () => {
    await expect(createGateway({ settings: { maxCost: -5 } })).rejects.toThrow(SettingsError);
    await expect(createGateway({ settings: { translationUrl: 'ftp://x' } })).rejects.toThrow(
      /^translationUrl: expected a http: or https: URL, got one with "ftp:" \(option translationUrl, variable TRANSLATION_URL\)$/,
    );
  });

  it('answers through the fetch-style handler too', async () => {
    const response = await stack.gateway.fetch(
      new Request('http://gateway.local/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ problem(id: "p1001") { id } }' }),
      }),
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ data: { problem: { id: 'p1001' } } });
  });
});
