import type { GraphQLSchema } from 'graphql';
import type { YogaServerInstance } from 'graphql-yoga';
import { createResponseCache } from '../execution/response-cache/response-cache.ts';
import { createForwarding } from '../execution/forward/forwarding.ts';
import type { RouteTable } from '../guards/route.ts';
import { nextTurn } from '../schema/next-turn.ts';
import type { Observability } from '../observability/index.ts';
import type { GatewayLog } from '../gateway-log.ts';
import { errorMasking } from '../pipeline/error-masking.ts';
import type { FrontDoorOptions } from '../pipeline/front-door/front-door.ts';
import type { NodeAdapter } from '../pipeline/front-door/node-transport.ts';
import type { GuardList } from '../request/guards.ts';
import type { Disposable } from '../schema/engine-slot.ts';
import type { IntrospectedSchema } from '../schema/introspection.ts';
import type { GatewaySettings } from '../settings.ts';
import type { SharedStores } from '../shared-stores.ts';
import type { PrewarmTarget } from '../translation/prewarm/translation-prewarm.ts';
import type { TranslationRuntime } from '../translation/translation-runtime.ts';
import { composeStepsByService, sendByService } from '../upstream/composed-call.ts';
import type { UpstreamStepEntry } from '../upstream/upstream-call.ts';
import { createPersistedDocuments } from '../guards/persisted-documents.ts';
import type { UpstreamFetch } from '../upstream/upstream-fetch.ts';
import { admissionPolicyOf } from './admission-policy.ts';
import { engineDoors } from './engine-doors.ts';
import { engineMeshBuilder, logOnceOf } from './engine-mesh.ts';
import { publicSchemaOf } from './engine-schema.ts';
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
  const { settings, baseDir, upstreamFetch, upstreamStepsFor, translationRuntime, shared, trustedDocuments, guards, routes, observability } = parts;
  const trustedTexts = trustedDocuments && new Set(Object.values(trustedDocuments));
  const log = logOnceOf(parts.log);
  const meshOf = engineMeshBuilder({ settings, baseDir, log, upstreamFetch, translationRuntime });
  const maskErrors = errorMasking({ production: settings.production });
  // One set of CORS options for yoga and for the node:http adapter in front of it: the same headers either way.
  const cors: FrontDoorOptions['cors'] = { origin: settings.corsOrigins === '*' ? '*' : settings.corsOrigins };
  return async (problems) => {
    // The steps of this schema, composed once: Mesh's calls and forwarded ones go through the same
    // functions (one circuit per service, one retry policy following the engine's signal once).
    const chains = composeStepsByService(upstreamStepsFor(problems.hash));
    // Aborts every upstream call in flight, Mesh's and forwarded ones, when the engine is disposed
    // (once its requests have ended) or the gateway closes.
    const disposal = new AbortController();
    let built: Awaited<ReturnType<typeof meshOf>>;
    try {
      built = await meshOf(problems, { chains, signal: disposal.signal });
    } catch (error) {
      disposal.abort();
      throw error;
    }
    const { mesh, linksLeftOut } = built;
    // Requests are served between the build's stages (nextTurn), each of which runs whole.
    await nextTurn();
    try {
      const forwarding = await createForwarding({ settings, built, baseDir, send: sendByService(chains), network: upstreamFetch.fetch, signal: disposal.signal, log });
      await nextTurn();
      const schema = await publicSchemaOf(mesh, problems.hash, trustedDocuments, parts.log);
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
      // Persisted-query hashes and trusted documents: one store and one set of rules for the door and yoga.
      const persisted = createPersistedDocuments({ store: shared?.keyValueStore('persisted-queries'), ttlMs: settings.persistedQueriesTtlSeconds * 1000, trustedDocuments });
      const stages = yogaStages({ settings, mesh, schema, guards, observability, persisted, responseCache, forwarding, maskErrors });
      const yoga = engineYoga({ settings, stages, schema, routes, cors });
      const { listener, fetch } = engineDoors({ settings, mesh, yoga, guards, responseCache, maskErrors, observability, cors, forwarding, trustedTexts, persisted });
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
