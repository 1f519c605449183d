import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedStack } from '../helpers/shared-stack.ts';
import type { Stack } from '../helpers/start-stack.ts';

// The fault: a translation service answering 400 to everything (a proxy in front of it refusing,
// a broken deployment) made the gateway learn ever smaller length limits from its refusals, down to
// the text's one sentence, and tell clients TEXT_TOO_LONG: the text was blamed for the service's failure.
describe('a translation outage answering only 400', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await sharedStack('open');
  });
  afterAll(async () => {
    stack.translation.clearFaults();
    await stack?.close();
  });

  const TEXTS = ['Print the answer.', 'Read two integers and print their sum. Then print their difference on a new line.'];

  for (const text of TEXTS) {
    it(`MUST answer a refused ${text.length}-character text as the service's failure, never TEXT_TOO_LONG`, async () => {
      // A gateway of its own: nothing learned from earlier calls, as after a start during the outage.
      const fresh = await stack.addGateway({ settings: { translationCacheTtlSeconds: 0 } });
      stack.translation.setFaults({ status: 400, routes: ['POST /translate'] });
      try {
        const answer = await fresh.query(/* GraphQL */ `query ($t: String!) { translation { translate(text: $t, to: "es") { text } } }`, { t: text });
        expect(answer.errors?.map((error) => error.extensions?.code)).toEqual(['UPSTREAM_BAD_REQUEST']);
        expect(answer.errors?.[0].extensions).toMatchObject({ service: 'translation', status: 400 });
        const page = await fresh.query(/* GraphQL */ `{ problems(first: 3) { nodes { id translation(to: "fr") { title } } } }`);
        expect(page.data.problems.nodes).toHaveLength(3);
        const codes = new Set(page.errors?.map((error) => error.extensions?.code));
        expect(codes.has('TEXT_TOO_LONG')).toBe(false);
        expect([...codes]).toEqual(['UPSTREAM_BAD_REQUEST']);
      } finally {
        stack.translation.clearFaults();
      }
    });
  }
});
