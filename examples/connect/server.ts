import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import connect from 'connect';
import { createGateway, readSettings } from 'problems-translation-gateway';

const gateway = await createGateway({ settings: readSettings(process.env) });

const app = connect();
// Mounted at any path: GraphQL and GraphiQL there, /api/graphql/readiness and the other routes below.
// The gateway reads the request body itself: mount it before any body-parsing middleware.
app.use('/api/graphql', gateway.listener);
app.use((_request, response) => {
  response.setHeader('content-type', 'application/json');
  response.end(JSON.stringify({ app: 'your own routes', graphql: '/api/graphql' }));
});

const server = createServer(app).listen(Number(process.env.PORT ?? 4000), () => {
  const { port } = server.address() as AddressInfo;
  console.log(`GraphQL at http://localhost:${port}/api/graphql`);
});
process.on('SIGTERM', () => server.close(() => void gateway.close()));
