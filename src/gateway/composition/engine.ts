import { validateSchema, type GraphQLSchema } from 'graphql';
import type { YogaServerInstance } from 'graphql-yoga';
import { createResponseCache } from '../execution/response-cache/response-cache.ts';
import { deferredFieldsTransform } from '../execution/delegate/deferred-fields-transform.ts';
import { fragmentTypenameTransform } from '../execution/delegate/fragment-typename-transform.ts';
import { createForwarding } from '../execution/forward/forwarding.ts';
import type { RouteTable } from '../guards/route.ts';
import { buildMesh } from '../mesh.ts';
import type { SourceMemo } from '../mesh-turns.ts';
import { nextTurn } from '../schema/next-turn.ts';
import type { Observability } from '../observability/index.ts';
import type { GatewayLog } from '../gateway-log.ts';
import { logErrorCauses } from '../observability/mesh-logger.ts';
import { documentPlanner } from '../pipeline/document-planner.ts';
import { errorMasking } from '../pipeline/error-masking.ts';
import { delegatedRuns } from '../execution/delegate/delegated-run.ts';
import { createPreparedOperations } from '../execution/forward/prepared-operations.ts';
import { createFrontDoor, type FrontDoorOptions } from '../pipeline/front-door/front-door.ts';
import { nodeTransport, type NodeAdapter, type NodeYogaHandler } from '../pipeline/front-door/node-transport.ts';
import { fetchTransport } from '../pipeline/front-door/fetch-transport.ts';
import { toPublicSchema } from '../public-schema.ts';
import type { GuardList } from '../request/guards.ts';
import type { Disposable } from '../schema/engine-slot.ts';
import type { IntrospectedSchema } from '../schema/introspection.ts';
import { invalidTrustedDocuments } from '../guards/stale-trusted-documents.ts';
import type { GatewaySettings } from '../settings.ts';
import type { SharedStores } from '../shared-stores.ts';
import type { PrewarmTarget } from '../translation/prewarm/translation-prewarm.ts';
import { useTranslationRuntime, type TranslationRuntime } from '../translation/translation-runtime.ts';
import { useOperationLanguage } from '../translation/use-operation-language.ts';
import { useSingleLanguageVariables } from '../translation/single-language-variables.ts';
import { composeSteps, type UpstreamStepEntry } from '../upstream/upstream-call.ts';
import { useUpstreamCalls } from '../upstream/upstream-calls.ts';
import type { UpstreamFetch } from '../upstream/upstream-fetch.ts';
import { staleSdkOperationsLine } from '../../sdk/stale-operations.ts';
import { admissionPolicyOf } from './admission-policy.ts';
import { engineYoga, yogaStages } from './engine-yoga.ts';

/** What one problems schema makes of the gateway (see engineBuilder). */
export interface Engine extends Disposable {
  /** The problems schema's hash. */
  hash: string;
  /** The unified schema clients see. */
  schema: GraphQLSchema;
  linksLeftOut: { name: string; reason: string }[];
  /** Mesh's own execution over this schema, for the gateway's background work (translation prewarming). */
  execute: PrewarmTarget['execute'];
  yoga: YogaServerInstance<object, object>;
  listener: NodeAdapter;
  /** The same front door as a fetch handler. */
  fetch: (request: Request, ...serverContext: object[]) => Promise<Response>;
  /** yoga's stages by name, in order. */
  plugins: string[];
}

/** What every engine is built with: the parts of the gateway that outlive one problems schema. */
export interface EngineParts {
  settings: GatewaySettings;
  /** Directory holding `.meshrc.yaml`. */
  baseDir: string | undefined;
  log: GatewayLog;
  upstreamFetch: UpstreamFetch;
  /** The upstream steps of one problems schema, by its hash (upstream/upstream-calls.ts). */
  upstreamStepsFor: (schemaHash: string) => UpstreamStepEntry[];
  translationRuntime: TranslationRuntime;
  shared: SharedStores | undefined;
  trustedDocuments: Record<string, string> | undefined;
  guards: GuardList;
  routes: RouteTable;
  observability: Pick<Observability, 'yogaPlugins' | 'observers'>;
}

/**
 * Builds everything derived from one problems schema: the mesh, the forwarded operations, the public
 * schema, the response cache's admission policy, yoga and its stages, the node:http adapter. A
 * request runs on the engine current when it arrives; a new schema gets a new engine, built beside
 * the old one (schema/engine-slot.ts, engine-serving.ts).
 */
