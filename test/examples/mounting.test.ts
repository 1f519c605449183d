import type { IncomingMessage, ServerResponse } from 'node:http';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen, type RunningServer } from '../../src/shared/listen.ts';
import { startStack, type Stack } from '../helpers/start-stack.ts';

/**
 * An app mounts middleware where it likes, and the gateway serves where it is mounted, with no
 * option: GraphQL and GraphiQL at the mount path, its other routes below it.
 */
describe('mounted by an app at any path', () => {
  let stack: Stack;
  let app: RunningServer;
  let connectLike: RunningServer;
  beforeAll(async () => {
    stack = await startStack({ settings: { graphiql: true } });
    const server = express();
    server.get('/', (_request, response) => void response.json({ app: 'own route' }));
    server.use('/api/graphql', stack.gateway.listener);
    server.use('/v1/gql', stack.gateway.listener);
    app = await listen(server);
    // Connect's way: `url` cut below the mount, `originalUrl` kept, no `baseUrl`.
    connectLike = await listen((request: IncomingMessage, response: ServerResponse) => {
      const prefix = '/mounted/here';
      if (!request.url?.startsWith(prefix)) {
        response.writeHead(418).end();
        return;
      }
      (request as { originalUrl?: string }).originalUrl = request.url;
      request.url = request.url.slice(prefix.length) || '/';
      stack.gateway.listener(request, response);
    });
  });
  afterAll(async () => {
    await app?.close();
    await connectLike?.close();
    await stack?.close();
  });

  const post = (url: string) =>
    fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ problem(id: "p1001") { id } }' }) });

  it.each([['/api/graphql'], ['/api/graphql/'], ['/v1/gql']])('answers GraphQL at the mount path %s', async (path) => {
    const response = await post(`${app.url}${path}`);
    expect(response.status, await response.clone().text()).toBe(200);
    expect(await response.json()).toEqual({ data: { problem: { id: 'p1001' } } });
    const viaGet = await fetch(`${app.url}${path}?query=${encodeURIComponent('{ __typename }')}`);
    expect(await viaGet.json()).toEqual({ data: { __typename: 'Query' } });
  });

  it('answers under a Connect-style mount too', async () => {
    const response = await post(`${connectLike.url}/mounted/here`);
    expect(await response.json()).toEqual({ data: { problem: { id: 'p1001' } } });
    expect((await fetch(`${connectLike.url}/mounted/here/readiness`)).status).toBe(200);
  });

  it('serves GraphiQL at the mount path, its files below it', async () => {
    const page = await fetch(`${app.url}/v1/gql`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    const html = await page.text();
    const scripts = [...html.matchAll(/src="([^"]+)"/g)].map((match) => match[1].replaceAll('&amp;', '&'));
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) {
      expect(script.startsWith('/v1/gql/graphiql/')).toBe(true);
      const file = await fetch(`${app.url}${script}`);
      expect(file.status).toBe(200);
      expect(file.headers.get('content-type')).toMatch(/javascript/);
    }
  });

  it('serves its other routes below the mount, and 404 for what is not one', async () => {
    const readiness = await fetch(`${app.url}/api/graphql/readiness`);
    expect(readiness.status).toBe(200);
    expect(((await readiness.json()) as { status: string }).status).toMatch(/ready|degraded/);
    expect((await fetch(`${app.url}/api/graphql/healthcheck`)).status).toBe(200);
    expect((await fetch(`${app.url}/api/graphql/nope`)).status).toBe(404);
    expect(await (await fetch(`${app.url}/`)).json()).toEqual({ app: 'own route' });
  });
});
