import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen, type RunningServer } from '../../src/shared/listen.ts';
import { startStack, type Stack } from '../helpers/start-stack.ts';

const SECRET = 'postgres://admin:hunter2@db.internal:5432/problems';
const KEY = 'hardening-key';

/** What a hostile or leaky problems service puts in its errors: a secret, and yoga's `http` extension. */
const hostileExtensions = (code: string) => ({
  code,
  http: {
    status: 302,
    headers: {
      'set-cookie': 'session=evil',
      location: 'https://evil.example/',
      'access-control-allow-origin': 'https://evil.example',
    },
  },
  stacktrace: [`at connect (${SECRET})`],
});

let mode: 'errors' | 'status 500' | 'errors not a list' = 'errors';

/** A problems service that answers every query with errors carrying `hostileExtensions`. */
function hostileProblems(request: IncomingMessage, response: ServerResponse): void {
  request.resume();
  request.on('end', () => {
    if (mode === 'status 500') {
      response.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ errors: [{ message: SECRET }] }));
      return;
    }
    if (mode === 'errors not a list') {
      const body = JSON.stringify({ data: null, errors: { message: SECRET, extensions: hostileExtensions('BAD_USER_INPUT') } });
      response.writeHead(200, { 'content-type': 'application/json' }).end(body);
      return;
    }
    const body = JSON.stringify({
      data: null,
      errors: [
        { message: `connect ${SECRET} failed`, path: ['problem'], extensions: hostileExtensions('BAD_USER_INPUT') },
        { message: `pool ${SECRET} exhausted`, extensions: hostileExtensions('UPSTREAM_ERROR') },
      ],
      extensions: hostileExtensions('UPSTREAM_ERROR'),
    });
    response.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });
}

describe('hardening: upstream error messages and http extensions never reach clients as the gateway\'s own', () => {
  let stack: Stack;
  let hostile: RunningServer;
  const query = '{ problem(id: "p1001") { id title } }';

  beforeAll(async () => {
    hostile = await listen(hostileProblems);
    stack = await startStack({ settings: { gatewayApiKeys: [KEY] } });
  });
  afterAll(async () => {
    await stack?.close();
    await hostile?.close();
  });

  const post = (url: string) =>
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}`, origin: 'https://app.example' },
      body: JSON.stringify({ query }),
      redirect: 'manual',
    });

  for (const production of [true, false]) {
    it(`never applies an upstream error's http extension (${production ? 'production' : 'development'})`, async () => {
      const gateway = await stack.addGateway({ settings: { problemsUrl: hostile.url, gatewayApiKeys: [KEY], production, problemsCacheTtlSeconds: 0 } });
      const response = await post(gateway.gatewayUrl);
      const text = await response.text();
      expect(response.status).not.toBe(302);
      expect(response.headers.get('location')).toBeNull();
      expect(response.headers.get('set-cookie')).toBeNull();
      expect(response.headers.get('access-control-allow-origin')).not.toBe('https://evil.example');
      expect(text).not.toContain('evil');
      expect(text).not.toContain('stacktrace');
      const body = JSON.parse(text) as { errors: { message: string; extensions: Record<string, unknown> }[] };
      for (const error of body.errors) expect(error.extensions).toEqual({ code: 'UPSTREAM_ERROR', service: 'problems' });
      // Development keeps the upstream's message for whoever debugs; production hides it (below).
      if (!production) expect(body.errors[0].message).toContain('connect');
    });
  }

  it('masks upstream messages in production, whatever code the upstream claims', async () => {
    const gateway = await stack.addGateway({ settings: { problemsUrl: hostile.url, gatewayApiKeys: [KEY], production: true, problemsCacheTtlSeconds: 0 } });
    const response = await post(gateway.gatewayUrl);
    const text = await response.text();
    expect(text).not.toContain('hunter2');
    expect(text).not.toContain('db.internal');
    const body = JSON.parse(text) as { errors: { message: string; extensions: Record<string, unknown> }[] };
    expect(body.errors.length).toBeGreaterThan(0);
    for (const error of body.errors) {
      // The upstream's BAD_USER_INPUT / UPSTREAM_ERROR is not the gateway's word: it does not keep its message.
      expect(error.extensions).toEqual({ code: 'UPSTREAM_ERROR', service: 'problems' });
      expect(error.message).toBe('The problems service reported an error.');
    }
  });

  it('refuses an answer whose errors are not a list, in the gateway\'s words', async () => {
    const gateway = await stack.addGateway({ settings: { problemsUrl: hostile.url, gatewayApiKeys: [KEY], production: false, problemsCacheTtlSeconds: 0 } });
    mode = 'errors not a list';
    try {
      const response = await post(gateway.gatewayUrl);
      const text = await response.text();
      expect(response.status).not.toBe(302);
      expect(response.headers.get('set-cookie')).toBeNull();
      expect(text).not.toContain('hunter2');
      expect(JSON.parse(text).errors[0]).toMatchObject({
        message: 'The problems service answered with a body the gateway could not use.',
        extensions: { code: 'UPSTREAM_ERROR', service: 'problems' },
      });
    } finally {
      mode = 'errors';
    }
  });

  it('still answers with the gateway\'s own coded errors and statuses in production', async () => {
    const gateway = await stack.addGateway({ settings: { gatewayApiKeys: [KEY], production: true, maxDepth: 2 } });
    const deep = await gateway.query('{ problems { nodes { tags } } }', undefined, { authorization: `Bearer ${KEY}` });
    expect(deep.status).toBe(400);
    expect(deep.errors?.[0].extensions?.code).toBe('OPERATION_LIMIT_EXCEEDED');
    const failed = await stack.addGateway({
      settings: { problemsUrl: hostile.url, gatewayApiKeys: [KEY], production: true, problemsCacheTtlSeconds: 0, upstreamRetries: 0 },
    });
    mode = 'status 500';
    try {
      const result = await failed.query(query, undefined, { authorization: `Bearer ${KEY}` });
      expect(result.errors?.[0]).toMatchObject({ message: 'The problems service failed (HTTP 500).', extensions: { code: 'UPSTREAM_ERROR', service: 'problems', status: 500 } });
      expect(result.text).not.toContain('hunter2');
    } finally {
      mode = 'errors';
    }
  });
});
