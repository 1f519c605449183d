import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { createGateway, readSettings } from 'problems-translation-gateway';

const gateway = await createGateway({ settings: readSettings(process.env) });
const app = Fastify();

app.get('/', async () => ({ app: 'your own routes', graphql: '/graphql' }));

// In a plugin of its own, so the body parsers removed here stay removed for these routes only.
await app.register(async (scope) => {
  // The gateway reads and checks each body itself (media type, size, UTF-8): leave it unread.
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
  scope.all('/graphql', (request, reply) => {
    reply.hijack(); // the gateway writes the answer on the raw response
    gateway.listener(request.raw, reply.raw);
  });
});

app.addHook('onClose', () => gateway.close());
await app.listen({ port: Number(process.env.PORT ?? 4000) });
const { port } = app.server.address() as AddressInfo;
console.log(`GraphQL at http://localhost:${port}/graphql`);
process.on('SIGTERM', () => void app.close());
