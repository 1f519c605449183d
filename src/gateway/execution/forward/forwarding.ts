import type { MeshFetch } from '@graphql-mesh/types';
import { bearer, listedResolverMaps, type BuiltMesh } from '../../mesh.ts';
import type { GatewayLog } from '../../gateway-log.ts';
import type { GatewaySettings } from '../../settings.ts';
import type { SendUpstream } from '../../upstream/upstream-call.ts';
import { fastPathBlocker } from './fast-path-blocker.ts';
import { gatewayFieldsOf } from './forwardable-operation.ts';
import { completedLinksOf } from './linked-answer.ts';
import { createSingleSourceFastPath, type SingleSourceFastPath } from './single-source-fast-path.ts';

export interface ForwardingOptions {
  settings: Pick<GatewaySettings, 'fastPathEnabled' | 'problemsUrl' | 'problemsApiKey'>;
  /** The mesh the operations would otherwise be delegated by. */
  built: BuiltMesh;
  /** Directory holding `.meshrc.yaml` (its resolver modules are imported from there). */
  baseDir?: string;
  /** The upstream steps, composed: the same instances Mesh's calls go through. */
  send: SendUpstream;
  /** The network fetch at the end of the steps. */
  network: MeshFetch;
  /** Aborts forwarded calls in flight when the gateway closes. */
  signal: AbortSignal;
  log: GatewayLog;
}

/**
 * Forwarding of operations the problems service can answer whole (single-source-fast-path.ts), over
 * the mesh as built; undefined when FAST_PATH_ENABLED=false, or when `.meshrc.yaml` changes how
 * Mesh calls the source (said in one line: fast-path-blocker.ts).
 */
export async function createForwarding({ settings, built, baseDir, send, network, signal, log }: ForwardingOptions): Promise<SingleSourceFastPath | undefined> {
  const off = settings.fastPathEnabled ? fastPathBlocker(built.config, 'Problems') : 'FAST_PATH_ENABLED=false';
  if (settings.fastPathEnabled && off) log(`single-source fast path off: ${off}`, 'warn');
  if (off) return undefined;
  return createSingleSourceFastPath({
    service: 'problems',
    sourceSchema: () => built.problemsSchema,
    gatewayFields: gatewayFieldsOf(built.additions.typeDefs, built.additions.resolvers),
    endpoint: `${settings.problemsUrl}/graphql`,
    headers: bearer(settings.problemsApiKey),
    send,
    network,
    signal,
    // The links the fast path may complete itself: those `.meshrc.yaml` still lists.
    links: completedLinksOf(await listedResolverMaps(built.config, baseDir)),
    // The mesh's own context for a request answered in front of yoga (the in-context SDK, the
    // translation runtime): the same plugins build it as build yoga's.
    contextOf: (initial) => built.mesh.getEnveloped(initial).contextFactory(),
  });
}
