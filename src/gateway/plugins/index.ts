import type { MeshPlugin } from '@graphql-mesh/types';
import { useUpstreamAuthorization } from './use-upstream-authorization.ts';
import { useUpstreamErrors } from './use-upstream-errors.ts';

/**
 * The gateway's own plugins, in order. They are Mesh plugins (given to `getMesh`) because only
 * those see upstream fetches; yoga-level concerns can sit here too.
 */
export function gatewayPlugins(): MeshPlugin<object>[] {
  return [useUpstreamAuthorization(), useUpstreamErrors()];
}
