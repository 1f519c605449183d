import {
  getNamedType,
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

  const fieldsOf = (selectionSet: SelectionSetNode, type: GraphQLNamedType, visited: Set<string>): { node: FieldNode; type: GraphQLNamedType }[] =>
    selectionSet.selections.flatMap((selection) => {
      if (selection.kind === Kind.FIELD) return [{ node: selection, type }];
      if (selection.kind === Kind.INLINE_FRAGMENT) {
        const condition = selection.typeCondition ? schema.getType(selection.typeCondition.name.value) : type;
        return condition ? fieldsOf(selection.selectionSet, condition, visited) : [];
      }
      const fragment = fragments.get(selection.name.value);
      if (!fragment || visited.has(fragment.name.value)) return [];
      const condition = schema.getType(fragment.typeCondition.name.value);
      return condition ? fieldsOf(fragment.selectionSet, condition, new Set([...visited, fragment.name.value])) : [];
    });

  const costOf = (selectionSet: SelectionSetNode, type: GraphQLNamedType, multiplier: number): number => {
    let total = 0;
    for (const { node, type: parent } of fieldsOf(selectionSet, type, new Set())) {
      if (!isObjectType(parent) && !isInterfaceType(parent)) continue;
      const field = parent.getFields()[node.name.value];
      if (!field) continue; // __typename and the like
      const coordinate = `${parent.name}.${field.name}`;
      if (TRANSLATION_FIELDS.has(coordinate)) usesTranslation = true;
      const args = argumentValues(field, node, variables);
      for (const [name, value] of Object.entries(args)) measure(name, value);
      const weight = FIELD_WEIGHTS[coordinate]?.(args) ?? 1;
      total += multiplier * weight;
      if (node.selectionSet) total += costOf(node.selectionSet, getNamedType(field.type), multiplier * listSize(args));
    }
    return total;
  };

  const cost = costOf(operation.selectionSet, rootType, 1);
  const rootFields = fieldsOf(operation.selectionSet, rootType, new Set()).filter(({ node }) => !node.name.value.startsWith('__')).length;
  return { cost, rootFields, usesTranslation, longestArgument };
}

/**
 * How many items a field may return: its `first` argument (paginated lists), else 1. Lists without
 * `first` (tags, examples, the judge's languages) are short and fixed, so they count as one.
 */
function listSize(args: Record<string, unknown>): number {
  const first = args.first;
  return typeof first === 'number' && first > 0 ? first : 1;
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
