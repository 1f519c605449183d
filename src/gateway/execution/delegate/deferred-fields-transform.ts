// Works around @graphql-tools/delegate 12.3.3 (via @graphql-tools/stitch 10.3.1, @graphql-mesh/runtime 0.109.1): finalizeGatewayRequest leaves fields under
// `@defer` out of the call and, with no merged type to fetch them later, they come back null ("Cannot return null for non-nullable field"); canary: test/gateway/delegation-faults.test.ts.
// Successor: 12.3.0 (graphql-hive/gateway#2672) forwards @defer to a source only when its subschema says `defer: true` (Hive Gateway's deferStream.subgraph), which Mesh v0 never sets; the default still drops them in 12.3.3.
import { visit, type FragmentSpreadNode, type InlineFragmentNode } from 'graphql';
import type { MeshTransform } from '@graphql-mesh/types';

/**
 * Fetches the fields under `@defer` with the rest of a delegated call. graphql-tools' delegation
 * (finalizeGatewayRequest) keeps out of the call what sits in a deferred fragment, except the keys
 * it needs, and nothing fetched them later: `{ problem(id: …) { id ... @defer { title } } }` came
 * back with `title: null` and "Cannot return null for non-nullable field Problem.title" in its
 * increment. Without the directive in the call the source answers the whole selection at once, and
 * the gateway's execution, which reads the client's own document, still delivers the deferred
 * parts later, as it does on the fast path (which sends the operation without `@defer` too).
 */
export function deferredFieldsTransform(): MeshTransform {
  const withoutDefer = (node: InlineFragmentNode | FragmentSpreadNode) => {
    if (!node.directives?.some((directive) => directive.name.value === 'defer')) return undefined;
    return { ...node, directives: node.directives.filter((directive) => directive.name.value !== 'defer') };
  };
  return {
    transformRequest(request) {
      const document = visit(request.document, { InlineFragment: withoutDefer, FragmentSpread: withoutDefer });
      return document === request.document ? request : { ...request, document };
    },
  };
}
