/**
 * Local stand-in for the third-party problems service: a GraphQL API over a fixed dataset, guarded by
 * a Bearer key like the real one. The factory has no side effects; `main.ts` listens.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestListener } from 'node:http';
import { createSchema, createYoga, type Plugin, type YogaServerInstance } from 'graphql-yoga';
import { dataset } from './data/index.ts';
import { createResolvers } from './resolvers.ts';
import { typeDefs } from './schema.ts';

export interface ProblemsServiceOptions {
  /**
   * When set, every request to `/graphql` must carry `Authorization: Bearer <apiKey>`; anything else
   * gets HTTP 401 with a GraphQL-style error body. Unset means the service is open.
   * @default undefined
   */
  apiKey?: string;
  /**
   * Serve GraphiQL to browsers on `GET /graphql`.
   * @default false
   */
  graphiql?: boolean;
}

export interface ProblemsServiceStats {
  /** Requests that reached `/graphql`, including rejected ones. */
  requests: number;
}

export interface ProblemsService {
  /** Node request listener; pass it to `http.createServer` or `listen()`. */
  listener: RequestListener;
  yoga: YogaServerInstance<Record<string, unknown>, Record<string, unknown>>;
  /** Live counters; the object stays the same, so a reference taken once keeps seeing updates. */
  stats: ProblemsServiceStats;
  /** Sets every counter back to zero. */
  resetStats(): void;
}

const GRAPHQL_ENDPOINT = '/graphql';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/** Counts requests to the GraphQL endpoint, before any other plugin can end them. */
function useRequestCount(stats: ProblemsServiceStats): Plugin {
  return {
    onRequest({ url }) {
      if (url.pathname === GRAPHQL_ENDPOINT) stats.requests++;
    },
  };
}

/** Rejects requests to the GraphQL endpoint without the right Bearer key. */
function useBearerKey(apiKey: string): Plugin {
  // Compare digests so the comparison takes the same time whatever the lengths of the keys.
  const expected = sha256(apiKey);
  return {
    onRequest({ request, url, endResponse, fetchAPI }) {
      // CORS preflights carry no credentials by design.
      if (url.pathname !== GRAPHQL_ENDPOINT || request.method === 'OPTIONS') return;
      const header = request.headers.get('authorization');
      const presented = header ? /^Bearer[ \t]+(\S+)\s*$/i.exec(header)?.[1] : undefined;
      if (presented !== undefined && timingSafeEqual(sha256(presented), expected)) return;
      const message = header
        ? 'Invalid API key. Send the key as `Authorization: Bearer <key>`.'
        : 'Missing API key. Send the key as `Authorization: Bearer <key>`.';
      endResponse(
        new fetchAPI.Response(JSON.stringify({ errors: [{ message, extensions: { code: 'UNAUTHENTICATED' } }] }), {
          status: 401,
          headers: { 'content-type': 'application/json; charset=utf-8', 'www-authenticate': 'Bearer realm="problems"' },
        }),
      );
    },
  };
}

export function createProblemsService({ apiKey, graphiql = false }: ProblemsServiceOptions = {}): ProblemsService {
  const stats: ProblemsServiceStats = { requests: 0 };
  const yoga = createYoga<Record<string, unknown>>({
    schema: createSchema({ typeDefs, resolvers: createResolvers(dataset) }),
    graphqlEndpoint: GRAPHQL_ENDPOINT,
    graphiql,
    landingPage: false,
    maskedErrors: true,
    plugins: [useRequestCount(stats), ...(apiKey ? [useBearerKey(apiKey)] : [])],
  });
  return {
    listener: yoga.requestListener,
    yoga,
    stats,
    resetStats() {
      stats.requests = 0;
    },
  };
}
