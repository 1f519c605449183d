import type { IncomingMessage, ServerResponse } from 'node:http';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CallSignal } from '../../src/gateway/upstream/call-signal.ts';
import { answerOf, createUpstreamFetch } from '../../src/gateway/upstream/upstream-fetch.ts';
import { listen, type RunningServer } from '../../src/shared/listen.ts';

/** The upstream fetch speaks fetch's language over undici's request(): what fetch did, it still does. */
describe('upstream fetch', () => {
  const seen: { path: string; method: string; authorization?: string; body: string; contentType?: string }[] = [];
  /** For each `/large` answer the connection closed under: whether it had been sent whole (never, here). */
  const closedLarge: boolean[] = [];
  let service: RunningServer;
  let elsewhere: RunningServer;
  const upstream = createUpstreamFetch();
  const fetch = upstream.fetch as unknown as (url: string, init?: RequestInit) => Promise<Response>;

  const answer = (request: IncomingMessage, response: ServerResponse, body: string) => {
    seen.push({ path: request.url ?? '', method: request.method ?? '', authorization: request.headers.authorization, body, contentType: request.headers['content-type'] });
    const json = JSON.stringify({ path: request.url });
    switch (request.url) {
      case '/moved':
        return response.writeHead(307, { location: '/here' }).end();
      case '/away':
        return response.writeHead(307, { location: `${elsewhere.url}/there` }).end();
      case '/see-other':
        return response.writeHead(303, { location: '/seen' }).end('{"ignored":true}');
      case '/found':
        return response.writeHead(302, { location: '/here' }).end();
      case '/loop':
        return response.writeHead(302, { location: '/loop' }).end();
      case '/gzip':
        return response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(gzipSync(json));
      case '/br':
        return response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'br' }).end(brotliCompressSync(json));
      case '/cookies':
        return response.writeHead(200, { 'set-cookie': ['a=1', 'b=2'] }).end(json);
      case '/empty':
        return response.writeHead(204).end();
      case '/broken':
        return response.writeHead(503, { 'retry-after': '1' }).end('{"error":"busy"}');
      case '/large':
        response.once('close', () => closedLarge.push(response.writableFinished));
        response.writeHead(200, { 'content-type': 'application/json', 'content-length': String(10 * 1024 * 1024) });
        response.write(`"${'x'.repeat(256 * 1024)}`);
        return;
      case '/cut':
        response.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
        response.write('{"path":');
        setTimeout(() => response.socket?.destroy(), 20);
        return;
      case '/stall':
        response.writeHead(200, { 'content-type': 'application/json' });
        response.write('{"path":');
        return;
      default:
        return response.writeHead(200, { 'content-type': 'application/json' }).end(json);
    }
  };
  const handler = (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => answer(request, response, Buffer.concat(chunks).toString()));
  };

  beforeAll(async () => {
    service = await listen(handler);
    elsewhere = await listen(handler);
  });
  afterAll(async () => {
    await upstream.close();
    await service?.close();
    await elsewhere?.close();
  });

  it('sends the method, headers and body, and answers a Response', async () => {
    seen.length = 0;
    const response = await fetch(`${service.url}/graphql`, { method: 'POST', headers: new Headers({ authorization: 'Bearer k' }), body: '{"query":"{a}"}' });
    expect(response).toBeInstanceOf(Response);
    expect([response.status, await response.json()]).toEqual([200, { path: '/graphql' }]);
    expect(seen).toEqual([{ path: '/graphql', method: 'POST', authorization: 'Bearer k', body: '{"query":"{a}"}', contentType: undefined }]);
  });

  it('follows a redirect on the same origin with its key, and to another origin without it', async () => {
    seen.length = 0;
    expect(await (await fetch(`${service.url}/moved`, { method: 'POST', headers: { authorization: 'Bearer k' }, body: 'x' })).json()).toEqual({ path: '/here' });
    expect(await (await fetch(`${service.url}/away`, { headers: { authorization: 'Bearer k' } })).json()).toEqual({ path: '/there' });
    expect(seen.map(({ path, authorization }) => [path, authorization])).toEqual([
      ['/moved', 'Bearer k'],
      ['/here', 'Bearer k'],
      ['/away', 'Bearer k'],
      ['/there', undefined],
    ]);
  });

  it("turns a POST into a GET without its body where fetch does (303, 301/302), and keeps a 307's", async () => {
    seen.length = 0;
    const post = { method: 'POST', headers: { authorization: 'Bearer k', 'content-type': 'application/json' }, body: '{"a":1}' };
    expect(await (await fetch(`${service.url}/see-other`, post)).json()).toEqual({ path: '/seen' });
    expect(await (await fetch(`${service.url}/found`, post)).json()).toEqual({ path: '/here' });
    expect(await (await fetch(`${service.url}/moved`, post)).json()).toEqual({ path: '/here' });
    expect(seen.map(({ path, method, body, contentType, authorization }) => [path, method, body, contentType, authorization])).toEqual([
      ['/see-other', 'POST', '{"a":1}', 'application/json', 'Bearer k'],
      ['/seen', 'GET', '', undefined, 'Bearer k'],
      ['/found', 'POST', '{"a":1}', 'application/json', 'Bearer k'],
      ['/here', 'GET', '', undefined, 'Bearer k'],
      ['/moved', 'POST', '{"a":1}', 'application/json', 'Bearer k'],
      ['/here', 'POST', '{"a":1}', 'application/json', 'Bearer k'],
    ]);
  });

  it('answers the redirect itself after five, so a loop ends as a failure', async () => {
    seen.length = 0;
    const response = await fetch(`${service.url}/loop`);
    expect([response.status, response.headers.get('location')]).toEqual([302, '/loop']);
    expect(seen).toHaveLength(6);
  });

  it.each(['gzip', 'br'])('decodes a %s answer and drops the headers of the encoded bytes', async (encoding) => {
    const response = await fetch(`${service.url}/${encoding}`);
    expect(await response.json()).toEqual({ path: `/${encoding}` });
    expect(response.headers.get('content-encoding')).toBeNull();
    expect(response.headers.get('content-length')).toBeNull();
  });

  it('keeps repeated headers, bodiless statuses and failures as they came', async () => {
    expect((await fetch(`${service.url}/cookies`)).headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    const empty = await fetch(`${service.url}/empty`);
    expect([empty.status, await empty.text()]).toEqual([204, '']);
    const broken = await fetch(`${service.url}/broken`);
    expect([broken.status, broken.headers.get('retry-after'), await broken.text()]).toEqual([503, '1', '{"error":"busy"}']);
  });

  it('stops reading a body that stalls when the signal aborts', async () => {
    const controller = new AbortController();
    const response = await fetch(`${service.url}/stall`, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('budget spent')), 50);
    await expect(response.text()).rejects.toThrow();
  });

  it("stops reading a body that stalls when the upstream steps' own signal aborts", async () => {
    const signal = new CallSignal();
    const answered = await upstream.answer(`${service.url}/stall`, { signal: signal as unknown as AbortSignal });
    setTimeout(() => signal.abort(new Error('budget spent')), 50);
    await expect(answered.text()).rejects.toThrow();
  });

  it('fails the read of a body cut off mid-way, or of one whose call was aborted before it was read, rather than wait', async () => {
    await expect((await upstream.answer(`${service.url}/cut`)).text()).rejects.toThrow();
    const signal = new CallSignal();
    const answered = await upstream.answer(`${service.url}/stall`, { signal: signal as unknown as AbortSignal });
    signal.abort(new Error('budget spent'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    await expect(answered.text()).rejects.toThrow('budget spent');
  });

  it('hands a fetch that is not its own a web AbortSignal, aborted with the call', async () => {
    let given: unknown;
    const foreign = (async (_url: string, init: RequestInit) => {
      given = init.signal;
      return new Response('{}');
    }) as unknown as Parameters<typeof answerOf>[0];
    const signal = new CallSignal();
    await answerOf(foreign, `${service.url}/plain`, { signal: signal as unknown as AbortSignal }, undefined, undefined);
    expect(given).toBeInstanceOf(AbortSignal);
    expect((given as AbortSignal).aborted).toBe(false);
    signal.abort(new Error('budget spent'));
    expect((given as AbortSignal).reason).toEqual(new Error('budget spent'));
  });

  it('fails, as fetch does, when nothing answers', async () => {
    const closed = await listen(handler);
    const url = closed.url;
    await closed.close();
    await expect(fetch(`${url}/graphql`)).rejects.toThrow();
  });

  it('answers the upstream steps without a web Response: read once, bounded while read, or dropped unread', async () => {
    const answered = await upstream.answer(`${service.url}/plain`);
    expect(answered).not.toBeInstanceOf(Response);
    expect(answered.header('Content-Type')).toBe('application/json');
    expect(JSON.parse(await answered.text())).toEqual({ path: '/plain' });
    expect(await answered.text()).toBe(await answered.text());

    const tooLarge = new Error('too large');
    const bounded = (await upstream.answer(`${service.url}/large`)).limitedTo(64 * 1024, () => tooLarge);
    await expect(bounded.text()).rejects.toBe(tooLarge);

    // Dropped unread: the transfer stops (the service sees its connection closed mid-answer), and
    // the stream's own abort error does not escape.
    // The bounded read stopped its transfer too; wait for it to close before watching the next.
    await expect.poll(() => closedLarge.length, { timeout: 2000 }).toBeGreaterThan(0);
    closedLarge.length = 0;
    const dropped = await upstream.answer(`${service.url}/large`);
    await dropped.cancel();
    await expect.poll(() => closedLarge, { timeout: 2000 }).toEqual([false]);
    expect(await dropped.text()).toBe('');
  });
});
