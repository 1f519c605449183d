import {
  getArgumentValues,
  getNamedType,
  getNullableType,
  getVariableValues,
  isListType,
  isObjectType,
  isInterfaceType,
  Kind,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  visit,
  BREAK,
} from 'graphql';
import type { OperationEstimate } from '../../request/operation-estimate.ts';
import { conditionVariablesOf } from './selection-plan.ts';
import { fieldReadsVariables } from './variable-reads.ts';

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

/** Where an operation's estimate is kept on its execution context (each operation of a batch has its own). */
const ESTIMATE = Symbol('operation estimate');

/**
 * The estimate of the operation an execution runs, computed once however many plugins ask: kept on
 * the operation's own context, per request, not in a table of the module's.
 */
export function estimateExecution(args: {
  schema: GraphQLSchema;
  document: DocumentNode;
  operationName?: string | null;
  variableValues?: Record<string, unknown> | null;
  contextValue?: unknown;
}): OperationEstimate | undefined {
  const context = args.contextValue as { [ESTIMATE]?: { of: object; estimate: OperationEstimate | undefined } } | undefined;
  const kept = context?.[ESTIMATE];
  if (kept && kept.of === args.document) return kept.estimate;
  const estimate = estimateOperation(args.schema, args.document, args.operationName, args.variableValues ?? {});
  if (context && typeof context === 'object') context[ESTIMATE] = { of: args.document, estimate };
  return estimate;
}

/**
 * Estimates what an operation will cost before it runs. A field under a paginated list counts once
 * per item it may return, so `problems(first: 100)` with a translation per problem costs what 100
 * translations cost. Arguments are read as the executor will coerce them (variable defaults, argument
 * defaults, null), since those are the values the upstream receives. Runs after validation:
 * fragments are known to exist and not to cycle. `variables` are the client's, uncoerced.
 * A plan estimates each request of its document with compileOperationEstimate instead.
 */
export function estimateOperation(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
  variables: Record<string, unknown> = {},
): OperationEstimate | undefined {
  // One request's estimate: nothing is kept, so the document is not searched for arguments reading variables.
  return estimatorOf(schema, document, operationName, false)(variables);
}

/** An operation's estimate with the variables of one request (see compileOperationEstimate). */
export type OperationEstimator = (variables: Record<string, unknown> | undefined) => OperationEstimate | undefined;

/**
 * What estimateOperation finds, split into what the document alone decides, found once (the
 * operation, its fragments, its root fields, the variables its conditions read; and the whole cost
 * walk when no field argument reads a variable), and what each request's variables decide: their
 * coercion and, when arguments read them, the walk. Made once per plan, used by every request.
 */
export function compileOperationEstimate(schema: GraphQLSchema, document: DocumentNode, operationName: string | null | undefined): OperationEstimator {
  return estimatorOf(schema, document, operationName, true);
}

/** The estimator of compileOperationEstimate; `keepsWalk`: whether a walk no variable changes is made once, for every request. */
function estimatorOf(schema: GraphQLSchema, document: DocumentNode, operationName: string | null | undefined, keepsWalk: boolean): OperationEstimator {
  const operation = operationOf(document, operationName);
  const rootType = operation && schema.getRootType(operation.operation);
  if (!operation || !rootType) return () => undefined;
  const definitions = operation.variableDefinitions ?? [];
  const fragments = fragmentsOf(document);
  const rootFields = countRootFields(fragments, new Map(), operation.selectionSet);
  const conditionVariables = conditionVariablesOf(document);
  // The same for every request when no argument reads a variable (argument defaults are the schema's).
  const fixed: WalkFindings | undefined = !keepsWalk || argumentsReadVariables(document) ? undefined : walkCost(schema, fragments, operation, rootType, {});
  return (variables = {}) => {
    // Variables that do not coerce make the executor refuse the operation before any field runs, so
    // estimating those from the raw values (for the argument-length check) lets nothing through.
    const coercion = getVariableValues(schema, definitions, variables, { maxErrors: 1 });
    const { cost, usesTranslation, longestArgument, fieldArguments } = fixed ?? walkCost(schema, fragments, operation, rootType, coercion.coerced ?? variables);
    const coercedVariables = coercion.errors ? undefined : coercion.coerced;
    const nullConditions = coercedVariables && conditionVariables.length > 0 ? conditionVariables.filter((name) => Object.hasOwn(coercedVariables, name) && coercedVariables[name] === null) : [];
    return { cost, rootFields, usesTranslation, longestArgument, fieldArguments, coercedVariables, nullConditions };
  };
}

