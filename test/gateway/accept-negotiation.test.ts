import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerMediaType } from '../../src/gateway/pipeline/front-door/media-type.ts';
import { sharedStack } from '../helpers/shared-stack.ts';
import type { Stack } from '../helpers/start-stack.ts';

const JSON_TYPE = 'application/json';
const SPEC_TYPE = 'application/graphql-response+json';

/**
 * The front door's Accept negotiation (GraphQL over HTTP, "Accept" and "Legacy watershed"): the
 * media type of a one-off result for each header clients send, or none when the client accepts
 * neither JSON type (the request is yoga's: a stream, multipart, or its 406).
 */
const NEGOTIATED: [string | undefined, string | undefined][] = [
  // No header, and what fetch, curl, Postman and most HTTP libraries send: the spec's legacy answer.
  [undefined, JSON_TYPE],
  ['', JSON_TYPE],
  ['*/*', JSON_TYPE],
  // GraphQL clients (Apollo Client, graphql-request, urql, Relay's examples, graphql-http's own).
  ['application/graphql-response+json, application/json;q=0.9', SPEC_TYPE],
  ['application/graphql-response+json, application/json', SPEC_TYPE],
  ['application/graphql-response+json, application/graphql+json, application/json, text/event-stream, multipart/mixed', SPEC_TYPE],
  ['multipart/mixed;deferSpec=20220824, application/graphql-response+json, application/json', SPEC_TYPE],
  ['application/json', JSON_TYPE],
  ['application/json; charset=utf-8', JSON_TYPE],
  ['application/graphql-response+json', SPEC_TYPE],
  ['application/graphql-response+json; charset=utf-8', SPEC_TYPE],
  ['application/json, text/plain, */*', JSON_TYPE],
  // Browsers opening the URL, and a browser's fetch.
  ['text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8', JSON_TYPE],
  ['text/html, application/json', JSON_TYPE],
  // Spelling: case, spaces, parameters, wildcards; the first acceptable type wins, whatever its q.
  ['Application/JSON', JSON_TYPE],
  ['application/json ; charset = UTF-8', JSON_TYPE],
  ['application/*', JSON_TYPE],
  ['*/json', JSON_TYPE],
  ['text/*', undefined],
  ['application/graphql-response+json;q=0, application/json', SPEC_TYPE],
  ['application/json;q=0.1, application/graphql-response+json;q=1', JSON_TYPE],
  // A charset other than UTF-8 is skipped.
  ['application/json; charset=iso-8859-1', undefined],
  ['application/json; charset=iso-8859-1, application/graphql-response+json', SPEC_TYPE],
  ['application/json;charset=utf-16, */*', JSON_TYPE],
  // Streams, other types, nothing acceptable, malformed.
  ['text/event-stream', undefined],
  ['multipart/mixed', undefined],
  ['text/event-stream, application/json', JSON_TYPE],
  ['application/json, text/event-stream', JSON_TYPE],
  ['text/plain', undefined],
  ['application/xml', undefined],
  ['application/graphql+json', undefined],
  [',', undefined],
  [';;', undefined],
  ['application', undefined],
  ['application/json,', JSON_TYPE],
];

describe('Accept negotiation of the front door', () => {
  it.each(NEGOTIATED)('Accept: %j answers in %j', (accept, mediaType) => {
    expect(answerMediaType(accept)).toBe(mediaType);
  });
});

describe('Accept negotiation, end to end', () => {
  let stack: Stack;
  let gateway: Awaited<ReturnType<Stack['addGateway']>>;
  const lanes = new Map<string, string | undefined>();
  beforeAll(async () => {
    stack = await sharedStack('open');
    gateway = await stack.addGateway({
      settings: { responseCacheTtlSeconds: 60, gatewayApiKeys: ['key-a'], rateLimitRequests: 100_000 },
      requestLog: (entry) => lanes.set(entry.requestId, entry.lane),
    });
  });
  afterAll(async () => {
    await stack?.close();
  });

  const body = JSON.stringify({ query: '{ problems(first: 2) { nodes { id title } } }' });
  const headersFor = (accept: string | undefined, requestId: string): Record<string, string> => ({
    'content-type': 'application/json',
    authorization: 'Bearer key-a',
    'x-request-id': requestId,
    ...(accept === undefined ? {} : { accept }),
  });

  it.each(NEGOTIATED.map(([accept, mediaType], index) => [accept, mediaType, index] as const))('Accept: %j', async (accept, mediaType, index) => {
    // The query is in the cache (a first request put it there), so the door may answer it.
    await (await fetch(gateway.gatewayUrl, { method: 'POST', headers: headersFor(undefined, `warm-${index}`), body })).text();
    const response = await fetch(gateway.gatewayUrl, { method: 'POST', headers: headersFor(accept, `asked-${index}`), body });
    const text = await response.text();
    await expect.poll(() => lanes.has(`asked-${index}`)).toBe(true);
    if (mediaType) {
      // Answered by the door from the cache, in the media type negotiated.
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe(`${mediaType}; charset=utf-8`);
      expect(JSON.parse(text)).toMatchObject({ data: { problems: { nodes: [{ id: expect.any(String) }, { id: expect.any(String) }] } } });
      expect(lanes.get(`asked-${index}`)).toBe('cache');
    } else {
      // Yoga's: a stream it delivers, or its 406 when nothing it speaks is acceptable.
      expect(lanes.get(`asked-${index}`)).toBeUndefined();
      expect(response.headers.get('content-type') ?? '').not.toMatch(/^application\/(graphql-response\+)?json/);
    }
  });
});
