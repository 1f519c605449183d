import { createLiveProblemsSchema, type LiveProblemsSchema, type LiveProblemsSchemaOptions } from '../schema/live-problems-schema.ts';
import type { GatewaySettings } from '../settings.ts';
import type { UpstreamFetch } from '../upstream/upstream-fetch.ts';

export interface ProblemsSchemaPartsOptions extends Pick<LiveProblemsSchemaOptions, 'snapshotPath' | 'givenPath' | 'onChange' | 'onFailure' | 'onAnswer' | 'log'> {
  upstreamFetch: UpstreamFetch;
}

/**
 * The problems schema, as the service says it is now (schema/live-problems-schema.ts): introspected
 * at start with the committed snapshot as the fallback, then followed while running. A schema
 * given as `givenPath` is pinned: nothing is introspected.
 */
export function liveProblemsSchema(settings: GatewaySettings, { upstreamFetch, ...rest }: ProblemsSchemaPartsOptions): LiveProblemsSchema {
  return createLiveProblemsSchema({
    introspection: {
      endpoint: `${settings.problemsUrl}/graphql`,
      apiKey: settings.problemsApiKey,
      timeoutMs: settings.problemsTimeoutMs,
      maxBytes: settings.problemsMaxResponseBytes,
      // The upstream calls' own pools, which take a URL as the mesh's calls do.
      fetch: upstreamFetch.fetch as unknown as typeof fetch,
    },
    pollMs: settings.problemsSchemaPollSeconds * 1000,
    bounds: { maxTypes: settings.problemsSchemaMaxTypes, maxFields: settings.problemsSchemaMaxFields, maxEnumValues: settings.problemsSchemaMaxEnumValues },
    ...rest,
  });
}
