/** What a path is for. Exactly one path, the GraphQL endpoint, executes GraphQL (guards/route.ts decides). */
export type Route = 'graphql' | 'graphiql-asset' | 'healthcheck' | 'readiness' | 'metrics';
