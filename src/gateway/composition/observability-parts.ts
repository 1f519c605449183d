import type { GatewayLog } from '../gateway-log.ts';
import { createObservability, startTracing, type Observability, type ObservabilityOptions } from '../observability/index.ts';
import type { GatewaySettings } from '../settings.ts';
import type { SharedStores } from '../shared-stores.ts';

export interface ObservabilityPartsOptions extends Pick<ObservabilityOptions, 'graphqlEndpoint' | 'requestLog' | 'problemsSchema' | 'fetch'> {
  shared: SharedStores | undefined;
  log: GatewayLog;
}

/**
 * The request log, metrics, traces and readiness of the gateway, started before anything they
 * observe: tracing loaded when OTEL_EXPORTER_OTLP_ENDPOINT asks for it, and the translation key
 * checked once, so a wrong key is said at start rather than by a reader's first refused field.
 */
export async function startObservability(settings: GatewaySettings, { graphqlEndpoint, requestLog, problemsSchema, fetch, shared, log }: ObservabilityPartsOptions): Promise<Observability> {
  const observability = createObservability({
    settings,
    graphqlEndpoint,
    requestLog,
    tracing: await startTracing(settings),
    // Reported beside the upstreams, as degraded when away, never as not ready.
    readinessDependencies: shared ? { redis: () => shared.check() } : undefined,
    problemsSchema,
    // The readiness checks and the key check go through the upstream calls' own Pool.
    fetch,
  });
  await observability.checkKeyAtStart(log);
  return observability;
}
