import type { ExecutionResult, GraphQLSchema } from 'graphql';
import { useDeferStream } from '@graphql-yoga/plugin-defer-stream';
import { useDisableIntrospection } from '@graphql-yoga/plugin-disable-introspection';
import { createYoga, useSchema, type Plugin, type YogaServerInstance } from 'graphql-yoga';
import type { ResponseCache } from '../execution/response-cache/response-cache.ts';
import { useResponseCache } from '../execution/response-cache/use-response-cache.ts';
import type { SingleSourceFastPath } from '../execution/forward/single-source-fast-path.ts';
import { useExecution } from '../execution/use-execution.ts';
import { useSelectionOrder } from '../execution/shape/use-selection-order.ts';
import { graphiqlYogaOptions, useGraphiQLAssets } from '../graphiql.ts';
import { useContentTypeCase } from '../guards/content-type-case.ts';
import { useDocumentLimits } from '../guards/operation-limits.ts';
import { usePersistedQueries, type PersistedDocuments } from '../guards/persisted-documents.ts';
import { useRequestBody } from '../guards/request-body.ts';
import type { RouteTable } from '../guards/route.ts';
import type { BuiltMesh } from '../mesh.ts';
import type { Observability } from '../observability/index.ts';
import { useErrorMasking } from '../pipeline/error-masking.ts';
import type { FrontDoorOptions } from '../pipeline/front-door/front-door.ts';
import { useGatewayPipeline } from '../pipeline/yoga-adapter.ts';
import type { GuardList } from '../request/guards.ts';
import type { GatewaySettings } from '../settings.ts';

/** What yoga's stages of one engine are made of: the engine's own parts and the gateway's. */
export interface YogaStagesOptions {
  settings: GatewaySettings;
  mesh: BuiltMesh['mesh'];
  /** The public schema of the engine. */
  schema: GraphQLSchema;
  guards: GuardList;
  observability: Pick<Observability, 'yogaPlugins'>;
  /** Persisted-query hashes and trusted documents, the same as the front door's. */
  persisted: PersistedDocuments;
  responseCache: ResponseCache;
  forwarding: SingleSourceFastPath | undefined;
  maskErrors: (result: ExecutionResult) => ExecutionResult;
}

/** yoga's plugins by name, in the order their hooks run. */
export type YogaStages = [string, object | object[]][];

/** yoga's plugins of one engine by name, in the order their hooks run (`gateway.pipeline.plugins`). */
export function yogaStages({ settings, mesh, schema, guards, observability, persisted, responseCache, forwarding, maskErrors }: YogaStagesOptions): YogaStages {
  return [
    // Execution: Mesh's engine and per-request in-context SDK, over the public schema, with @defer
    // and @stream (Mesh executes with graphql-tools' executor, which delivers increments).
    ['mesh', mesh.plugins],
    ['public schema', useSchema(schema)],
    ['defer and stream', useDeferStream()],
    // The guard list, as yoga's hooks: head guards for requests that did not come through the
    // node:http adapter, then params, batch and operation guards where yoga reaches them.
    ['guards', useGatewayPipeline(guards)],
    // The routes' own answers: GraphiQL's files (the page needs nothing from outside), /readiness,
    // /metrics; and the request log, metrics and traces of what yoga answers.
    ['graphiql files', settings.graphiql ? [useGraphiQLAssets()] : []],
    ['observation, readiness, metrics', observability.yogaPlugins],
    // The body: its media type in any spelling (`Application/JSON` is JSON) before yoga picks a
    // parser, then read once, bounded and checked as UTF-8.
    ['content type', useContentTypeCase()],
    ['request body', useRequestBody({ maxBytes: settings.maxBodyBytes })],
    // The parameters: persisted-query hashes and trusted documents turned into their documents
    // before anything below (the response cache keys on the document) reads them.
    ['persisted documents', usePersistedQueries(persisted)],
    // The document: introspection switch, then the size and shape limits while parsing and
    // validating (after Mesh's plugins: their parser wraps whichever parser Mesh sets).
    ['introspection switch', useDisableIntrospection({ isDisabled: () => !settings.introspection })],
    ['document limits', useDocumentLimits({
      maxDepth: settings.maxDepth,
      maxAliases: settings.maxAliases,
      maxTokens: settings.maxTokens,
      maxDirectives: settings.maxDirectives,
      blockFieldSuggestions: settings.production,
    })],
    // The answer: in selection order before the response cache keeps it; a query answered before
    // is answered again without executing.
    ['selection order', useSelectionOrder()],
    ['response cache', useResponseCache(responseCache)],
    // How what reaches execution runs: forwarded whole to the problems service, or delegated by Mesh.
    ['execution', useExecution({ forwarding })],
    // The one masking step: the last word on every error a client receives.
    ['error masking', useErrorMasking(maskErrors)],
  ];
}

export interface EngineYogaOptions {
  settings: GatewaySettings;
  stages: YogaStages;
  /** The public schema of the engine (GraphiQL's example tabs are written from it). */
  schema: GraphQLSchema;
  routes: RouteTable;
  cors: FrontDoorOptions['cors'];
}

/** The yoga server of one engine: its stages, and yoga's own checks turned off where a guard does the work. */
export function engineYoga({ settings, stages, schema, routes, cors }: EngineYogaOptions): YogaServerInstance<object, object> {
  return createYoga({
    plugins: stages.flatMap(([, plugins]) => plugins) as Plugin[],
    // Every path: the route guard alone decides which paths serve what (exactly, and below the mount
    // when an app mounted the gateway); yoga's own match would refuse a mount path not ending in it.
    graphqlEndpoint: '*',
    // /healthcheck is answered by the route guard: yoga's own check answers any URL that merely ends
    // in its path, and no serialized URL ends in a space.
    healthCheckEndpoint: ' ',
    landingPage: false,
    logging: false,
    // The error masking stage is the one masking step, for yoga's answers as for the node:http
    // adapter's (pipeline/error-masking.ts).
    maskedErrors: false,
    cors,
    batching: { limit: settings.maxBatchOperations },
    // MAX_BODY_BYTES is enforced by the declared-length guard and useRequestBody, which reads each body once.
    maxRequestBodySize: false,
    ...(settings.graphiql
      ? graphiqlYogaOptions({ keysRequired: settings.gatewayApiKeys.length > 0, schema, onPath: (request) => routes.routeFor(new URL(request.url).pathname) === 'graphql' })
      : { graphiql: false }),
  }) as unknown as YogaServerInstance<object, object>;
}
