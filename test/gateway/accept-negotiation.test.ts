import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerMediaType } from '../../src/gateway/pipeline/front-door/media-type.ts';
import { startStack, type Stack } from '../helpers/start-stack.ts';

/**
 * The node:http adapter answers a repeated query itself only in the media type yoga would choose
 * (answerMediaType, a copy of yoga's Accept negotiation, which yoga does not export). Differential:
 * for each Accept header clients send, the same cached query through the listener and through
 * yoga alone (`gateway.fetch`) gives the same status, content type and body, and the adapter
 * answered exactly the requests whose media type yoga answers in JSON.
 */
const ACCEPT_HEADERS: (string | undefined)[] = [
  // No header, and what fetch, curl, Postman and most HTTP libraries send.
  undefined,
  '',
  '*/*',
  // GraphQL clients (Apollo Client, graphql-request, urql, Relay's examples, graphql-http's own).
  'application/graphql-response+json, application/json;q=0.9',
  'application/graphql-response+json, application/json',
  'application/graphql-response+json, application/graphql+json, application/json, text/event-stream, multipart/mixed',
  'multipart/mixed;deferSpec=20220824, application/graphql-response+json, application/json',
  'application/json',
  'application/json; charset=utf-8',
  'application/graphql-response+json',
  'application/graphql-response+json; charset=utf-8',
  'application/json, text/plain, */*',
  // Browsers opening the URL, and a browser's fetch.
  'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8',
  'text/html, application/json',
  // Spelling: case, spaces, parameters, wildcards.
  'Application/JSON',
  'application/json ; charset = UTF-8',
  'application/*',
  '*/json',
  'text/*',
  'application/graphql-response+json;q=0, application/json',
  'application/json;q=0.1, application/graphql-response+json;q=1',
  // Charsets yoga skips.
  'application/json; charset=iso-8859-1',
  'application/json; charset=iso-8859-1, application/graphql-response+json',
  'application/json;charset=utf-16, */*',
  // Streams, other types, nothing acceptable, malformed.
  'text/event-stream',
  'multipart/mixed',
  'text/event-stream, application/json',
  'application/json, text/event-stream',
  'text/plain',
  'application/xml',
  'application/graphql+json',
  ',',
  ';;',
  'application',
  'application/json,',
];

describe('Accept negotiation: the node:http adapter and yoga agree', () => {
  let stack: Stack;
  let gateway: Awaited<ReturnType<Stack['addGateway']>>;
  const lanes = new Map<string, string | undefined>();
  beforeAll(async () => {
    stack = await startStack();
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
  const answered = { adapter: 0, yoga: 0 };

  it.each(ACCEPT_HEADERS.map((accept, index) => [accept, index] as const))('Accept: %j', async (accept, index) => {
    // The query is in the cache (a first request put it there), so the adapter may answer it.
    await (await gateway.gateway.fetch(new Request(gateway.gatewayUrl, { method: 'POST', headers: headersFor(undefined, `warm-${index}`), body }))).text();
    const viaListener = await fetch(gateway.gatewayUrl, { method: 'POST', headers: headersFor(accept, `listener-${index}`), body });
    const viaYoga = await gateway.gateway.fetch(new Request(gateway.gatewayUrl, { method: 'POST', headers: headersFor(accept, `yoga-${index}`), body }));
    const [listenerText, yogaText] = await Promise.all([viaListener.text(), viaYoga.text()]);
    expect(viaListener.status).toBe(viaYoga.status);
    expect(viaListener.headers.get('content-type')).toBe(viaYoga.headers.get('content-type'));
    expect(listenerText).toBe(yogaText);

    // The adapter answered it itself exactly when yoga answers in JSON, in that media type.
    await expect.poll(() => lanes.has(`listener-${index}`)).toBe(true);
    const yogaType = viaYoga.status === 200 ? viaYoga.headers.get('content-type')?.split(';')[0] : undefined;
    const json = yogaType === 'application/json' || yogaType === 'application/graphql-response+json' ? yogaType : undefined;
    expect(answerMediaType(accept)).toBe(json);
    expect(lanes.get(`listener-${index}`)).toBe(json ? 'cache' : undefined);
    answered[json ? 'adapter' : 'yoga'] += 1;
  });

  it('took both ways: some headers answered by the adapter, some handed to yoga', () => {
    expect(answered.adapter).toBeGreaterThan(5);
    expect(answered.yoga).toBeGreaterThan(5);
    expect(answered.adapter + answered.yoga).toBe(ACCEPT_HEADERS.length);
  });
});
