import {
  getNamedType,
  getNullableType,
  GraphQLBoolean,
  GraphQLEnumType,
  GraphQLFloat,
  GraphQLID,
  GraphQLInt,
  GraphQLString,
  isListType,
  isNonNullType,
  isObjectType,
  Kind,
  type DocumentNode,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type SelectionSetNode,
} from 'graphql';

/** What a value must be for completion to give it back as it is. */
type ValueCheck =
  | { nonNull: boolean; leaf: (value: unknown) => boolean }
  | { nonNull: boolean; list: ValueCheck }
  | { nonNull: boolean; fields: FieldCheck[] };

interface FieldCheck {
  /** The response key (alias or name). */
  key: string;
  value: ValueCheck;
}

/** Values the built-in scalars give back unchanged: a value of another kind is coerced, or refused. */
const INT_MAX = 2 ** 31 - 1;
const UNCHANGED_LEAF = new Map<unknown, (value: unknown) => boolean>([
  [GraphQLString, (value) => typeof value === 'string'],
  [GraphQLBoolean, (value) => typeof value === 'boolean'],
  [GraphQLFloat, (value) => typeof value === 'number' && Number.isFinite(value)],
  [GraphQLInt, (value) => Number.isInteger(value) && (value as number) <= INT_MAX && (value as number) >= -INT_MAX - 1],
  // An ID given as a number comes out as a string.
  [GraphQLID, (value) => typeof value === 'string'],
]);

/**
 * A test that the source's data for a plain operation (no fragments, no directives, object and
 * built-in leaf types only) is already exactly what completing it against the public schema gives
 * (linked-answer.ts): every selected key present, in selection order and nothing else, no null in
 * a non-null field, lists where lists belong, and each leaf a value its type gives back unchanged
 * (a string for String and ID, an integer in range for Int, a finite number for Float, a boolean,
 * one of the enum's names, the type's own name for `__typename`). A well-behaved source answers
 * so every time, and the test walks the data once where completion executes the operation over
 * it; any other answer (a broken one included) is completed as before, so the two agree for every
 * input. Undefined when the operation is not plain: it is always completed.
 */
export function unchangedByCompletion(schema: GraphQLSchema, document: DocumentNode, operationName: string | null | undefined): ((data: Record<string, unknown>) => boolean) | undefined {
  let byName = plans.get(document);
  if (!byName) plans.set(document, (byName = new Map()));
  const name = operationName ?? '';
  let plan = byName.get(name);
  if (plan === undefined) {
    plan = planOf(schema, document, operationName) ?? null;
    byName.set(name, plan);
  }
  if (!plan) return undefined;
  const fields = plan;
  return (data) => fieldsUnchanged(data, fields);
}

/** Plans per document (a prepared operation's document is the same object every time), by operation name. */
const plans = new WeakMap<DocumentNode, Map<string, FieldCheck[] | null>>();

function planOf(schema: GraphQLSchema, document: DocumentNode, operationName: string | null | undefined): FieldCheck[] | undefined {
  const operations = document.definitions.filter((definition) => definition.kind === Kind.OPERATION_DEFINITION);
  const operation = operationName ? operations.find((definition) => definition.name?.value === operationName) : operations.length === 1 ? operations[0] : undefined;
  const queryType = schema.getQueryType();
  if (!operation || operation.operation !== 'query' || !queryType || document.definitions.some((definition) => definition.kind === Kind.FRAGMENT_DEFINITION)) return undefined;
  if (operation.directives?.length) return undefined;
  return fieldsOf(operation.selectionSet, queryType);
}

function fieldsOf(selectionSet: SelectionSetNode, parentType: GraphQLObjectType): FieldCheck[] | undefined {
  const fields: FieldCheck[] = [];
  const keys = new Set<string>();
  const definitions = parentType.getFields();
  for (const selection of selectionSet.selections) {
    if (selection.kind !== Kind.FIELD || selection.directives?.length) return undefined;
    const key = selection.alias?.value ?? selection.name.value;
    // The same key twice is merged by execution: left to completion.
    if (keys.has(key)) return undefined;
    keys.add(key);
    if (selection.name.value === '__typename') {
      const typename = parentType.name;
      fields.push({ key, value: { nonNull: true, leaf: (value) => value === typename } });
      continue;
    }
    const definition = definitions[selection.name.value];
    if (!definition) return undefined;
    const value = valueCheckOf(definition.type, selection.selectionSet);
    if (!value) return undefined;
    fields.push({ key, value });
  }
  return fields;
}

function valueCheckOf(type: GraphQLOutputType, selectionSet: SelectionSetNode | undefined): ValueCheck | undefined {
  const nonNull = isNonNullType(type);
  const nullable = getNullableType(type);
  if (isListType(nullable)) {
    const list = valueCheckOf(nullable.ofType, selectionSet);
    return list && { nonNull, list };
  }
  const named = getNamedType(nullable);
  if (isObjectType(named)) {
    const fields = selectionSet && fieldsOf(selectionSet, named);
    return fields && { nonNull, fields };
  }
  if (named instanceof GraphQLEnumType) {
    // Only an enum whose values are their names gives a name back unchanged.
    if (named.getValues().some((value) => value.value !== value.name)) return undefined;
    return { nonNull, leaf: (value) => typeof value === 'string' && named.getValue(value) !== undefined };
  }
  const leaf = UNCHANGED_LEAF.get(named);
  return leaf && { nonNull, leaf };
}

function fieldsUnchanged(object: Record<string, unknown>, fields: FieldCheck[]): boolean {
  let index = 0;
  for (const key in object) {
    const field = fields[index];
    if (field?.key !== key || !valueUnchanged(object[key], field.value)) return false;
    index += 1;
  }
  return index === fields.length;
}

function valueUnchanged(value: unknown, check: ValueCheck): boolean {
  if (value === null) return !check.nonNull;
  if ('leaf' in check) return check.leaf(value);
  if ('list' in check) {
    if (!Array.isArray(value)) return false;
    for (const item of value) if (!valueUnchanged(item, check.list)) return false;
    return true;
  }
  return typeof value === 'object' && value !== undefined && !Array.isArray(value) && fieldsUnchanged(value as Record<string, unknown>, check.fields);
}
