/**
 * The gateway mounted in an Express app next to the app's own routes.
 * Run: `node --conditions=source --import tsx examples/express/server.ts` (upstreams as for `npm start`).
 *
 * Apollo Client apps querying it: `Query.translation` is a namespace with no id, so give the cache
 * `new InMemoryCache({ typePolicies: { TranslationQuery: { merge: true } } })`, or one translation
 * query's answer replaces another's ("Cache data may be lost"; README "Clients").
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import express from 'express';
import { createGateway, readSettings, type GatewayOptions } from 'problems-translation-gateway';

export async function startExpressExample({ port = 0, ...options }: GatewayOptions & { port?: number } = {}) {
  const gateway = await createGateway(options);
  const app = express();
  app.get('/', (_request, response) => {
    response.json({ app: 'your own routes live here', graphql: gateway.graphqlEndpoint });
  });
  // The gateway reads the raw body itself: mount it before any body-parsing middleware.
  app.use(gateway.graphqlEndpoint, gateway.listener);
  const server = await new Promise<Server>((resolve) => {
    const listening = app.listen(port, '127.0.0.1', () => resolve(listening));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${gateway.graphqlEndpoint}`;
  return {
    url,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await gateway.close();
    },
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { url } = await startExpressExample({ port: Number(process.env.PORT ?? 4101), settings: readSettings(process.env) });
  console.log(`Express example serving ${url}`);
}
