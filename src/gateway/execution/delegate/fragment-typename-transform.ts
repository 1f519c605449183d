// Works around @graphql-tools/delegate 12.3.3 (via @graphql-tools/stitch 10.3.1, @graphql-mesh/runtime 0.109.1): finalizeGatewayRequest drops a plain
// `__typename` from an inline fragment, so `problem { ... on Problem { __typename } }` becomes an empty call ("Failed to create a gateway request"); canary: test/gateway/delegation-faults.test.ts.
// Successor: still present in 12.3.3, the newest release (npm latest, what Hive Gateway and @graphql-mesh/fusion-runtime delegate with); same code (filterTypenameFields) in graphql-hive/gateway e104b45, no fix or issue found.
import { Kind, visit, type FieldNode, type SelectionNode, type SelectionSetNode } from 'graphql';
import type { MeshTransform } from '@graphql-mesh/types';

const TYPENAME: FieldNode = { kind: Kind.FIELD, name: { kind: Kind.NAME, value: '__typename' } };

/** A plain `__typename` (no alias), the only form delegation treats specially. */
function isPlainTypename(selection: SelectionNode): boolean {
  return selection.kind === Kind.FIELD && selection.name.value === '__typename' && !selection.alias;
}

/** Whether an inline fragment among `selections` (nested ones included) selects a plain `__typename`. */
function typenameInInlineFragment(selections: readonly SelectionNode[]): boolean {
  return selections.some(
    (selection) =>
      selection.kind === Kind.INLINE_FRAGMENT &&
      (selection.selectionSet.selections.some(isPlainTypename) || typenameInInlineFragment(selection.selectionSet.selections)),
  );
}

/**
 * Keeps a field whose selections ask `__typename` only inside inline fragments from vanishing on its
 * way to a source. graphql-tools' delegation (finalizeGatewayRequest) takes every plain `__typename`
 * out of an inline fragment, drops a fragment left empty, and puts `__typename` back at the level
 * above only when that level asked for it itself or is abstract. So `problem(id: …) { ... on Problem
 * { __typename } }` reached the source as nothing at all, and the whole answer was
 * `data: null` with "Failed to create a gateway request. The request must contain at least one
 * operation." (with other fields beside it, only the field's selection went, and the answer was
 * still right: the gateway names a concrete type itself). This asks `__typename` at the level of
 * such a fragment in the request sent to the source, as delegation does for abstract types; the
 * client's answer is still shaped by the client's own document.
 */
export function fragmentTypenameTransform(): MeshTransform {
  return {
    transformRequest(request) {
      const document = visit(request.document, {
        SelectionSet(node: SelectionSetNode) {
          if (node.selections.some(isPlainTypename) || !typenameInInlineFragment(node.selections)) return undefined;
          return { ...node, selections: [TYPENAME, ...node.selections] };
        },
      });
      return document === request.document ? request : { ...request, document };
    },
  };
}
