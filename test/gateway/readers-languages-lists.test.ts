import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedStack } from '../helpers/shared-stack.ts';
import type { Stack } from '../helpers/start-stack.ts';

/** A POST through `gateway.fetch` (the front door, in process), answered with its status, headers and body. */
async function ask(target: Pick<Stack, 'gateway' | 'gatewayUrl'>, query: string, { variables, headers = {} }: { variables?: Record<string, unknown>; headers?: Record<string, string> } = {}) {
  const response = await target.gateway.fetch(
    new Request(target.gatewayUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json', ...headers },
      body: JSON.stringify({ query, variables }),
    }),
  );
  const body = await response.json();
  return { status: response.status, headers: response.headers, data: body.data, errors: body.errors, extensions: body.extensions };
}

describe('`to:` lists and @inContext', () => {
  let stack: Stack;
  const translateCalls = () => stack.translation.stats.byRoute['POST /translate'] ?? 0;

  beforeAll(async () => {
    stack = await sharedStack('open');
  });
  afterAll(async () => stack?.close());

  it('smoke', async () => {
    const list = await ask(stack, /* GraphQL */ `{ problem(id: "p1001") { translation(to: ["x-klingon", "de", "fr"]) { language provenance { kind } } } }`);
    console.log(JSON.stringify(list));
    const ctx = await ask(stack, /* GraphQL */ `query @inContext(language: "it") { problem(id: "p1001") { translation { language provenance { kind } } } translation { translate(text: "the array") { text language } } }`, { headers: { 'accept-language': 'de' } });
    console.log(JSON.stringify(ctx), ctx.headers.get('vary'));
    const bad = await ask(stack, /* GraphQL */ `query @inContext(language: "not a tag") { problem(id: "p1001") { translation { language } } }`);
    console.log(JSON.stringify(bad));
    const variable = await ask(stack, /* GraphQL */ `query ($to: String!) { problem(id: "p1001") { translation(to: $to) { language } } }`, { variables: { to: 'es' } });
    console.log(JSON.stringify(variable));
    console.log(translateCalls());
  });
});
