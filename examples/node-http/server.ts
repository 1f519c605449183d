import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createGateway, mountAt } from 'problems-translation-gateway';

// The gateway never reads the environment itself: the app passes what it wants it to use.
const gateway = await createGateway({
  settings: {
    problemsUrl: process.env.PROBLEMS_URL, // e.g. https://problems.example.com (the gateway calls <url>/graphql)
    problemsApiKey: process.env.PROBLEMS_API_KEY,
    translationUrl: process.env.TRANSLATION_URL, // any LibreTranslate-compatible service
    translationApiKey: process.env.TRANSLATION_API_KEY,
  },
});

// GraphQL and GraphiQL at /api/graphql; /api/graphql/readiness, /healthcheck and /metrics below it.
const server = createServer(mountAt('/api/graphql', gateway.listener));
// A client sending `Expect: 100-continue` (curl does above 1 MiB) is asked for its body only once the
// gateway's checks of the head (route, key, rate limit, declared length) let the request through.
server.on('checkContinue', mountAt('/api/graphql', gateway.checkContinue));
server.listen(Number(process.env.PORT ?? 4000), () => {
  const { port } = server.address() as AddressInfo;
  console.log(`GraphQL at http://localhost:${port}/api/graphql`);
});
process.on('SIGTERM', () => server.close(() => void gateway.close()));