export function engineBuilder(parts: EngineParts): (problems: IntrospectedSchema) => Promise<Engine> {
  const { settings, baseDir, log, upstreamFetch, upstreamStepsFor, translationRuntime, shared, trustedDocuments, guards, routes, observability } = parts;
  const maskErrors = errorMasking({ production: settings.production });
  // One set of CORS options for yoga and for the node:http adapter in front of it: the same headers either way.
  const cors: FrontDoorOptions['cors'] = { origin: settings.corsOrigins === '*' ? '*' : settings.corsOrigins };
  const trustedTexts = trustedDocuments && new Set(Object.values(trustedDocuments));
  const logOnce = logOnceOf(log);
  // The translation source's schema, built once from its OpenAPI document: the same at every build.
  const sourceMemo: SourceMemo = new Map();
  return async (problems) => {
    const upstreamSteps = upstreamStepsFor(problems.hash);
    const built = await buildMesh({
      settings,
      baseDir,
      problemsSchema: problems.sdl,
      log: logOnce,
      fetch: upstreamFetch.fetch,
      plugins: (sources) => [useUpstreamCalls(sources, upstreamSteps), useTranslationRuntime(translationRuntime), useOperationLanguage(), useSingleLanguageVariables()],
      sourceTransforms: () => [fragmentTypenameTransform(), deferredFieldsTransform()],
      sourceMemo,
    });
    const { mesh, linksLeftOut } = built;
    // Requests are served between the build's stages (nextTurn), each of which runs whole.
    await nextTurn();
    // Aborts the calls forwarded operations have in flight when the engine is disposed (once its
    // requests have ended) or the gateway closes, as Mesh's own executor does.
    const disposal = new AbortController();
    try {
      const forwarding = await createForwarding({ settings, built, baseDir, send: composeSteps(upstreamSteps), network: upstreamFetch.fetch, signal: disposal.signal, log: logOnce });
      await nextTurn();
      const schema = toPublicSchema(mesh.schema);
      await nextTurn();
      // graphql-js validates a schema once, at its first use, and keeps the result on it: here, in a
      // turn of its own, rather than in the first request's or in the next step's.
      validateSchema(schema);
      await nextTurn();
      warnOfStaleOperations(schema, problems.hash, trustedDocuments, log);
      await nextTurn();
      const responseCache = createResponseCache({
        sharedStore: shared?.keyValueStore('responses'),
        ttlMs: settings.responseCacheTtlSeconds * 1000,
        translationOnlyTtlMs: settings.translationCacheTtlSeconds * 1000,
        policy: admissionPolicyOf(schema, settings, trustedDocuments),
        // Answers that may translate also vary by the default languages and the curated set in force.
        translationVariant: translationRuntime.variant,
      });
      await nextTurn();
      const stages = yogaStages({ settings, mesh, schema, guards, observability, shared, trustedDocuments, responseCache, forwarding, maskErrors });
      const yoga = engineYoga({ settings, stages, schema, routes, cors });
      // The plans of the texts seen: the fast path's table when it is on (yoga's forwarding fills it too).
      const prepared = forwarding?.prepared ?? createPreparedOperations();
      // Every request enters here, on node:http as through fetch (pipeline/front-door/): head guards
      // before any body is read, then the one straight path; yoga serves what the request is for.
      const door = createFrontDoor({
        guards,
        cache: responseCache,
        maskErrors,
        observers: observability.observers,
        cors,
        direct: {
          operations: prepared,
          // The first request of a text takes the same way as the thousandth: planned here, once,
          // forwarded whole or delegated by Mesh's own execution.
          plan: documentPlanner({ checks: (context) => yoga.getEnveloped(context), forwarding, delegated: delegatedRuns(mesh.plugins), prepared, trustedTexts }),
          // Mesh logs the causes of errors only under NODE_ENV=production, which the production setting follows.
          onErrors: settings.production ? (errors) => logErrorCauses(mesh.logger, errors) : undefined,
        },
      });
      const listener = nodeTransport(door, yoga as unknown as NodeYogaHandler);
      const fetch = fetchTransport(door, (request, ...context) => yoga.fetch(request, ...context), { maxBodyBytes: settings.maxBodyBytes });
      return {
        hash: problems.hash,
        schema,
        linksLeftOut,
        execute: mesh.execute,
        yoga,
        listener,
        fetch,
        plugins: stages.map(([name]) => name),
        dispose: async () => {
          await yoga.dispose();
          disposal.abort();
          mesh.destroy();
        },
      };
    } catch (error) {
      disposal.abort();
      mesh.destroy();
      throw error;
    }
  };
}

/** Says which trusted documents and SDK operations no longer validate against the schema just built. */
function warnOfStaleOperations(schema: GraphQLSchema, hash: string, trustedDocuments: Record<string, string> | undefined, log: GatewayLog): void {
  const stale = trustedDocuments ? invalidTrustedDocuments(schema, trustedDocuments) : [];
  if (stale.length > 0) {
    log(`trusted documents that no longer validate against problems schema ${hash.slice(0, 12)} (they answer GRAPHQL_VALIDATION_FAILED): ${stale.join(', ')}`, 'warn');
  }
  const staleSdk = staleSdkOperationsLine(schema, hash);
  if (staleSdk) log(staleSdk, 'warn');
}

/** The log, but a link (or a name) left out stays left out schema after schema: said once, not at every swap. */
function logOnceOf(log: GatewayLog): GatewayLog {
  const said = new Set<string>();
  return (line, level) => {
    if (line.startsWith('link ') || line.startsWith('names ')) {
      if (said.has(line)) return;
      said.add(line);
    }
    log(line, level);
  };
}
