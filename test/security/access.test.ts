import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryRateLimitStore } from '../../src/gateway/guards/rate-limit-store.ts';
import { postGraphQL, startStack, type Stack } from '../helpers/start-stack.ts';

describe('access: gateway keys, rate limits, CORS, production switches', () => {
  let stack: Stack;
  const KEYS = ['key-one', 'key-two'];

  beforeAll(async () => {
    stack = await startStack({ settings: { gatewayApiKeys: KEYS } });
  });
  afterAll(async () => {
    await stack?.close();
  });

  const ask = (headers: Record<string, string>, url = stack.gatewayUrl) => postGraphQL(url, '{ problem(id: "p1001") { id } }', undefined, headers);

  describe('GATEWAY_API_KEYS', () => {
    it('refuses a request without a key: 401 UNAUTHENTICATED with a Bearer challenge', async () => {
      const response = await fetch(stack.gatewayUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ __typename }' }),
      });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer realm="gateway"');
      expect(await response.json()).toEqual({
        errors: [{ message: 'A valid gateway key is required: send `Authorization: Bearer <key>`.', extensions: { code: 'UNAUTHENTICATED' } }],
      });
    });

    it.each([['Bearer wrong-key'], ['Basic a2V5LW9uZTo='], ['Bearer'], ['key-one'], ['Bearer key-one extra']])('refuses Authorization "%s" with 401', async (header) => {
      const result = await ask({ authorization: header });
      expect(result.status).toBe(401);
      expect(result.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
      expect(result.text).not.toContain('key-one');
    });

    it('lets in every configured key', async () => {
      for (const key of KEYS) {
        const result = await ask({ authorization: `Bearer ${key}` });
        expect(result.status).toBe(200);
        expect(result.data).toEqual({ problem: { id: 'p1001' } });
      }
    });

    it('keeps the health check and the GraphiQL page open', async () => {
      const health = await fetch(stack.gatewayUrl.replace(/\/graphql$/, '/healthcheck'));
      expect(health.status).toBe(200);
      const page = await fetch(stack.gatewayUrl, { headers: { accept: 'text/html' } });
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/text\/html/);
    });
  });

  describe('per-client rate limits', () => {
    it('answers 429 RATE_LIMITED with retryAfter once a client spends its budget, per client', async () => {
      const limited = await stack.addGateway({ settings: { gatewayApiKeys: KEYS, rateLimitRequests: 3, translationRateLimitRequests: 100, rateLimitWindowSeconds: 60 } });
      for (let index = 0; index < 3; index += 1) expect((await limited.query('{ __typename }', undefined, { authorization: 'Bearer key-one' })).status).toBe(200);
      const response = await fetch(limited.gatewayUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer key-one' },
        body: JSON.stringify({ query: '{ __typename }' }),
      });
      expect(response.status).toBe(429);
      const retryAfter = Number(response.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(60);
      const body = await response.json();
      expect(body.errors[0].extensions).toEqual({ code: 'RATE_LIMITED', retryAfter, limit: 3 });
      // Another key has its own budget.
      expect((await limited.query('{ __typename }', undefined, { authorization: 'Bearer key-two' })).status).toBe(200);
    });

    it('counts wrong keys against the caller\'s budget, so guessing keys is rate-limited too', async () => {
      const limited = await stack.addGateway({ settings: { gatewayApiKeys: KEYS, rateLimitRequests: 3 } });
      const statuses: number[] = [];
      for (let index = 0; index < 4; index += 1) statuses.push((await limited.query('{ __typename }', undefined, { authorization: `Bearer guess-${index}` })).status);
      expect(statuses).toEqual([401, 401, 401, 429]);
    });

    it('behind a trusted proxy (TRUST_PROXY), tells open-mode clients apart by X-Forwarded-For', async () => {
      const proxied = await stack.addGateway({ settings: { rateLimitRequests: 1, trustProxy: true } });
      // The trusted proxy appends the address it saw: the right-most entry (what a client wrote before it is not trusted).
      const from = (address: string) => proxied.query('{ __typename }', undefined, { 'x-forwarded-for': `10.0.0.1, ${address}` });
      expect((await from('203.0.113.7')).status).toBe(200);
      expect((await from('203.0.113.7')).status).toBe(429);
      expect((await from('198.51.100.9')).status).toBe(200);
      // Without TRUST_PROXY the header is ignored: every caller here is 127.0.0.1.
      const direct = await stack.addGateway({ settings: { rateLimitRequests: 1 } });
      expect((await direct.query('{ __typename }', undefined, { 'x-forwarded-for': '203.0.113.7' })).status).toBe(200);
      expect((await direct.query('{ __typename }', undefined, { 'x-forwarded-for': '198.51.100.9' })).status).toBe(429);
    });

    it('gives the translation link its own, stricter budget', async () => {
      const limited = await stack.addGateway({ settings: { gatewayApiKeys: KEYS, rateLimitRequests: 100, translationRateLimitRequests: 2 } });
      const auth = { authorization: 'Bearer key-two' };
      const translating = '{ problem(id: "p1003") { translation(to: "es") { title } } }';
      expect((await limited.query(translating, undefined, auth)).errors).toBeUndefined();
      expect((await limited.query(translating, undefined, auth)).errors).toBeUndefined();
      stack.translation.resetStats();
      const refused = await limited.query(translating, undefined, auth);
      expect(refused.status).toBe(429);
      expect(refused.errors?.[0].extensions).toMatchObject({ code: 'RATE_LIMITED', limit: 2 });
      expect(stack.translation.stats.requests).toBe(0);
      // Queries that do not translate still pass.
      expect((await limited.query('{ problem(id: "p1003") { title } }', undefined, auth)).status).toBe(200);
    });

    it('counts every hit exactly once under concurrency (in-process store)', async () => {
      const store = createMemoryRateLimitStore();
      const counts = await Promise.all(Array.from({ length: 200 }, () => store.hit('client', 60_000)));
      expect(counts.map((count) => count.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 200 }, (_, index) => index + 1));
    });

    it('lets requests through when the store never answers', async () => {
      const hanging = await stack.addGateway({
        settings: { gatewayApiKeys: KEYS, rateLimitRequests: 1 },
        rateLimitStore: { hit: () => new Promise(() => undefined) },
      });
      for (let index = 0; index < 2; index += 1) expect((await hanging.query('{ __typename }', undefined, { authorization: 'Bearer key-one' })).status).toBe(200);
    });

    it('lets requests through when the store fails', async () => {
      const failing = await stack.addGateway({
        settings: { gatewayApiKeys: KEYS, rateLimitRequests: 1 },
        rateLimitStore: { hit: () => Promise.reject(new Error('store down')) },
      });
      for (let index = 0; index < 3; index += 1) expect((await failing.query('{ __typename }', undefined, { authorization: 'Bearer key-one' })).status).toBe(200);
    });
  });

  describe('CORS', () => {
    const preflight = (url: string, origin: string) =>
      fetch(url, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,authorization' } });

    it('allows every origin by default', async () => {
      const response = await preflight(stack.gatewayUrl, 'https://anywhere.example');
      // "*" is answered by echoing the caller's origin (whatwg-node's CORS), which allows it all the same.
      expect(response.headers.get('access-control-allow-origin')).toMatch(/^(\*|https:\/\/anywhere\.example)$/);
    });

    it('allows only the CORS_ORIGINS given', async () => {
      const strict = await stack.addGateway({ settings: { gatewayApiKeys: KEYS, corsOrigins: ['https://app.example'] } });
      const allowed = await preflight(strict.gatewayUrl, 'https://app.example');
      expect(allowed.headers.get('access-control-allow-origin')).toBe('https://app.example');
      const other = await preflight(strict.gatewayUrl, 'https://evil.example');
      expect(other.headers.get('access-control-allow-origin')).not.toBe('https://evil.example');
    });
  });

  describe('production switches', () => {
    it('serves no GraphiQL and no introspection in production unless enabled', async () => {
      const production = await stack.addGateway({ settings: { gatewayApiKeys: KEYS, production: true, graphiql: false, introspection: false } });
      const page = await fetch(production.gatewayUrl, { headers: { accept: 'text/html' } });
      expect(page.headers.get('content-type') ?? '').not.toMatch(/text\/html/);
      const introspection = await production.query('{ __schema { queryType { name } } }', undefined, { authorization: 'Bearer key-one' });
      expect(introspection.errors?.[0].extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');

      const enabled = await stack.addGateway({ settings: { gatewayApiKeys: KEYS, production: true, graphiql: true, introspection: true } });
      const allowed = await enabled.query('{ __schema { queryType { name } } }', undefined, { authorization: 'Bearer key-one' });
      expect(allowed.data).toEqual({ __schema: { queryType: { name: 'Query' } } });
    });
  });
});
