import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { createGateway, mountAt, readSettings } from 'problems-translation-gateway';

const gateway = await createGateway({ settings: readSettings(process.env) });
const graphql = mountAt('/api/graphql', gateway.listener);
const app = new Koa();

// Before the app's own routes: the mount path and everything below it (GraphiQL's files, /readiness,
// /healthcheck, /metrics) are the gateway's.
app.use(async (ctx, next) => {
  if (!graphql.owns(ctx.path)) return next();
  ctx.respond = false; // the gateway writes the answer on the raw response
  await new Promise<void>((resolve) => {
    ctx.res.once('close', resolve);
    graphql(ctx.req, ctx.res);
  });
});
app.use(async (ctx) => {
  ctx.body = { app: 'your own routes', graphql: graphql.path };
});

const server = app.listen(Number(process.env.PORT ?? 4000), () => {
  const { port } = server.address() as AddressInfo;
  console.log(`GraphQL at http://localhost:${port}${graphql.path}`);
});
process.on('SIGTERM', () => server.close(() => void gateway.close()));