/** What one walk over the selections finds. */
type WalkFindings = Pick<CostWalk, 'usesTranslation' | 'longestArgument' | 'fieldArguments'> & { cost: number };

/** The cost walk of `operation` with these (coerced) variables. */
function walkCost(schema: GraphQLSchema, fragments: Map<string, FragmentDefinitionNode>, operation: OperationDefinitionNode, rootType: GraphQLNamedType, variableValues: Record<string, unknown>): WalkFindings {
  const walk: CostWalk = { schema, fragments, variableValues, unitCosts: new Map(), usesTranslation: false, longestArgument: undefined, fieldArguments: [] };
  const cost = unitCostOf(walk, operation.selectionSet, rootType);
  return { cost, usesTranslation: walk.usesTranslation, longestArgument: walk.longestArgument, fieldArguments: walk.fieldArguments };
}

/** Whether any field's argument, anywhere in the document, reads a variable (a directive's do not: the walk ignores directives). */
function argumentsReadVariables(document: DocumentNode): boolean {
  let found = false;
  visit(document, {
    Field(field) {
      if (fieldReadsVariables(field)) {
        found = true;
        return BREAK;
      }
      return undefined;
    },
  });
  return found;
}

/** One estimate's walk over its document: what it reads, and what it finds on the way. */
interface CostWalk {
  schema: GraphQLSchema;
  fragments: Map<string, FragmentDefinitionNode>;
  /** The variables as coerced (the client's when they do not coerce). */
  variableValues: Record<string, unknown>;
  /**
   * Cost is linear in the multiplier, so each (selection set, type) is costed once per unit and
   * scaled: a document that spreads fragments into fragments costs time linear in its size, however
   * many times the same fragment is reached.
   */
  unitCosts: Map<SelectionSetNode, Map<string, number>>;
  usesTranslation: boolean;
  longestArgument: OperationEstimate['longestArgument'];
  fieldArguments: OperationEstimate['fieldArguments'];
}

/** The operation a request runs: the one named, else the document's first. */
function operationOf(document: DocumentNode, operationName: string | null | undefined): OperationDefinitionNode | undefined {
  const operations = document.definitions.filter((definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION);
  return operationName ? operations.find((candidate) => candidate.name?.value === operationName) : operations[0];
}

function fragmentsOf(document: DocumentNode): Map<string, FragmentDefinitionNode> {
  return new Map(
    document.definitions
      .filter((definition): definition is FragmentDefinitionNode => definition.kind === Kind.FRAGMENT_DEFINITION)
      .map((fragment) => [fragment.name.value, fragment]),
  );
}

/** The cost of one item of `type` with this selection set, fragments included (see CostWalk.unitCosts). */
function unitCostOf(walk: CostWalk, selectionSet: SelectionSetNode, type: GraphQLNamedType): number {
  let byType = walk.unitCosts.get(selectionSet);
  if (!byType) walk.unitCosts.set(selectionSet, (byType = new Map()));
  const known = byType.get(type.name);
  if (known !== undefined) return known;
  byType.set(type.name, 0); // a cycle (impossible after validation) would count as free, not loop
  let total = 0;
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.INLINE_FRAGMENT) {
      const condition = selection.typeCondition ? walk.schema.getType(selection.typeCondition.name.value) : type;
      if (condition) total += unitCostOf(walk, selection.selectionSet, condition);
    } else if (selection.kind === Kind.FRAGMENT_SPREAD) {
      const fragment = walk.fragments.get(selection.name.value);
      const condition = fragment && walk.schema.getType(fragment.typeCondition.name.value);
      if (fragment && condition) total += unitCostOf(walk, fragment.selectionSet, condition);
    } else if (isObjectType(type) || isInterfaceType(type)) {
      const field = type.getFields()[selection.name.value];
      if (field) total = withFieldCost(walk, total, selection, field, type); // else __typename and the like
    }
  }
  byType.set(type.name, total);
  return total;
}

