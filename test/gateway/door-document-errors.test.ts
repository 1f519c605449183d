import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { yogaAloneOf } from '../../src/gateway/composition/engine-serving.ts';
import { sharedStack } from '../helpers/shared-stack.ts';
import type { Stack } from '../helpers/start-stack.ts';

/**
 * A document that does not parse or validate is answered by the front door with the engine's own
 * errors, as yoga answers it: the same status, headers and bytes as yoga alone (behind no door)
 * gives, over POST and GET, in each media type, alone and as a batch's member, in development and
 * in production (where suggestions of names are masked). Documents whose errors depend on the
 * request (no operation to run, a mutation by GET) stay yoga's, and are compared too, as are an
 * empty query string and a parameter yoga does not know (yoga's words, not the door's).
 */
const GOOD = '{ problems(first: 1) { nodes { id } } }';
const BAD_DOCUMENTS = [
  '{ problems(first: 1) { nodes { id } }',
  '',
  '{ nope }',
  '{ problems(first: 1) { nodes { idd } } }',
  '{ problem { id } }',
  'query Q { problem(id: $id) { id } }',
  'query A { problems(first: 1) { nodes { id } } } query A { tags }',
  'query A { tags } query B { tags }',
  'mutation { anything }',
  `{ ${Array.from({ length: 20 }, (_, index) => `a${index}: tags`).join(' ')} }`,
  `{ problems(first: 1) { nodes { ${'id '.repeat(2100)} } } }`,
  '{ __schema { nope } }',
  'query Q($id: ID!) { problem(id: $id) { nope } }',
];
const ACCEPTS = [undefined, 'application/graphql-response+json', 'application/json', '*/*'];
/** Headers that differ between any two answers whatever served them. */
const PER_ANSWER = new Set(['date', 'x-request-id', 'connection', 'keep-alive', 'transfer-encoding']);

describe('a document that does not parse or validate, answered at the door as yoga answers it', () => {
  let stack: Stack;
  beforeAll(async () => {
    // Only gateways of its own are asked: the worker's shared stand-ins serve.
    stack = await sharedStack('open');
  });
  afterAll(async () => {
    await stack?.close();
  });

  const seen = async (response: Response) => {
    const headers = [...response.headers].map(([name, value]) => [name.toLowerCase(), value]).filter(([name]) => !PER_ANSWER.has(name)).sort(([a], [b]) => a.localeCompare(b));
    return `${response.status} ${JSON.stringify(headers)} ${await response.text()}`;
  };

  it.each([
    ['development', false],
    ['production', true],
  ])('in %s: the same status, headers and bytes as yoga alone', async (_name, production) => {
    const target = await stack.addGateway({ settings: { production, responseCacheTtlSeconds: 0, rateLimitRequests: 1_000_000 } });
    const yoga = yogaAloneOf(target.gateway);
    const differences: string[] = [];
    const compare = async (label: string, url: string, init: RequestInit) => {
      // Twice through the door: its first time (planned now) and the next (planned before).
      for (const time of ['first', 'next']) {
        const [viaDoor, viaYoga] = [await seen(await fetch(url, init)), await seen(await yoga.fetch(new Request(url, init)))];
        if (viaDoor !== viaYoga) differences.push(`${label} (${time})\n  door ${viaDoor.slice(0, 500)}\n  yoga ${viaYoga.slice(0, 500)}`);
      }
    };
    for (const query of BAD_DOCUMENTS) {
      for (const accept of ACCEPTS) {
        const headers: Record<string, string> = { 'content-type': 'application/json', ...(accept ? { accept } : {}) };
        await compare(`POST ${query.slice(0, 60)} accept=${accept}`, target.gatewayUrl, { method: 'POST', headers, body: JSON.stringify({ query, variables: { id: 'p1001' } }) });
        await compare(`GET ${query.slice(0, 60)} accept=${accept}`, `${target.gatewayUrl}?${new URLSearchParams({ query })}`, { headers: accept ? { accept } : {} });
      }
      // A parameter yoga does not know is yoga's to refuse, whatever the document.
      await compare(`POST ${query.slice(0, 60)} with a parameter yoga does not know`, target.gatewayUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query, unknown: 1 }) });
      const batch = JSON.stringify([{ query }, { query: GOOD }, { query: `${query} ` }]);
      await compare(`batch with ${query.slice(0, 60)}`, target.gatewayUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: batch });
    }
    expect(differences).toEqual([]);
  }, 120_000);
});
