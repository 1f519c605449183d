import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { createGateway, readSettings } from 'problems-translation-gateway';

const gateway = await createGateway({ settings: readSettings(process.env) });
const app = new Koa();

app.use(async (ctx, next) => {
  if (ctx.path !== '/graphql') return next();
  ctx.respond = false; // the gateway writes the answer on the raw response
  await new Promise<void>((resolve) => {
    ctx.res.once('close', resolve);
    gateway.listener(ctx.req, ctx.res);
  });
});
app.use(async (ctx) => {
  ctx.body = { app: 'your own routes', graphql: '/graphql' };
});

const server = app.listen(Number(process.env.PORT ?? 4000), () => {
  const { port } = server.address() as AddressInfo;
  console.log(`GraphQL at http://localhost:${port}/graphql`);
});
process.on('SIGTERM', () => server.close(() => void gateway.close()));
