// Works around @graphql-tools/delegate 12.3.3 (via @graphql-tools/stitch 10.3.1, @graphql-mesh/runtime 0.109.1): prepareGatewayDocument keeps one occurrence of a
// field per name and alias, directives ignored, so `title @include(if: false) title` reaches the source as the left-out one and comes back null; canary: test/gateway/delegation-faults.test.ts.
// Successor: still present in 12.3.3, the newest release (npm latest, what Hive Gateway and @graphql-mesh/fusion-runtime delegate with); the de-duplication came with 12.0.5 (graphql-hive/gateway#1901, e92c5a970), unchanged at e104b45.
import { getOperationAST, getVariableValues, visit, type ExecutionArgs, type SelectionNode, type SelectionSetNode } from 'graphql';
import { hasConditions, isLeftOut } from '../shape/selection-plan.ts';

/**
 * The execution's arguments with every selection `@skip`/`@include` leaves out, for these variables,
 * taken out of the document, as execution would pass them over anyway. For Mesh's delegation:
 * graphql-tools merges the occurrences of a field into the first one, directives included, so in
 * `version @include(if: false) version` the field was left out of the call to the source, and then
 * came back null ("Cannot return null for non-nullable field"). A selection is kept when it is the
 * last of its selection set (a document with an empty one is no document). The same arguments when
 * the document has no condition or the variables do not coerce (execution refuses those itself).
 */
export function withLeftOutSelectionsRemoved(args: ExecutionArgs): ExecutionArgs {
  const { schema, document, operationName, variableValues } = args;
  if (!hasConditions(document)) return args;
  const operation = getOperationAST(document, operationName ?? undefined);
  if (!operation) return args;
  const coercion = getVariableValues(schema, operation.variableDefinitions ?? [], variableValues ?? {});
  if (coercion.errors) return args;
  const variables = coercion.coerced;
  const kept = visit(document, {
    SelectionSet: {
      leave(node: SelectionSetNode) {
        const selections = node.selections.filter((selection: SelectionNode) => !isLeftOut(selection, variables));
        if (selections.length === node.selections.length) return undefined;
        return { ...node, selections: selections.length > 0 ? selections : node.selections.slice(0, 1) };
      },
    },
  });
  return kept === document ? args : { ...args, document: kept };
}
