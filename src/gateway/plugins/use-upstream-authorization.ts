import type { MeshPlugin } from '@graphql-mesh/types';

/**
 * `.meshrc.yaml` sends `Authorization: Bearer {env.X_API_KEY}` upstream. When no key is set that
 * becomes a bare "Bearer", which some services reject as malformed; drop the header instead, so
 * "no key" reaches the upstream as no key.
 */
export function useUpstreamAuthorization(): MeshPlugin<object> {
  return {
    onFetch({ options, setOptions }) {
      const headers = new Headers(options.headers as HeadersInit | undefined);
      if (/^bearer\s*$/i.test(headers.get('authorization') ?? '')) {
        headers.delete('authorization');
        setOptions({ ...options, headers: Object.fromEntries(headers) });
      }
    },
  };
}
