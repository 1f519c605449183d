import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RequestLogEntry } from '../../src/gateway/observability/request-log.ts';
import { sharedStack } from '../helpers/shared-stack.ts';
import { withTranslationDown, withoutAddress } from '../helpers/translation-down.ts';
import type { Stack } from '../helpers/start-stack.ts';

const BY_ID = /* GraphQL */ `query ById($id: ID!) { problem(id: $id) { id title rating } }`;
const PAGE = /* GraphQL */ `query Page($first: Int) { problems(first: $first) { nodes { id } } }`;

type Added = Awaited<ReturnType<Stack['addGateway']>>;

/**
 * The direct lane: the listener plans a text the first time it is asked (parsed and validated by the
 * engine's own checks) and forwards every request of a text the problems service answers whole
 * itself, the first as the next. Its answers must be yoga's, and
 * nothing yoga checks per request may be skipped: keys, budgets, the limits that depend on
 * variables, coercion, trusted documents, the response cache's rules, the log.
 */
describe('the direct lane in front of yoga', () => {
  let stack: Stack;
  let gateway: Added;
  const logged: RequestLogEntry[] = [];
  const headers = (key = 'key-a', extra: Record<string, string> = {}) => ({ 'content-type': 'application/json', authorization: `Bearer ${key}`, ...extra });
  const post = (target: Added, query: string, variables?: Record<string, unknown>, extra: { key?: string; headers?: Record<string, string>; operationName?: string } = {}) =>
    fetch(target.gatewayUrl, {
      method: 'POST',
      headers: headers(extra.key, extra.headers),
      body: JSON.stringify({ query, variables, operationName: extra.operationName }),
    });
  /** The same request through the gateway's fetch handler: the same front door as the listener, another transport. */
  const viaYoga = (target: Added, query: string, variables?: Record<string, unknown>, extra: Record<string, string> = {}) =>
    target.gateway.fetch(new Request(target.gatewayUrl, { method: 'POST', headers: headers('key-a', extra), body: JSON.stringify({ query, variables }) }));
  const lastLane = async () => {
    await new Promise((resolve) => setTimeout(resolve, 10));
    return logged.at(-1)?.lane;
  };

  beforeAll(async () => {
    stack = await sharedStack('open');
    gateway = await stack.addGateway({
      settings: { gatewayApiKeys: ['key-a', 'key-b'], problemsCacheTtlSeconds: 0 },
      requestLog: (entry) => logged.push(entry),
    });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it.each([[undefined], ['*/*'], ['application/json'], ['application/graphql-response+json']])(
    'answers a vetted text as yoga does, byte for byte and header for header (Accept: %s)',
    async (accept) => {
      const extra: Record<string, string> = accept === undefined ? {} : { accept };
      await (await post(gateway, BY_ID, { id: 'p1001' }, { headers: extra })).text();
      const before = stack.problems.stats.requests;
      const direct = await post(gateway, BY_ID, { id: 'p1002' }, { headers: extra });
      const directText = await direct.text();
      expect(await lastLane()).toBe('direct');
      expect(stack.problems.stats.requests).toBe(before + 1);
      const yoga = await viaYoga(gateway, BY_ID, { id: 'p1002' }, extra);
      expect(directText).toBe(await yoga.text());
      expect(direct.status).toBe(yoga.status);
      for (const header of ['content-type', 'content-length', 'etag', 'cache-control', 'vary']) expect(direct.headers.get(header), header).toBe(yoga.headers.get(header));
      expect(direct.headers.get('x-request-id')).toMatch(/^[\w-]+$/);
    },
  );

  it('logs a direct answer as yoga would, under the client’s request id, and counts it in the metrics', async () => {
    await (await post(gateway, BY_ID, { id: 'p1003' })).text();
    logged.length = 0;
    const response = await post(gateway, BY_ID, { id: 'p1004' }, { headers: { 'x-request-id': 'direct-1' } });
    expect(response.headers.get('x-request-id')).toBe('direct-1');
    await response.text();
    await vi.waitFor(() => expect(logged).toHaveLength(1));
    expect(logged[0]).toMatchObject({
      requestId: 'direct-1',
      operation: 'ById',
      operationType: 'query',
      upstreamCalls: { problems: 1, translation: 0 },
      outcome: 'ok',
      status: 200,
      errors: 0,
      lane: 'direct',
    });
    const metrics = await (await fetch(gateway.gatewayUrl.replace('/graphql', '/metrics'))).text();
    expect(metrics).toMatch(/gateway_requests_total\{operation="ById",outcome="ok"\} \d+/);
    expect(metrics).toMatch(/gateway_upstream_requests_total\{service="problems",[^}]*\} \d+/);
  });

  it('keeps the key check: no key or a wrong key is 401 from yoga, with no upstream call', async () => {
    await (await post(gateway, BY_ID, { id: 'p1005' })).text();
    const before = stack.problems.stats.requests;
    const wrong = await post(gateway, BY_ID, { id: 'p1006' }, { key: 'key-z' });
    expect(wrong.status).toBe(401);
    const none = await fetch(gateway.gatewayUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: BY_ID, variables: { id: 'p1006' } }) });
    expect(none.status).toBe(401);
    expect(stack.problems.stats.requests).toBe(before);
    const other = await post(gateway, BY_ID, { id: 'p1006' }, { key: 'key-b' });
    expect(other.status).toBe(200);
    expect(await lastLane()).toBe('direct');
  });

  it('checks the limits that depend on variables again, with the same guards as yoga: a page too large is the same 400, before any call', async () => {
    await (await post(gateway, PAGE, { first: 2 })).text();
    const before = stack.problems.stats.requests;
    const tooLarge = await post(gateway, PAGE, { first: 1000 });
    const text = await tooLarge.text();
    const body = JSON.parse(text) as { errors: { extensions: Record<string, unknown> }[] };
    expect(tooLarge.status).toBe(400);
    expect(body.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', argument: 'first', limit: 100, actual: 1000 });
    expect(await lastLane()).toBe('direct');
    const yoga = await viaYoga(gateway, PAGE, { first: 1000 });
    expect(yoga.status).toBe(400);
    expect(await yoga.text()).toBe(text);
    expect(stack.problems.stats.requests).toBe(before);
  });

  it('leaves variables that do not coerce, or nest too deep, to yoga, which words the error', async () => {
    await (await post(gateway, PAGE, { first: 3 })).text();
    const before = stack.problems.stats.requests;
    const notAnInt = await post(gateway, PAGE, { first: 'three' });
    const yoga = await viaYoga(gateway, PAGE, { first: 'three' });
    expect(await notAnInt.text()).toBe(await yoga.text());
    expect(notAnInt.status).toBe(yoga.status);
    expect(await lastLane()).toBeUndefined();
    let deep: unknown = 1;
    for (let level = 0; level < 30; level += 1) deep = { a: deep };
    const tooDeep = await post(gateway, PAGE, { first: 3, extra: deep });
    expect(tooDeep.status).toBe(400);
    expect(await lastLane()).toBeUndefined();
    expect(stack.problems.stats.requests).toBe(before);
  });

  it('spends the requests budget once per request, whichever way it is answered', async () => {
    const limited = await stack.addGateway({ settings: { gatewayApiKeys: ['key-a'], rateLimitRequests: 4 } });
    const statuses: number[] = [];
    for (const first of [2, 1000, 3, 4, 5]) {
      const response = await post(limited, PAGE, { first });
      await response.text();
      statuses.push(response.status);
    }
    // Vetted, refused by a limit (counted by yoga only), two direct answers, then over the budget.
    expect(statuses).toEqual([200, 400, 200, 200, 429]);
  });

  it('tells the operations of one text apart: each name is planned on its own, the first request of it as the next', async () => {
    const twoOperations = `${BY_ID} query Other($id: ID!) { problem(id: $id) { id slug } }`;
    const byId = await post(gateway, twoOperations, { id: 'p1007' }, { operationName: 'ById' });
    expect(((await byId.json()) as { data: unknown }).data).toEqual({ problem: { id: 'p1007', title: expect.any(String), rating: expect.any(Number) } });
    expect(await lastLane()).toBe('direct');
    await (await post(gateway, twoOperations, { id: 'p1008' }, { operationName: 'Other' })).text();
    expect(await lastLane()).toBe('direct');
    const other = await post(gateway, twoOperations, { id: 'p1009' }, { operationName: 'Other' });
    expect(((await other.json()) as { data: unknown }).data).toEqual({ problem: { id: 'p1009', slug: expect.any(String) } });
    expect(await lastLane()).toBe('direct');
    // No name is not the name "": yoga finds no operation called "".
    const unnamed = await post(gateway, twoOperations, { id: 'p1009' }, { operationName: '' });
    expect(unnamed.status).not.toBe(200);
    expect(await lastLane()).toBeUndefined();
  });

  it('keeps what it answers in the response cache, under the caller’s key: the next identical request is a hit, with ETag and 304', async () => {
    const cached = await stack.addGateway({
      settings: { gatewayApiKeys: ['key-a', 'key-b'], responseCacheTtlSeconds: 30, problemsCacheTtlSeconds: 0 },
      requestLog: (entry) => logged.push(entry),
    });
    await (await post(cached, BY_ID, { id: 'p1010' })).text();
    const direct = await post(cached, BY_ID, { id: 'p1011' });
    const text = await direct.text();
    expect(await lastLane()).toBe('direct');
    const etag = direct.headers.get('etag');
    expect(etag).toMatch(/^".+"$/);
    expect(direct.headers.get('cache-control')).toBe('private, max-age=30');
    const before = stack.problems.stats.requests;
    const hit = await post(cached, BY_ID, { id: 'p1011' });
    expect(await hit.text()).toBe(text);
    expect(await lastLane()).toBe('cache');
    const notModified = await post(cached, BY_ID, { id: 'p1011' }, { headers: { 'if-none-match': etag! } });
    expect(notModified.status).toBe(304);
    expect(stack.problems.stats.requests).toBe(before);
    // Another credential never shares the entry.
    await (await post(cached, BY_ID, { id: 'p1011' }, { key: 'key-b' })).text();
    expect(stack.problems.stats.requests).toBe(before + 1);
  });

  it('forwards nothing yoga has not let through: with trusted documents, only their texts', async () => {
    const manifest = join(mkdtempSync(join(tmpdir(), 'direct-lane-')), 'manifest.json');
    writeFileSync(manifest, JSON.stringify({ trusted: BY_ID }));
    const trusted = await stack.addGateway({ settings: { gatewayApiKeys: ['key-a'], trustedDocuments: manifest }, requestLog: (entry) => logged.push(entry) });
    const untrusted = /* GraphQL */ `query ($id: ID!) { problem(id: $id) { id } }`;
    for (const id of ['p1012', 'p1013']) {
      const refused = await post(trusted, untrusted, { id });
      expect(refused.status).toBe(400);
      expect(await lastLane()).toBeUndefined();
    }
    const first = await post(trusted, BY_ID, { id: 'p1012' });
    expect(first.status).toBe(200);
    expect(await lastLane()).toBe('direct');
    const direct = await post(trusted, BY_ID, { id: 'p1013' });
    expect(direct.status).toBe(200);
    expect(await lastLane()).toBe('direct');
  });

  it.each([
    ['any origin (CORS_ORIGINS=*)', '*' as const, 'https://app.example'],
    ['a listed origin', ['https://app.example', 'https://admin.example'], 'https://admin.example'],
    ['an origin not listed', ['https://app.example', 'https://admin.example'], 'https://evil.example'],
    ['the only origin listed, asked from another', ['https://app.example'], 'https://evil.example'],
  ])('answers a browser’s request, from %s, with the CORS headers yoga adds: direct, then from the cache', async (_name, corsOrigins, origin) => {
    const browser = await stack.addGateway({
      settings: { gatewayApiKeys: ['key-a'], corsOrigins, responseCacheTtlSeconds: 30, problemsCacheTtlSeconds: 0 },
      requestLog: (entry) => logged.push(entry),
    });
    const fromPage = { origin, 'x-request-id': 'from-page' };
    // Everything but what differs between any two responses (date, connection).
    const headersOf = (response: Response) => Object.fromEntries([...response.headers].filter(([name]) => !['date', 'connection', 'keep-alive'].includes(name)));
    await (await post(browser, BY_ID, { id: 'p1016' }, { headers: fromPage })).text();
    for (const lane of ['direct', 'cache']) {
      const answered = await post(browser, BY_ID, { id: 'p1017' }, { headers: fromPage });
      const text = await answered.text();
      expect(await lastLane()).toBe(lane);
      const yoga = await viaYoga(browser, BY_ID, { id: 'p1017' }, fromPage);
      expect(text).toBe(await yoga.text());
      expect(headersOf(answered)).toEqual(headersOf(yoga));
    }
    // A revalidation: 304, with the same CORS headers as yoga's 304.
    const etag = (await post(browser, BY_ID, { id: 'p1017' }, { headers: fromPage })).headers.get('etag')!;
    const notModified = await post(browser, BY_ID, { id: 'p1017' }, { headers: { ...fromPage, 'if-none-match': etag } });
    expect(notModified.status).toBe(304);
    expect(await lastLane()).toBe('cache');
    const yogaNotModified = await viaYoga(browser, BY_ID, { id: 'p1017' }, { ...fromPage, 'if-none-match': etag });
    expect(yogaNotModified.status).toBe(304);
    // Without the content headers: yoga's 304 keeps its 200's, the listener's leaves them out, as
    // HTTP allows either way (RFC 9110 §15.4.5).
    const withoutContent = (response: Response) => Object.fromEntries(Object.entries(headersOf(response)).filter(([name]) => !name.startsWith('content-')));
    expect(withoutContent(notModified)).toEqual(withoutContent(yogaNotModified));
    expect(Object.keys(headersOf(notModified))).toContain('access-control-allow-origin');
  });

  describe('operations with links (a page in the reader’s language)', () => {
    const LINKED = /* GraphQL */ `query Read($first: Int, $to: String!) { problems(first: $first) { nodes { id translation(to: $to) { title language } } } }`;
    const translateCalls = () => stack.translation.stats.byRoute['POST /translate'] ?? 0;

    it('completes the links itself: one problems call, a cold page in one translation call, the same bytes as yoga, logged with its calls', async () => {
      await (await post(gateway, LINKED, { first: 3, to: 'es' })).text();
      const problemsBefore = stack.problems.stats.requests;
      const translateBefore = translateCalls();
      logged.length = 0;
      const cold = await post(gateway, LINKED, { first: 3, to: 'pt' });
      const coldText = await cold.text();
      expect(await lastLane()).toBe('direct');
      expect(stack.problems.stats.requests).toBe(problemsBefore + 1);
      expect(translateCalls()).toBe(translateBefore + 1);
      expect(logged[0]).toMatchObject({ operation: 'Read', upstreamCalls: { problems: 1, translation: 1 }, outcome: 'ok', errors: 0, lane: 'direct' });
      expect(JSON.parse(coldText).data.problems.nodes[0].translation.language).toBe('pt');
      // A GET of the same text is the lane's too.
      const url = `${gateway.gatewayUrl}?query=${encodeURIComponent(LINKED)}&variables=${encodeURIComponent(JSON.stringify({ first: 3, to: 'pt' }))}`;
      const viaGet = await fetch(url, { headers: { authorization: 'Bearer key-a' } });
      expect(await viaGet.text()).toBe(coldText);
      expect(await lastLane()).toBe('direct');
      // Warm now: through yoga, the same answer with no translation call.
      const yoga = await viaYoga(gateway, LINKED, { first: 3, to: 'pt' });
      expect(await yoga.text()).toBe(coldText);
      expect(translateCalls()).toBe(translateBefore + 1);
    });

    it('a translation service that fails costs the links, as through yoga: the same answer, the problems still there', async () => {
      await (await post(gateway, LINKED, { first: 2, to: 'es' })).text();
      stack.translation.setFaults({ status: 503, routes: ['POST /translate'] });
      try {
        logged.length = 0;
        const direct = await post(gateway, LINKED, { first: 2, to: 'fr' });
        const directText = await direct.text();
        expect(await lastLane()).toBe('direct');
        // Failures are not cached: yoga meets the same failure.
        const yoga = await viaYoga(gateway, LINKED, { first: 2, to: 'fr' });
        expect(directText).toBe(await yoga.text());
        expect(direct.status).toBe(yoga.status);
        const answer = JSON.parse(directText);
        expect(answer.data.problems.nodes.map((node: { id: string }) => node.id)).toHaveLength(2);
        expect(answer.errors[0].extensions.code).toBe('UPSTREAM_ERROR');
        expect(logged[0]).toMatchObject({ lane: 'direct', outcome: 'error' });
      } finally {
        stack.translation.clearFaults();
      }
    });

    it('in production, an unreachable translation service is UPSTREAM_UNAVAILABLE through yoga and through the lane alike, never "Unexpected error.", and its cause is logged either way', async () => {
      // Mesh reads NODE_ENV itself: outside production it rewrites such errors, which hid this.
      await withTranslationDown(stack, { gatewayApiKeys: ['key-a'] }, async (down, lines) => {
        const answers: string[] = [];
        // Each logs the failure's cause once, as Mesh does: through yoga, and through the lane alike.
        const causes: string[][] = [];
        for (const to of ['es', 'fr']) {
          answers.push(await (await post(down, LINKED, { first: 1, to })).text());
          causes.push(lines.splice(0));
        }
        answers.push(await (await viaYoga(down, LINKED, { first: 1, to: 'de' })).text());
        causes.push(lines.splice(0));
        expect(causes.map((each) => each.map(withoutAddress))).toEqual([
          ['mesh: connect ECONNREFUSED ADDRESS'],
          ['mesh: connect ECONNREFUSED ADDRESS'],
          ['mesh: connect ECONNREFUSED ADDRESS'],
        ]);
        for (const answer of answers) {
          const { errors } = JSON.parse(answer) as { errors: { message: string; extensions: { code: string } }[] };
          expect(errors[0]).toMatchObject({ message: 'The translation service could not be reached.', extensions: { code: 'UPSTREAM_UNAVAILABLE' } });
        }
        // Through yoga (the text's first time), the lane, and yoga again: the same bytes.
        expect(answers[1]).toBe(answers[0]);
        expect(answers[2]).toBe(answers[0]);
      });
    });

    it('a language argument that is no language tag is yoga’s 400, before any call', async () => {
      await (await post(gateway, LINKED, { first: 2, to: 'es' })).text();
      const problemsBefore = stack.problems.stats.requests;
      const refused = await post(gateway, LINKED, { first: 2, to: 'not a tag!' });
      const yoga = await viaYoga(gateway, LINKED, { first: 2, to: 'not a tag!' });
      expect(refused.status).toBe(400);
      expect(await refused.text()).toBe(await yoga.text());
      // Refused by the translation arguments guard on the straight path, through either transport.
      await lastLane();
      expect(logged.slice(-2).map((entry) => entry.lane)).toEqual(['direct', 'direct']);
      expect(stack.problems.stats.requests).toBe(problemsBefore);
    });

    it('spends the translation budget as yoga does: past it, the same 429 with Retry-After, and no call', async () => {
      const limitedLog: RequestLogEntry[] = [];
      const limited = await stack.addGateway({
        settings: { gatewayApiKeys: ['key-a'], translationRateLimitRequests: 2, problemsCacheTtlSeconds: 0, responseCacheTtlSeconds: 0 },
        requestLog: (entry) => limitedLog.push(entry),
      });
      const answers: { status: number; text: string; retryAfter: string | null }[] = [];
      for (const to of ['es', 'de', 'fr']) {
        const response = await post(limited, LINKED, { first: 1, to });
        answers.push({ status: response.status, text: await response.text(), retryAfter: response.headers.get('retry-after') });
      }
      const problemsBefore = stack.problems.stats.requests;
      const overDirect = await post(limited, LINKED, { first: 1, to: 'it' });
      const overDirectText = await overDirect.text();
      expect(stack.problems.stats.requests).toBe(problemsBefore);
      // Yoga's own answer past the budget, for comparison.
      const overYoga = await viaYoga(limited, LINKED, { first: 1, to: 'it' });
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 429]);
      // Every request of the text on the straight path, the first as the next: two links answered,
      // then refusals; gateway.fetch's refusal last, on the same path.
      await vi.waitFor(() => expect(limitedLog).toHaveLength(5));
      expect(limitedLog.map((entry) => [entry.lane, entry.status])).toEqual([['direct', 200], ['direct', 200], ['direct', 429], ['direct', 429], ['direct', 429]]);
      expect(overDirect.status).toBe(429);
      expect(overDirect.headers.get('retry-after')).toMatch(/^\d+$/);
      // The seconds left may tick over between two refusals, so the wait is compared apart from the rest.
      const withoutWait = (text: string) => text.replace(/retry in \d+ s/, 'retry in N s').replace(/"retryAfter":\d+/, '"retryAfter":N');
      expect(withoutWait(overDirectText)).toBe(withoutWait(await overYoga.text()));
      expect(withoutWait(overDirectText)).toBe(withoutWait(answers[2].text));
      expect(withoutWait(overDirectText)).not.toBe(overDirectText);
      expect(Number(overDirect.headers.get('retry-after'))).toBeLessThanOrEqual(Number(answers[2].retryAfter));
      expect(JSON.parse(overDirectText).errors[0].extensions.code).toBe('RATE_LIMITED');
    });
  });

  it('answers a GET of a vetted text directly too', async () => {
    const url = (id: string) => `${gateway.gatewayUrl}?query=${encodeURIComponent(BY_ID)}&variables=${encodeURIComponent(JSON.stringify({ id }))}`;
    await (await fetch(url('p1014'), { headers: { authorization: 'Bearer key-a' } })).text();
    const direct = await fetch(url('p1015'), { headers: { authorization: 'Bearer key-a' } });
    expect(((await direct.json()) as { data: { problem: { id: string } } }).data.problem.id).toBe('p1015');
    expect(await lastLane()).toBe('direct');
  });
});
