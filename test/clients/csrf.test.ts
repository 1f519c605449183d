import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHARED_CLIENT_KEY, sharedStack } from '../helpers/shared-stack.ts';
import type { Stack } from '../helpers/start-stack.ts';

/**
 * What the CSRF check refuses, and why: only requests a cross-site page can make a browser send
 * without a preflight, and only those that could do something. Keys are required, as in production.
 */
const KEY = SHARED_CLIENT_KEY;
const QUERY = '{ problem(id: "p1001") { id } }';

describe('CSRF check', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await sharedStack('keyed');
  });
  afterAll(async () => {
    await stack?.close();
  });

  const get = (query: string, headers: Record<string, string> = {}) =>
    fetch(`${stack.gatewayUrl}?query=${encodeURIComponent(query)}`, { headers: { authorization: `Bearer ${KEY}`, ...headers } });
  const post = (body: BodyInit, contentType: string | undefined, headers: Record<string, string> = {}) =>
    fetch(stack.gatewayUrl, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, ...(contentType ? { 'content-type': contentType } : {}), ...headers },
      body,
    });
  const codeOf = async (response: Response) => ((await response.json()) as any).errors?.[0]?.extensions?.code;

  it('a GET query with no CSRF header is answered (urql and graphql-request send these by default)', async () => {
    const response = await get(QUERY);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ data: { problem: { id: 'p1001' } } });
  });

  it('a GET without the key is still 401: a cross-site page cannot attach a Bearer header', async () => {
    const response = await fetch(`${stack.gatewayUrl}?query=${encodeURIComponent(QUERY)}`);
    expect([response.status, await codeOf(response)]).toEqual([401, 'UNAUTHENTICATED']);
  });

  it('a mutation over GET is refused with 405, CSRF header or not', async () => {
    const response = await get('mutation { __typename }');
    expect([response.status, await codeOf(response)]).toEqual([405, 'BAD_REQUEST']);
  });

  it.each([
    ['text/plain', 'text/plain;charset=UTF-8', JSON.stringify({ query: QUERY })],
    ['a form', 'application/x-www-form-urlencoded', `query=${encodeURIComponent(QUERY)}`],
    ['multipart', 'multipart/form-data; boundary=x', `--x\r\nContent-Disposition: form-data; name="operations"\r\n\r\n${JSON.stringify({ query: QUERY })}\r\n--x--\r\n`],
    ['no content type', undefined, JSON.stringify({ query: QUERY })],
  ])('a POST of %s without a CSRF header: 403 CSRF_CHECK_FAILED', async (_name, contentType, body) => {
    const response = await post(body, contentType);
    expect([response.status, await codeOf(response)]).toEqual([403, 'CSRF_CHECK_FAILED']);
  });

  it.each([
    ['a form', 'application/x-www-form-urlencoded', `query=${encodeURIComponent(QUERY)}`],
    ['multipart', 'multipart/form-data; boundary=x', `--x\r\nContent-Disposition: form-data; name="operations"\r\n\r\n${JSON.stringify({ query: QUERY })}\r\n--x--\r\n`],
    ['a GraphQL document', 'application/graphql', QUERY],
    ['graphql+json', 'application/graphql+json', JSON.stringify({ query: QUERY })],
  ])('a POST of %s with the CSRF header is parsed and answered', async (_name, contentType, body) => {
    const response = await post(body, contentType, { 'x-graphql-yoga-csrf': '1' });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ data: { problem: { id: 'p1001' } } });
  });

  it('a JSON POST needs no header (a browser preflights it)', async () => {
    const response = await post(JSON.stringify({ query: QUERY }), 'application/json');
    expect(response.status).toBe(200);
  });
});
