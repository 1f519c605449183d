/**
 * The gateway inside a plain node:http server. Run: `node --conditions=source --import tsx examples/node-http/server.ts`
 * (with PROBLEMS_URL, TRANSLATION_URL and their keys set: the app reads its environment, the gateway does not).
 *
 * Apollo Client apps querying it: `Query.translation` is a namespace with no id, so give the cache
 * `new InMemoryCache({ typePolicies: { TranslationQuery: { merge: true } } })`, or one translation
 * query's answer replaces another's ("Cache data may be lost"; README "Clients").
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { createGateway, readSettings, type GatewayOptions } from 'problems-translation-gateway';

export async function startNodeHttpExample({ port = 0, ...options }: GatewayOptions & { port?: number } = {}) {
  const gateway = await createGateway(options);
  const server = createServer(gateway.listener);
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
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
  const { url } = await startNodeHttpExample({ port: Number(process.env.PORT ?? 4100), settings: readSettings(process.env) });
  console.log(`node:http example serving ${url}`);
}
