import { printSchema } from 'graphql';
import { createGateway } from '/work/main/src/gateway/create-gateway.ts';
const gw = await createGateway();
console.log(printSchema(gw.schema));
await gw.close();
