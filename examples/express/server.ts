import type { AddressInfo } from 'node:net';
import express from 'express';
import { createGateway, readSettings } from 'problems-translation-gateway';

// readSettings reads the variables of docs/configuration.md, validated as `npm start` reads them.
const gateway = await createGateway({ settings: readSettings(process.env) });

const app = express();
app.get('/', (_request, response) => {
  response.json({ app: 'your own routes', graphql: '/api/graphql' });
});
// Mounted at any path: GraphQL and GraphiQL there, /api/graphql/readiness and the other routes below.
// The gateway reads the request body itself: mount it before any body-parsing middleware.
app.use('/api/graphql', gateway.listener);

const server = app.listen(Number(process.env.PORT ?? 4000), () => {
  const { port } = server.address() as AddressInfo;
  console.log(`GraphQL at http://localhost:${port}/api/graphql`);
});
process.on('SIGTERM', () => server.close(() => void gateway.close()));
