import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normalizedContentType } from '../../src/gateway/guards/content-type-case.ts';
import type { RequestLogEntry } from '../../src/gateway/observability/request-log.ts';
import { startStack, type Stack } from '../helpers/start-stack.ts';

/**
 * Media types and parameter names are case-insensitive (RFC 9110), and spaces around `;` are
 * allowed: a client that writes `Application/JSON` or `application/json ; charset=UTF-8` sends JSON.
 * yoga compared the header as written and answered such requests 415 (while the listener in front of
 * it, for a text already vetted, answered them 200).
 */
const KEY = 'content-type-suite-key';
const QUERY = 'query One($id: ID!) { problem(id: $id) { id } }';

describe('Content-Type in any case', () => {
  let stack: Stack;
  const logged: RequestLogEntry[] = [];
  beforeAll(async () => {
    stack = await startStack({ settings: { gatewayApiKeys: [KEY], responseCacheTtlSeconds: 0 }, requestLog: (entry) => logged.push(entry) });
  });
  afterAll(async () => {
    await stack?.close();
  });

  const init = (contentType: string, body: string, headers: Record<string, string> = {}): RequestInit => ({
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': contentType, ...headers },
    body,
  });

  // The front door's lane takes `application/json` (in any spelling) and leaves the rest to yoga.
  it.each([
    ['Application/JSON', 'direct'],
    ['APPLICATION/JSON; CHARSET=utf-8', 'direct'],
    ['application/json ; charset=UTF-8', 'direct'],
    ['application/json, text/plain', 'direct'],
    ['Application/GraphQL+JSON', undefined],
  ])('%s is JSON through yoga, in front of it, and for an app embedding the gateway', async (contentType, lane) => {
    // A text of its own per case, so its first request is the front door's first sight of it.
    const body = (id: string) => JSON.stringify({ query: `${QUERY} # ${contentType}`, variables: { id } });
    // When JSON, every request of the text through the lane in front of yoga, the first included.
    const answers: { status: number; json: unknown }[] = [];
    logged.length = 0;
    for (const id of ['p1001', 'p1002']) {
      const response = await fetch(stack.gatewayUrl, init(contentType, body(id)));
      answers.push({ status: response.status, json: await response.json() });
    }
    const embedded = await stack.gateway.fetch(new Request(stack.gatewayUrl, init(contentType, body('p1003'))));
    answers.push({ status: embedded.status, json: await embedded.json() });
    expect(answers).toEqual(['p1001', 'p1002', 'p1003'].map((id) => ({ status: 200, json: { data: { problem: { id } } } })));
    // Log lines are written once the answers are out: waited for, then read.
    await expect.poll(() => logged.length).toBe(3);
    // The app embedding the gateway (gateway.fetch) goes through the same front door.
    expect(logged.map((entry) => entry.lane)).toEqual([lane, lane, lane]);
  });

  it('a simple media type in capitals is still one a cross-site form can send: 403 without the CSRF header', async () => {
    const response = await fetch(stack.gatewayUrl, init('TEXT/PLAIN', JSON.stringify({ query: QUERY, variables: { id: 'p1001' } })));
    expect(response.status).toBe(403);
    expect(((await response.json()) as any).errors[0].extensions.code).toBe('CSRF_CHECK_FAILED');
  });

  it('a multipart boundary keeps its case', async () => {
    const boundary = 'AbC-xYz';
    const body = `--${boundary}\r\nContent-Disposition: form-data; name="operations"\r\n\r\n${JSON.stringify({ query: QUERY, variables: { id: 'p1004' } })}\r\n--${boundary}--\r\n`;
    const response = await fetch(stack.gatewayUrl, init(`Multipart/Form-Data; Boundary=${boundary}`, body, { 'x-graphql-yoga-csrf': '1' }));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ data: { problem: { id: 'p1004' } } });
  });

  it.each([
    ['Application/JSON', 'application/json'],
    ['application/json ; Charset = UTF-8', 'application/json;charset=UTF-8'],
    ['multipart/form-data; boundary=AbC', 'multipart/form-data;boundary=AbC'],
    ['application/json, text/plain', 'application/json'],
    ['text/plain;', 'text/plain'],
  ])('normalizes %s to %s', (given, expected) => {
    expect(normalizedContentType(given)).toBe(expected);
  });
});
