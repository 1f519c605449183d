/**
 * The gateway as a Fastify route. Fastify owns the request and reply; yoga answers through them.
 * Run: `node --conditions=source --import tsx examples/fastify/server.ts` (upstreams as for `npm start`).
 *
 * Apollo Client apps querying it: `Query.translation` is a namespace with no id, so give the cache
 * `new InMemoryCache({ typePolicies: { TranslationQuery: { merge: true } } })`, or one translation
 * query's answer replaces another's ("Cache data may be lost"; README "Clients").
 */
import { pathToFileURL } from 'node:url';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { createGateway, readSettings, type GatewayOptions } from 'problems-translation-gateway';

export async function startFastifyExample({ port = 0, ...options }: GatewayOptions & { port?: number } = {}) {
  const gateway = await createGateway(options);
  const app = Fastify();
  // Let the gateway see every body as sent (it checks content type, size and encoding itself).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null));
  app.route({
    url: gateway.graphqlEndpoint,
    method: ['GET', 'POST', 'OPTIONS'],
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      // `req` lets the gateway see the caller's address (rate limits when it runs without keys).
      const serverContext = { req: request.raw, reply } as Record<string, unknown>;
      const response = await gateway.yoga.handleNodeRequestAndResponse(request.raw, reply.raw, serverContext);
      for (const [name, value] of response.headers) reply.header(name, value);
      reply.status(response.status);
      return reply.send(response.body);
    },
  });
  await app.listen({ port, host: '127.0.0.1' });
  const address = app.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : port}${gateway.graphqlEndpoint}`;
  return {
    url,
    close: async () => {
      await app.close();
      await gateway.close();
    },
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { url } = await startFastifyExample({ port: Number(process.env.PORT ?? 4102), settings: readSettings(process.env) });
  console.log(`Fastify example serving ${url}`);
}
