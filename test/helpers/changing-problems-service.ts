import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { filterSchema, MapperKind, mapSchema, pruneSchema } from '@graphql-tools/utils';
import { GraphQLObjectType, type GraphQLSchema } from 'graphql';
import { createSchema, createYoga } from 'graphql-yoga';
import { dataset } from '../../src/upstreams/problems/data/index.ts';
import { createResolvers } from '../../src/upstreams/problems/resolvers.ts';
import { typeDefs } from '../../src/upstreams/problems/schema.ts';

/** What the service does to introspection queries (other operations are always served). */
export type IntrospectionFault = 'broken' | 'enormous' | 'slow' | undefined;

const resolvers = createResolvers(dataset);
const base = createSchema({ typeDefs, resolvers });

/** The stand-in's schema and changes of it, each executable over the stand-in's data. */
export const SCHEMAS = {
  base,
  /** `Problem.editorial: String` added. */
  fieldAdded: createSchema({
    typeDefs: [typeDefs, /* GraphQL */ 'extend type Problem { "Where the editorial is." editorial: String }'],
    resolvers: [resolvers, { Problem: { editorial: (problem: { id: string }) => `https://example.org/editorials/${problem.id}` } }],
  }),
  /** `Problem.rating` removed. */
  fieldRemoved: filterSchema({ schema: base, objectFieldFilter: (type, field) => !(type === 'Problem' && field === 'rating') }),
  /** `ProblemStatistics` renamed `ProblemStats`. */
  typeRenamed: pruneSchema(
    mapSchema(base, {
      [MapperKind.OBJECT_TYPE]: (type) => (type.name === 'ProblemStatistics' ? new GraphQLObjectType({ ...type.toConfig(), name: 'ProblemStats' }) : type),
    }),
  ),
  /**
   * The gateway's own names taken: `Problem.translation` and `Query.translation` fields, types named
   * `ProblemTranslation` and `TranslationQuery` (each reached by a field of its own), beside
   * `Problem.editorial`, a field of its own the gateway keeps.
   */
  gatewayNamesTaken: createSchema({
    typeDefs: [
      typeDefs,
      /* GraphQL */ `
        type ProblemTranslation { note: String }
        type TranslationQuery { count: Int }
        extend type Problem {
          translation: String
          translations: [ProblemTranslation!]
          editorial: String
        }
        extend type Query {
          translation: String
          translationQuery: TranslationQuery
        }
      `,
    ],
    resolvers: [
      resolvers,
      {
        Problem: {
          translation: () => 'the service’s own',
          translations: () => [{ note: 'the service’s own' }],
          editorial: (problem: { id: string }) => `https://example.org/editorials/${problem.id}`,
        },
        Query: { translation: () => 'the service’s own', translationQuery: () => ({ count: 1 }) },
      },
    ],
  }),
} satisfies Record<string, GraphQLSchema>;

export interface ChangingProblemsService {
  listener: RequestListener;
  /** Serves `schema` from the next request on. */
  setSchema(schema: GraphQLSchema): void;
  /** Makes introspection queries fail in one way (or be served again, with `undefined`). */
  setFault(fault: IntrospectionFault): void;
  /** Answers introspection queries with these bytes as they are (a large schema made once), or with `schema` again (`undefined`). */
  setIntrospectionAnswer(answer: Uint8Array | undefined): void;
  /** Introspection queries received, faulty answers included. */
  introspections(): number;
  /** Other operations received. */
  operations(): number;
}

/**
 * A problems service whose schema a test changes while it serves (the stand-in's data behind every
 * variant), and whose introspection can be made to fail. Requires `Authorization: Bearer <apiKey>`.
 */
export function createChangingProblemsService({ apiKey, slowMs = 5000 }: { apiKey: string; slowMs?: number }): ChangingProblemsService {
  let schema: GraphQLSchema = SCHEMAS.base;
  let fault: IntrospectionFault;
  let fixedAnswer: Uint8Array | undefined;
  let introspections = 0;
  let operations = 0;
  const yoga = createYoga({ schema: () => schema, graphqlEndpoint: '/graphql', landingPage: false, logging: false });
  const listener: RequestListener = (request, response) => {
    void serve(request, response);
  };
  const serve = async (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    if (request.headers.authorization !== `Bearer ${apiKey}`) {
      response.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ errors: [{ message: 'Invalid API key.' }] }));
      return;
    }
    const introspection = body.includes('__schema');
    if (introspection) introspections += 1;
    else operations += 1;
    if (introspection && fault === 'broken') {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: { __schema: { queryType: { name: 'Query' }, types: [{ kind: 'OBJECT', name: 'Query', fields: 'none' }] } } }));
      return;
    }
    if (introspection && fault === 'enormous') {
      // Streamed without a length, 4 MiB of a description: read until the bound stops it.
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"data":{"__schema":{"description":"');
      const block = 'x'.repeat(64 * 1024);
      for (let sent = 0; sent < 64 && !response.destroyed; sent += 1) {
        if (!response.write(block)) {
          await new Promise<void>((resolve) => {
            const done = () => {
              response.off('drain', done).off('close', done);
              resolve();
            };
            response.on('drain', done).on('close', done);
          });
        }
      }
      response.end('"}}}');
      return;
    }
    if (introspection && fixedAnswer) {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': fixedAnswer.byteLength }).end(fixedAnswer);
      return;
    }
    if (introspection && fault === 'slow') await new Promise((resolve) => setTimeout(resolve, slowMs));
    const answer = await yoga.fetch(`http://service${request.url}`, { method: request.method, headers: request.headers as Record<string, string>, body: request.method === 'GET' ? undefined : body });
    response.writeHead(answer.status, Object.fromEntries(answer.headers));
    response.end(Buffer.from(await answer.arrayBuffer()));
  };
  return {
    listener,
    setSchema: (next) => (schema = next),
    setFault: (next) => (fault = next),
    setIntrospectionAnswer: (answer) => (fixedAnswer = answer),
    introspections: () => introspections,
    operations: () => operations,
  };
}

