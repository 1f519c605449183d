import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { createGateway, mountAt, readSettings } from 'problems-translation-gateway';

const gateway = await createGateway({ settings: readSettings(process.env) });
const graphql = mountAt('/api/graphql', gateway.listener);
const app = Fastify();

app.get('/', async () => ({ app: 'your own routes', graphql: graphql.path }));

// In a plugin of its own, so the body parsers removed here stay removed for these routes only.
await app.register(async (scope) => {
  // The gateway reads and checks each body itself (media type, size, UTF-8): leave it unread.
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
  const serve = (request: FastifyRequest, reply: FastifyReply) => {
    reply.hijack(); // the gateway writes the answer on the raw response
    graphql(request.raw, reply.raw);
  };
  // GraphQL and GraphiQL at the mount path; GraphiQL's files, /readiness, /healthcheck and /metrics below it.
  scope.all(graphql.path, serve);
  scope.all(`${graphql.path}/*`, serve);
});

app.addHook('onClose', () => gateway.close());
await app.listen({ port: Number(process.env.PORT ?? 4000) });
const { port } = app.server.address() as AddressInfo;
console.log(`GraphQL at http://localhost:${port}${graphql.path}`);
process.on('SIGTERM', () => void app.close());
