import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGateway, SettingsError } from 'problems-translation-gateway';
import { startStack, type Stack } from '../helpers/start-stack.ts';

/** The library entry as an app calls it (the recipes in examples/ run as README snippets: test/docs/). */
describe('embedding the gateway', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.close();
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
