import type { YamlConfig } from '@graphql-mesh/types';

/** Root-level transforms that only take parts of the schema away: what remains keeps the source's names. */
const REMOVING_TRANSFORMS = new Set(['filterSchema', 'prune']);

/** GraphQL handler options the fast path honours; any other changes how the handler calls the source. */
const HONOURED_HANDLER_OPTIONS = new Set(['endpoint', 'source', 'operationHeaders', 'schemaHeaders']);

/**
 * Why operations may not go to the GraphQL source `sourceName` whole under `config`, or undefined
 * when they may. The fast path sends the client's fields under their public names, so nothing may
 * rename or reshape the source on the way (a transform of the source, a root-level transform other
 * than filtering and pruning), and nothing may act on delegated calls that a forwarded one would
 * skip (a plugin of .meshrc.yaml, a handler option such as GET, batching or a timeout of its own).
 */
export function fastPathBlocker(config: YamlConfig.Config, sourceName: string): string | undefined {
  const source = config.sources.find((each) => each.name === sourceName);
  const handler = source?.handler.graphql as Record<string, unknown> | undefined;
  if (!source || !handler) return `no GraphQL source named ${sourceName}`;
  if (source.transforms?.length) return `the ${sourceName} source has transforms`;
  const option = Object.keys(handler).find((key) => !HONOURED_HANDLER_OPTIONS.has(key));
  if (option) return `the ${sourceName} handler sets \`${option}\``;
  const transform = (config.transforms ?? []).flatMap((each) => Object.keys(each)).find((name) => !REMOVING_TRANSFORMS.has(name));
  if (transform) return `a root-level \`${transform}\` transform`;
  if (config.plugins?.length) return 'plugins declared in .meshrc.yaml';
  return undefined;
}