/** `total` with one field's cost added (its weight, then what it selects times the items it may return); its arguments measured on the way. */
function withFieldCost(walk: CostWalk, total: number, selection: FieldNode, field: GraphQLField<unknown, unknown>, type: GraphQLNamedType): number {
  const coordinate = `${type.name}.${field.name}`;
  if (TRANSLATION_FIELDS.has(coordinate)) walk.usesTranslation = true;
  let args: Record<string, unknown>;
  try {
    args = getArgumentValues(field, selection, walk.variableValues);
  } catch {
    // The executor fails this field on the same error (e.g. null for a non-null argument) and
    // never resolves what is under it.
    return total + 1;
  }
  for (const [name, value] of Object.entries(args)) measureArgument(walk, name, name, value);
  if (Object.keys(args).length > 0) walk.fieldArguments.push({ coordinate, args });
  total += FIELD_WEIGHTS[coordinate]?.(args) ?? 1;
  if (selection.selectionSet) total += listSize(field, args) * unitCostOf(walk, selection.selectionSet, getNamedType(field.type));
  return total;
}

/** Keeps the longest string argument, strings inside lists and input objects included, by name and path. */
function measureArgument(walk: CostWalk, name: string, path: string, value: unknown): void {
  if (typeof value === 'string') {
    if (!walk.longestArgument || value.length > walk.longestArgument.length) walk.longestArgument = { name, path, length: value.length };
  } else if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) measureArgument(walk, name, `${path}[${index}]`, value[index]);
  } else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) measureArgument(walk, `${name}.${key}`, `${path}.${key}`, item);
  }
}

/** Root fields selected, fragments included; each fragment is counted once per type. */
function countRootFields(fragments: Map<string, FragmentDefinitionNode>, counts: Map<SelectionSetNode, number>, selectionSet: SelectionSetNode): number {
  const known = counts.get(selectionSet);
  if (known !== undefined) return known;
  counts.set(selectionSet, 0);
  let count = 0;
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) count += selection.name.value.startsWith('__') ? 0 : 1;
    else if (selection.kind === Kind.INLINE_FRAGMENT) count += countRootFields(fragments, counts, selection.selectionSet);
    else {
      const fragment = fragments.get(selection.name.value);
      if (fragment) count += countRootFields(fragments, counts, fragment.selectionSet);
    }
  }
  counts.set(selectionSet, count);
  return count;
}

const CONNECTION_LISTS = new Set(['nodes', 'edges']);

/**
 * The most items the problems service returns in one page: its connections accept `first` from 0 up
 * to 100, which the schema says only in prose. Assumed where the schema gives no default page size.
 */
export const UPSTREAM_MAX_PAGE_SIZE = 100;

/**
 * The first page size (`first`) outside the range the problems service serves, 0 to
 * UPSTREAM_MAX_PAGE_SIZE: refused as such, never costed as a page it would not return.
 */
export function pageSizeOutOfRange(estimate: OperationEstimate): { coordinate: string; first: number } | undefined {
  for (const { coordinate, args } of estimate.fieldArguments) {
    const { first } = args;
    if (typeof first === 'number' && (first < 0 || first > UPSTREAM_MAX_PAGE_SIZE)) return { coordinate, first };
  }
  return undefined;
}

/**
 * Items assumed for a list of objects without paging arguments (a contest's problems, a user's rating
 * history): the schema bounds none of them, so each counts as one default page of the service (its
 * `first` defaults to 20), which holds every such list the service has today.
 */
export const UNPAGED_LIST_SIZE = 20;

/**
 * How many items a field may return: the page its `first` asks for; for other lists
 * UNPAGED_LIST_SIZE, so a nested list of problems is not counted as one; else 1.
 */
function listSize(field: GraphQLField<unknown, unknown>, args: Record<string, unknown>): number {
  const first = field.args.find((argument) => argument.name === 'first');
  if (first) {
    // Counted as asked even out of range (pageSizeOutOfRange refuses that first, by name). Only an
    // uncoercible `first`, which the executor refuses, is not a number.
    if (typeof args.first === 'number') return Math.max(0, args.first);
    // Absent or null: the service answers with its default page, which the schema gives as the
    // argument's default; with none, the most it ever returns.
    return typeof first.defaultValue === 'number' ? first.defaultValue : UPSTREAM_MAX_PAGE_SIZE;
  }
  // A connection's `nodes`/`edges` hold the `first` items already counted at the connection.
  if (CONNECTION_LISTS.has(field.name)) return 1;
  return isListType(getNullableType(field.type)) ? UNPAGED_LIST_SIZE : 1;
}
