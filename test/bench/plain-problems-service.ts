/**
 * The problems service as a plain graphql-js server (node:http, one parse/validate cache, no
 * framework): the cheapest honest upstream, so the benchmark compares the gateway with what a lean
 * service costs rather than with another yoga. Same schema, resolvers and data as the stand-in.
 *
 *   node --import tsx test/bench/plain-problems-service.ts   (PORT, PROBLEMS_API_KEY)
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { execute, parse, validate, type DocumentNode, type GraphQLError } from 'graphql';
import { createSchema } from 'graphql-yoga';
import { dataset } from '../../src/upstreams/problems/data/index.ts';
import { createResolvers } from '../../src/upstreams/problems/resolvers.ts';
import { typeDefs } from '../../src/upstreams/problems/schema.ts';

const schema = createSchema({ typeDefs, resolvers: createResolvers(dataset) });
const documents = new Map<string, DocumentNode | readonly GraphQLError[]>();
const key = process.env.PROBLEMS_API_KEY;

function documentOf(query: string): DocumentNode | readonly GraphQLError[] {
  let document = documents.get(query);
  if (!document) {
    const parsed = parse(query);
    const errors = validate(schema, parsed);
    document = errors.length > 0 ? errors : parsed;
    if (documents.size < 1000) documents.set(query, document);
  }
  return document;
}

const server = createServer((request, response) => {
  const send = (status: number, body: unknown) => {
    const text = JSON.stringify(body);
    response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
    response.end(text);
  };
  if (key && request.headers.authorization !== `Bearer ${key}`) return send(401, { errors: [{ message: 'Unauthorized' }] });
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', async () => {
    try {
      const { query, variables, operationName } = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const document = documentOf(query);
      if (Array.isArray(document)) return send(400, { errors: document });
      send(200, await execute({ schema, document: document as DocumentNode, variableValues: variables, operationName, contextValue: {} }));
    } catch (error) {
      send(400, { errors: [{ message: (error as Error).message }] });
    }
  });
});
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  console.log(`plain problems service at http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => server.close(() => process.exit(0)));
