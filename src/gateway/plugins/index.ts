import type { MeshPlugin } from '@graphql-mesh/types';
import type { GatewaySettings } from '../settings.ts';
import { useProblemsCache } from './use-problems-cache.ts';
import { useUpstreamAuthorization } from './use-upstream-authorization.ts';
import { useUpstreamErrors } from './use-upstream-errors.ts';
import { useUpstreamRetries } from './use-upstream-retries.ts';

/**
 * The gateway's own Mesh plugins (only Mesh plugins see upstream fetches). Order matters for the
 * fetch hooks: each wraps the fetch of those before it, so the cache sits outermost (a hit skips
 * everything), error shaping sees the final outcome of the retries, and retries wrap the raw call.
 */
export function gatewayPlugins(
  settings: Pick<GatewaySettings, 'problemsTimeoutMs' | 'translationTimeoutMs' | 'upstreamRetries' | 'problemsCacheTtlSeconds'>,
): MeshPlugin<object>[] {
  return [
    useUpstreamAuthorization(),
    useUpstreamRetries({
      timeoutMs: { problems: settings.problemsTimeoutMs, translation: settings.translationTimeoutMs },
      retries: settings.upstreamRetries,
    }),
    useUpstreamErrors(),
    useProblemsCache({ ttlMs: settings.problemsCacheTtlSeconds * 1000 }),
  ];
}
