import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../helpers/start-stack.ts';

const KEY = 'routes-client-key';
const QUERY = JSON.stringify({ query: '{ __typename }' });

/**
 * Sends `path` exactly as written (fetch and URL would normalize some spellings before they leave),
 * as a keyless POST of a valid operation.
 */
function rawPost(base: string, path: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { hostname, port, path, method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(QUERY) } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end(QUERY);
  });
}

/**
 * Exactly one path executes GraphQL, and the key check, the rate limits and the request log all
 * judge it by the same decision: no other spelling of a path may run an operation, with or without
 * a key (the review found `POST /graphiql/graphql` answering 400 keyless requests).
 */
describe('routes: one path executes GraphQL', () => {
  let stack: Stack;
  let base: string;
  const logged: string[] = [];
  beforeAll(async () => {
    stack = await startStack({
      settings: { gatewayApiKeys: [KEY], production: true, graphiql: true },
      requestLog: (entry) => logged.push(entry.requestId),
    });
    base = stack.gatewayUrl.replace(/\/graphql$/, '');
  });
  afterAll(async () => {
    await stack?.close();
  });

  const spellings = [
    '/graphiql/graphql',
    '/graphiql/x/graphql',
    '/graphiql/graphql/',
    '/graphiql/graphiql.js/graphql',
    '/graphql/',
    '/graphql//',
    '//graphql',
    '/x/graphql',
    '/GRAPHQL',
    '/Graphql',
    '/%67raphql',
    '/graphql%2F',
    '/graphql%00',
    '/graphql.json',
    '/graphql;x=1',
    '/graphql/..;/graphql/',
    '/healthcheck/graphql',
    '/readiness/graphql',
    '/metrics/graphql',
    '/?path=/graphql',
    '/x?/graphql',
    '/graphiql/healthcheck',
    '/x/healthcheck',
    '/graphiql/',
    '/graphiql/nothing.js',
    '/anything',
  ];

  it.each(spellings)('%s: 404, nothing executed', async (path) => {
    const { status, body } = await rawPost(base, path);
    expect(status).toBe(404);
    expect(body).not.toContain('__typename');
    expect(body).not.toContain('"data"');
  });

  it('the endpoint itself refuses the same keyless request with 401, and runs it with the key', async () => {
    expect((await rawPost(base, '/graphql')).status).toBe(401);
    expect((await rawPost(base, '/graphql?x=1')).status).toBe(401);
    // Dot segments are resolved before routing, as for every URL: this is the endpoint, and guarded.
    expect((await rawPost(base, '/x/../graphql')).status).toBe(401);
    expect((await rawPost(base, '/x/%2e%2e/graphql')).status).toBe(401);
    const answered = await stack.query('{ __typename }', undefined, { authorization: `Bearer ${KEY}` });
    expect(answered).toMatchObject({ status: 200, data: { __typename: 'Query' } });
  });

  it('keyless requests to other spellings are not even logged as GraphQL requests', async () => {
    const before = logged.length;
    for (const path of spellings.slice(0, 6)) await rawPost(base, path);
    expect(logged.length).toBe(before);
  });

  it('GraphiQL, its files and the operational endpoints answer only on their exact paths', async () => {
    const page = await fetch(`${base}/graphql`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<html');
    for (const path of ['/graphql/', '/graphiql/graphql', '/x/graphql']) {
      const other = await fetch(`${base}${path}`, { headers: { accept: 'text/html' } });
      expect(other.status, path).toBe(404);
    }
    expect((await fetch(`${base}/graphiql/graphiql.css`)).status).toBe(200);
    expect((await fetch(`${base}/x/graphiql/graphiql.css`)).status).toBe(404);
    expect((await fetch(`${base}/healthcheck`)).status).toBe(200);
    expect((await fetch(`${base}/healthcheck/`)).status).toBe(404);
    expect((await fetch(`${base}/metrics`)).status).toBe(200);
    expect((await fetch(`${base}/metrics/x`)).status).toBe(404);
  });
});
