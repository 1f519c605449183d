import { Kind, getOperationAST, type DocumentNode, type ExecutionResult, type GraphQLSchema } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { estimateExecution } from './operation-cost.ts';
import { hasConditions, selectionPlan, type Fragments, type SelectionPlan } from './selection-plan.ts';

/**
 * GraphQL answers keep the order of the selection set; Mesh's execution builds each object in the
 * order its fields complete (batched problems fields after plain ones, one source after another), so
 * `a, b, c` could come back `a, c, b`. This puts every object of the answer back in the order the
 * operation asked for, fragments and aliases included, and leaves objects already in order as they are.
 */
export function useSelectionOrder(): Plugin {
  // yoga hands the same parsed document to every request with the same text: its ordering (and the
  // plan it makes) is worked out once per document and operation name.
  const orders = new WeakMap<DocumentNode, Map<string, ReturnType<typeof selectionOrderOf>>>();
  const orderOf = (schema: GraphQLSchema, document: DocumentNode, operationName: string | null | undefined) => {
    let byName = orders.get(document);
    if (!byName) orders.set(document, (byName = new Map()));
    const name = operationName ?? '';
    if (!byName.has(name)) byName.set(name, selectionOrderOf(schema, document, operationName));
    return byName.get(name);
  };
  return {
    onExecute({ args }) {
      const document = args.document as DocumentNode;
      const inOrder = orderOf(args.schema, document, args.operationName);
      if (!inOrder) return;
      return {
        onExecuteDone({ result, setResult }) {
          if (Symbol.asyncIterator in result) return;
          const answer = result as ExecutionResult;
          // The variables as execution coerced them (defaults applied), needed for @skip and @include only.
          const variables = hasConditions(document) ? (estimateExecution(args)?.coercedVariables ?? args.variableValues ?? {}) : NO_VARIABLES;
          const ordered = inOrder(answer, variables);
          if (ordered !== answer) setResult(ordered);
        },
      };
    },
  };
}

const NO_VARIABLES: Record<string, unknown> = Object.freeze({});

/**
 * What puts a result of this operation in selection order (the same result when it already is), or
 * undefined when the document has no such operation. The plugin's work, for answers completed
 * outside yoga too (the direct lane's delegated fallback). A field's place is that of its first
 * occurrence `@skip`/`@include` leaves in, as execution collects fields: given `variables` (coerced),
 * a selection they leave out does not count.
 */
export function selectionOrderOf(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName?: string | null,
): ((result: ExecutionResult, variables: Record<string, unknown>) => ExecutionResult) | undefined {
  const operation = getOperationAST(document, operationName ?? undefined);
  const rootType = operation && schema.getRootType(operation.operation);
  if (!operation || !rootType) return undefined;
  // Typed, so that objects of an interface or a union are ordered by what their own type was asked.
  const typing = { schema, type: rootType };
  const fragments: Fragments = {};
  for (const definition of document.definitions) if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments[definition.name.value] = definition;
  // Without @skip or @include the order is the document's alone: made once, at the first answer
  // with data, and kept (the direct lane orders every answer of an operation with the same
  // function). With them, it depends on the request's variables.
  const conditional = hasConditions(document);
  let plan: SelectionPlan | undefined;
  return (result, variables) => {
    if (!result.data) return result;
    const current = conditional ? selectionPlan([operation.selectionSet], fragments, variables, typing) : (plan ??= selectionPlan([operation.selectionSet], fragments, undefined, typing));
    const data = ordered(result.data, current);
    return data === result.data ? result : { ...result, data: data as ExecutionResult['data'] };
  };
}

/**
 * `value` with every object's keys in selection order; the same object when nothing moved. Nothing
 * is copied until something has moved: answers are almost always in order already, and this runs
 * over every object of every answer.
 */
function ordered(value: unknown, levelPlan: SelectionPlan): unknown {
  if (Array.isArray(value)) {
    let items: unknown[] | undefined;
    for (let index = 0; index < value.length; index += 1) {
      const next = ordered(value[index], levelPlan);
      if (next !== value[index]) (items ??= value.slice())[index] = next;
    }
    return items ?? value;
  }
  if (value === null || typeof value !== 'object') return value;
  const object = value as Record<string, unknown>;
  const plan = levelPlan.of(object);
  const keys = Object.keys(object);
  const order: string[] = [];
  for (const key of plan.keys) if (key in object) order.push(key);
  for (const key of keys) if (!plan.asked.has(key)) order.push(key);
  let result: Record<string, unknown> | undefined;
  for (let index = 0; index < order.length; index += 1) {
    const key = order[index];
    const child = plan.child(key);
    const next = child ? ordered(object[key], child) : object[key];
    if (!result && (next !== object[key] || keys[index] !== key)) {
      // The first change: the keys before it are copied as they were.
      result = {};
      for (let before = 0; before < index; before += 1) result[order[before]] = object[order[before]];
    }
    if (result) result[key] = next;
  }
  return result ?? value;
}
