import {
  getNamedType,
  isListType,
  isNonNullType,
  isObjectType,
  isInterfaceType,
  Kind,
  valueFromAST,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type FieldNode,
} from 'graphql';

/**
 * Extra cost of fields that reach the translation service, the costly upstream: by `Type.field`,
 * given the field's arguments. Every other field costs 1.
 */
export const FIELD_WEIGHTS: Record<string, (args: Record<string, unknown>) => number> = {
  'Problem.translation': () => 20,
  'TranslationQuery.translate': () => 10,
  'TranslationQuery.translateMany': (args) => 10 * (Array.isArray(args.texts) ? Math.max(1, args.texts.length) : 1),
  'TranslationQuery.detect': () => 10,
  'TranslationQuery.languages': () => 5,
};

/** Fields whose presence makes an operation count against the translation rate limit. */
const TRANSLATION_FIELDS = new Set(['Problem.translation', 'Query.translation']);

export interface OperationEstimate {
  /** Weighted field count, multiplied through list sizes (`first`, or the length of a list argument). */
  cost: number;
  rootFields: number;
  /** Whether any field reaches the translation service. */
  usesTranslation: boolean;
  /** The longest string among all argument values (nested input fields and lists included). */
  longestArgument?: { name: string; length: number };
}

const estimates = new WeakMap<object, OperationEstimate | undefined>();

/** The estimate of the operation an execution runs, computed once however many plugins ask. */
export function estimateExecution(args: {
  schema: GraphQLSchema;
  document: DocumentNode;
  operationName?: string | null;
  variableValues?: Record<string, unknown> | null;
}): OperationEstimate | undefined {
  if (!estimates.has(args)) estimates.set(args, estimateOperation(args.schema, args.document, args.operationName, args.variableValues ?? {}));
  return estimates.get(args);
}

/**
 * Estimates what an operation will cost before it runs. A field under a paginated list counts once
 * per item it may return (`first`, with its default when absent), so `problems(first: 100)` with a
 * translation per problem costs what 100 translations cost. Runs after validation: fragments are
 * known to exist and not to cycle.
 */
export function estimateOperation(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
  variables: Record<string, unknown> = {},
): OperationEstimate | undefined {
  const operations = document.definitions.filter((definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION);
  const operation = operationName ? operations.find((candidate) => candidate.name?.value === operationName) : operations[0];
  if (!operation) return undefined;
  const rootType = schema.getRootType(operation.operation);
  if (!rootType) return undefined;
  const fragments = new Map(
    document.definitions
      .filter((definition): definition is FragmentDefinitionNode => definition.kind === Kind.FRAGMENT_DEFINITION)
      .map((fragment) => [fragment.name.value, fragment]),
  );
  let usesTranslation = false;
  let longestArgument: OperationEstimate['longestArgument'];
  const measure = (name: string, value: unknown): void => {
    if (typeof value === 'string') {
      if (!longestArgument || value.length > longestArgument.length) longestArgument = { name, length: value.length };
    } else if (Array.isArray(value)) {
      for (const item of value) measure(name, item);
    } else if (value && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) measure(`${name}.${key}`, item);
    }
  };

  // Cost is linear in the multiplier, so each (selection set, type) is costed once per unit and
  // scaled: a document that spreads fragments into fragments costs time linear in its size, however
  // many times the same fragment is reached.
  const unitCosts = new Map<SelectionSetNode, Map<string, number>>();
  const unitCostOf = (selectionSet: SelectionSetNode, type: GraphQLNamedType): number => {
    let byType = unitCosts.get(selectionSet);
    if (!byType) unitCosts.set(selectionSet, (byType = new Map()));
    const known = byType.get(type.name);
    if (known !== undefined) return known;
    byType.set(type.name, 0); // a cycle (impossible after validation) would count as free, not loop
    let total = 0;
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.INLINE_FRAGMENT) {
        const condition = selection.typeCondition ? schema.getType(selection.typeCondition.name.value) : type;
        if (condition) total += unitCostOf(selection.selectionSet, condition);
        continue;
      }
      if (selection.kind === Kind.FRAGMENT_SPREAD) {
        const fragment = fragments.get(selection.name.value);
        const condition = fragment && schema.getType(fragment.typeCondition.name.value);
        if (fragment && condition) total += unitCostOf(fragment.selectionSet, condition);
        continue;
      }
      if (!isObjectType(type) && !isInterfaceType(type)) continue;
      const field = type.getFields()[selection.name.value];
      if (!field) continue; // __typename and the like
      const coordinate = `${type.name}.${field.name}`;
      if (TRANSLATION_FIELDS.has(coordinate)) usesTranslation = true;
      const args = argumentValues(field, selection, variables);
      for (const [name, value] of Object.entries(args)) measure(name, value);
      total += FIELD_WEIGHTS[coordinate]?.(args) ?? 1;
      if (selection.selectionSet) total += listSize(field, args) * unitCostOf(selection.selectionSet, getNamedType(field.type));
    }
    byType.set(type.name, total);
    return total;
  };

  /** Root fields selected, fragments included; each fragment is counted once per type. */
  const rootCounts = new Map<SelectionSetNode, number>();
  const countRootFields = (selectionSet: SelectionSetNode): number => {
    const known = rootCounts.get(selectionSet);
    if (known !== undefined) return known;
    rootCounts.set(selectionSet, 0);
    let count = 0;
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.FIELD) count += selection.name.value.startsWith('__') ? 0 : 1;
      else if (selection.kind === Kind.INLINE_FRAGMENT) count += countRootFields(selection.selectionSet);
      else {
        const fragment = fragments.get(selection.name.value);
        if (fragment) count += countRootFields(fragment.selectionSet);
      }
    }
    rootCounts.set(selectionSet, count);
    return count;
  };

  const cost = unitCostOf(operation.selectionSet, rootType);
  const rootFields = countRootFields(operation.selectionSet);
  return { cost, rootFields, usesTranslation, longestArgument };
}

const CONNECTION_LISTS = new Set(['nodes', 'edges']);

/** Items assumed for a list of objects that has no `first` argument (a contest's problems, a user's history). */
export const UNPAGED_LIST_SIZE = 10;

/**
 * How many items a field may return: its `first` argument (paginated lists); for other lists
 * UNPAGED_LIST_SIZE, so a nested list of problems is not counted as one; else 1.
 */
function listSize(field: GraphQLField<unknown, unknown>, args: Record<string, unknown>): number {
  const first = args.first;
  if (typeof first === 'number' && first > 0) return first;
  // A connection's `nodes`/`edges` hold the `first` items already counted at the connection.
  if (CONNECTION_LISTS.has(field.name)) return 1;
  const type = isNonNullType(field.type) ? field.type.ofType : field.type;
  return isListType(type) ? UNPAGED_LIST_SIZE : 1;
}

function argumentValues(field: GraphQLField<unknown, unknown>, node: FieldNode, variables: Record<string, unknown>): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const definition of field.args) {
    const argument = node.arguments?.find((candidate) => candidate.name.value === definition.name);
    if (argument) values[definition.name] = valueFromAST(argument.value, definition.type, variables);
    else if (definition.defaultValue !== undefined) values[definition.name] = definition.defaultValue;
  }
  return values;
}
