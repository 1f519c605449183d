import type { ExecutionResult } from 'graphql';
import type { YogaServerInstance } from 'graphql-yoga';
import { delegatedRuns } from '../execution/delegate/delegated-run.ts';
import { createPreparedOperations } from '../execution/forward/prepared-operations.ts';
import type { SingleSourceFastPath } from '../execution/forward/single-source-fast-path.ts';
import type { ResponseCache } from '../execution/response-cache/response-cache.ts';
import type { BuiltMesh } from '../mesh.ts';
import { logErrorCauses } from '../observability/mesh-logger.ts';
import type { Observability } from '../observability/index.ts';
import { documentPlanner } from '../pipeline/document-planner.ts';
import { createFrontDoor, type FrontDoorOptions } from '../pipeline/front-door/front-door.ts';
import { fetchTransport } from '../pipeline/front-door/fetch-transport.ts';
import { nodeTransport, type NodeAdapter, type NodeYogaHandler } from '../pipeline/front-door/node-transport.ts';
import type { PersistedDocuments } from '../guards/persisted-documents.ts';
import type { GuardList } from '../request/guards.ts';
import type { GatewaySettings } from '../settings.ts';

export interface EngineDoorsOptions {
  settings: GatewaySettings;
  mesh: BuiltMesh['mesh'];
  yoga: YogaServerInstance<object, object>;
  guards: GuardList;
  responseCache: ResponseCache;
  maskErrors: (result: ExecutionResult) => ExecutionResult;
  observability: Pick<Observability, 'observers'>;
  cors: FrontDoorOptions['cors'];
  /** The fast path, when it is on. */
  forwarding: SingleSourceFastPath | undefined;
  /** The trusted documents' texts, when only those may run. */
  trustedTexts: Set<string> | undefined;
  /** Persisted-query hashes and trusted documents: one store and one set of rules for the door and yoga. */
  persisted: PersistedDocuments;
}

/**
 * Every request of one engine enters here, on node:http as through fetch (pipeline/front-door/):
 * head guards before any body is read, then the one straight path; yoga serves what the request is for.
 */
export function engineDoors({ settings, mesh, yoga, guards, responseCache, maskErrors, observability, cors, forwarding, trustedTexts, persisted }: EngineDoorsOptions): {
  listener: NodeAdapter;
  fetch: (request: Request, ...serverContext: object[]) => Promise<Response>;
} {
  // The plans of the texts seen: the fast path's table when it is on (yoga's forwarding fills it too).
  const prepared = forwarding?.prepared ?? createPreparedOperations();
  const door = createFrontDoor({
    guards,
    cache: responseCache,
    maskErrors,
    observers: observability.observers,
    cors,
    persisted,
    maxBatchOperations: settings.maxBatchOperations,
    direct: {
      operations: prepared,
      // The first request of a text takes the same way as the thousandth: planned here, once,
      // forwarded whole or delegated by Mesh's own execution.
      plan: documentPlanner({ checks: (context) => yoga.getEnveloped(context), forwarding, delegated: delegatedRuns(mesh.plugins), prepared, trustedTexts }),
      // Mesh logs the causes of errors only under NODE_ENV=production, which the production setting follows.
      onErrors: settings.production ? (errors) => logErrorCauses(mesh.logger, errors) : undefined,
    },
  });
  return {
    listener: nodeTransport(door, yoga as unknown as NodeYogaHandler),
    fetch: fetchTransport(door, (request, ...context) => yoga.fetch(request, ...context), { maxBodyBytes: settings.maxBodyBytes }),
  };
}
