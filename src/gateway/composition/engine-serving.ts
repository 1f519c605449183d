import type { RequestListener } from 'node:http';
import type { GatewayLog } from '../gateway-log.ts';
import type { GatewayYoga } from '../gateway-yoga.ts';
import type { NodeAdapter } from '../pipeline/front-door/node-transport.ts';
import { createEngineSlot, releasedWhenSent, type EngineSlot } from '../schema/engine-slot.ts';
import type { IntrospectedSchema } from '../schema/introspection.ts';
import type { LiveProblemsSchema } from '../schema/live-problems-schema.ts';
import type { PrewarmTarget } from '../translation/prewarm/translation-prewarm.ts';
import type { Engine } from './engine.ts';

export interface EngineServingOptions {
  problemsSchema: Pick<LiveProblemsSchema, 'start' | 'status' | 'stop'>;
  buildEngine: (problems: IntrospectedSchema) => Promise<Engine>;
  log: GatewayLog;
  /** Told when a replaced engine has been released (see `GatewayOptions.onEngineReleased`). */
  onEngineReleased?: () => void;
  /** Told when a new engine has been swapped in. */
  onSwapped: () => void;
}

/** The engine serving now, how a new one replaces it, and the entries that hold it for each request. */
export interface EngineServing {
  engines: EngineSlot<Engine>;
  /**
   * Builds an engine for the schema beside the current one; resolves to the swap (the live schema
   * calls it in the turn it tells the new hash). Rejects when the schema cannot be built.
   */
  buildSwap(next: IntrospectedSchema): Promise<() => void>;
  listener: RequestListener;
  checkContinue: RequestListener;
  yoga: GatewayYoga;
  /** yoga alone, behind no front door (see yogaAloneOf). */
  yogaAlone: GatewayYoga;
  /** No engine is swapped in from now on; disposes the current one and waits for the retired ones. */
  close(): Promise<void>;
}

/**
 * Builds the first engine and serves it: a request runs on the engine current when it arrives, and
 * holds it until its response is sent; a new schema's engine is built beside the current one, then
 * swapped in whole (schema/engine-slot.ts).
 */
export async function serveEngines({ problemsSchema, buildEngine, log, onEngineReleased, onSwapped }: EngineServingOptions): Promise<EngineServing> {
  // The first engine: on the live schema, or on the snapshot when the service cannot be introspected
  // (said in one line, and in /readiness).
  const initial = await problemsSchema.start();
  const first = await buildEngine(initial).catch((error: unknown) => {
    // Never the snapshot in its place: it would not match a service that answers, and say ready.
    if (problemsSchema.status().source !== 'live') throw error;
    throw new Error(`the problems service's schema cannot be built (${(error as Error).message}); the gateway does not start on the committed snapshot, which does not match the service`);
  });
  const engines = createEngineSlot(first, {
    onDisposeError: (error) => log(`problems schema: an engine failed to close: ${(error as Error).message}`, 'warn'),
    onReleased: onEngineReleased,
  });
  // Built beside the current engine, then swapped in whole when the live schema says (in the turn it
  // tells the new hash); a schema that fails to build leaves the current one serving
  // (live-problems-schema.ts says so once and counts it).
  let closing = false;
  const buildSwap = async (next: IntrospectedSchema) => {
    const engine = await buildEngine(next);
    return () => {
      // Built while the gateway was closing: nothing will serve it.
      if (closing) return void engine.dispose().catch(() => undefined);
      engines.swap(engine);
      onSwapped();
    };
  };
  return {
    engines,
    buildSwap,
    ...leasedEntries(engines),
    close: async () => {
      closing = true;
      problemsSchema.stop();
      await engines.close();
    },
  };
}

/** The engine serving now, held for one page of prewarming as a request holds it: Mesh's own execution of the link over its schema. */
export function leaseForPrewarm(engines: EngineSlot<Engine>): PrewarmTarget {
  const lease = engines.lease();
  return { execute: lease.engine.execute, schema: lease.engine.schema, release: lease.release };
}

/**
 * yoga alone over the engine serving now, behind no front door (its own plugin runs the head
 * guards): what the differential tests compare the front door's answers with, forwarding and Mesh's
 * delegation as yoga runs them. Not part of the package's API: reached only through yogaAloneOf,
 * which the package does not export.
 */
const YOGA_ALONE = Symbol('yoga alone');

/** yoga alone of a gateway made by createGateway (see YOGA_ALONE). */
export function yogaAloneOf(gateway: object): GatewayYoga {
  const found = (gateway as { [YOGA_ALONE]?: GatewayYoga })[YOGA_ALONE];
  if (!found) throw new TypeError('not a gateway made by createGateway');
  return found;
}

/** Gives the gateway its yoga alone (see YOGA_ALONE), hidden from its enumerable properties. */
export function withYogaAlone<T extends object>(gateway: T, yogaAlone: GatewayYoga): T {
  return Object.defineProperty(gateway, YOGA_ALONE, { value: yogaAlone });
}

/** The gateway's entries, each request on the engine current when it arrives, held until its response is sent. */
function leasedEntries(engines: EngineSlot<Engine>): { listener: RequestListener; checkContinue: RequestListener; yoga: GatewayYoga; yogaAlone: GatewayYoga } {
  const leased =
    (serve: (adapter: NodeAdapter) => RequestListener): RequestListener =>
    (request, response) => {
      const lease = engines.lease();
      response.once('close', lease.release);
      serve(lease.engine.listener)(request, response);
    };
  const leasedFetch = (handlerOf: (engine: Engine) => GatewayYoga['fetch']): GatewayYoga => ({
    fetch: async (request, ...serverContext) => {
      const lease = engines.lease();
      try {
        return releasedWhenSent(await handlerOf(lease.engine)(request, ...serverContext), lease.release);
      } catch (error) {
        lease.release();
        throw error;
      }
    },
  });
  return {
    listener: leased((adapter) => adapter),
    checkContinue: leased((adapter) => adapter.checkContinue),
    yoga: leasedFetch((engine) => engine.fetch),
    yogaAlone: leasedFetch((engine) => (request, ...serverContext) => engine.yoga.fetch(request, ...serverContext)),
  };
}
