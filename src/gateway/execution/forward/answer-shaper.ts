import {
  getArgumentValues,
  getDirectiveValues,
  getNullableType,
  GraphQLBoolean,
  GraphQLError,
  GraphQLFloat,
  GraphQLID,
  GraphQLIncludeDirective,
  GraphQLInt,
  GraphQLSkipDirective,
  GraphQLString,
  isAbstractType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  Kind,
  locatedError,
  typeFromAST,
  type DirectiveNode,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLAbstractType,
  type GraphQLField,
  type GraphQLFieldResolver,
  type GraphQLLeafType,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLResolveInfo,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
} from 'graphql';
import type { CompletedLink, LinkCompletionOptions } from './linked-answer.ts';

/**
 * What the shaper made of a source's data: the answer's data (in selection order) and its errors,
 * and whether it is the source's data as it came (`unchanged`: no field moved, filled or coerced).
 */
export interface ShapedAnswer {
  data: Record<string, unknown> | null;
  errors?: GraphQLError[];
  unchanged: boolean;
}

/**
 * Completes a source's data for one operation as the gateway's execution would (linked-answer.ts),
 * without executing it: undefined when the data holds something the shaper leaves to execution (an
 * interface or union value it cannot type, a scalar whose serialization fails), so that the caller
 * completes it the slow way and the answer is the same either way.
 */
export interface AnswerShaper {
  shape(data: Record<string, unknown>, variables: Record<string, unknown>, context: unknown): ShapedAnswer | Promise<ShapedAnswer | undefined> | undefined;
}

export interface AnswerShaperOptions {
  schema: GraphQLSchema;
  document: DocumentNode;
  operationName?: string | null;
  /** The links the answer may hold, and the resolvers of their result types' fields. @default none */
  links?: LinkCompletionOptions;
  /**
   * Whether a null in a non-null field is reported without `locations`, as delegation reports it
   * for a plain forwarded operation (single-source-fast-path.ts); a linked answer keeps them, as
   * execution gives them.
   */
  nullErrorsWithoutLocations: boolean;
}

/** How a value of one type is completed. */
type ValuePlan =
  | { kind: 'leaf'; nonNull: boolean; type: GraphQLLeafType; unchanged: (value: unknown) => boolean }
  | { kind: 'list'; nonNull: boolean; item: ValuePlan }
  | { kind: 'object'; nonNull: boolean; fields: FieldPlan[] }
  | { kind: 'abstract'; nonNull: boolean; type: GraphQLAbstractType; byType: Map<string, FieldPlan[]> };

/** How one response key of an object is read and completed. */
interface FieldPlan {
  key: string;
  name: string;
  nodes: readonly FieldNode[];
  parentType: GraphQLObjectType;
  /**
   * `typename`: the parent type's name; `data`: the source's value under the response key, read as
   * delegation reads it; `byName`: a link result's own field; `own`: a link result field with a
   * resolver; `link`: a link, resolved from the fields fetched for it.
   */
  read: 'typename' | 'data' | 'byName' | 'own' | 'link';
  definition?: GraphQLField<unknown, unknown>;
  value: ValuePlan;
  link?: { resolve: CompletedLink['resolve']; aliases: [alias: string, name: string][] };
  own?: GraphQLFieldResolver<unknown, unknown>;
  /** Arguments the same for every request (no variable in them), worked out once. */
  fixedArgs?: Record<string, unknown>;
}

/** A response path as graphql-js keeps one: a list from the leaf up, made into an array only for an error. */
interface Path {
  prev: Path | undefined;
  key: string | number;
}

/** Thrown where the shaper leaves the answer to execution (see AnswerShaper). */
const LEFT_TO_EXECUTION = Symbol('left to execution');

/** Built-in scalars whose values come back unchanged: cheaper than reading and serializing again. */
const INT_MAX = 2 ** 31 - 1;
const UNCHANGED_BUILT_IN = new Map<GraphQLLeafType, (value: unknown) => boolean>([
  [GraphQLString, (value) => typeof value === 'string'],
  [GraphQLBoolean, (value) => typeof value === 'boolean'],
  [GraphQLFloat, (value) => typeof value === 'number' && Number.isFinite(value)],
  [GraphQLInt, (value) => Number.isInteger(value) && (value as number) <= INT_MAX && (value as number) >= -INT_MAX - 1],
  [GraphQLID, (value) => typeof value === 'string'],
]);

/**
 * Compiles, once per operation and schema, what completes the source's data for it: the fields
 * of each type as graphql-js collects them (aliases merged, fragments and inline fragments by type
 * condition, @skip/@include by the request's variables), each value checked as completion checks it
 * (a leaf read as delegation reads it: parsed as input of its type, null when it cannot be, then
 * serialized; lists; interfaces and unions by `__typename`), a null in a non-null field made an
 * error at its path and propagated to the nearest nullable parent, links resolved from the fields
 * fetched for them. Closures rather than generated code: the plan is a tree walked by small
 * monomorphic functions, with nothing generated from the client's text to review or to trust.
 *
 * An answer a well-behaved source gives (every key in selection order, nothing else, every value
 * one its type gives back unchanged, no link) is recognised by one walk without allocating, and
 * served as it came. Undefined when the operation is not one the shaper completes (a mutation, a
 * non-null link, a response key `__proto__`): the caller executes it.
 */
export function compileAnswerShaper({ schema, document, operationName, links, nullErrorsWithoutLocations }: AnswerShaperOptions): AnswerShaper | undefined {
  const operation = operationOf(document, operationName);
  const rootType = schema.getQueryType();
  if (!operation || operation.operation !== 'query' || !rootType) return undefined;
  const fragments: Record<string, FragmentDefinitionNode> = Object.create(null);
  for (const definition of document.definitions) if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments[definition.name.value] = definition;
  const conditions = conditionalNodes(operation, fragments);
  const linkedTypes = new Set([...(links?.resultFields.keys() ?? [])].map((coordinate) => coordinate.split('.')[0]));

  /** The plan for one set of @skip/@include outcomes (the only thing variables change in it). */
  const planFor = (variables: Record<string, unknown>): FieldPlan[] | undefined => {
    const valueOf = (type: GraphQLOutputType, nodes: readonly FieldNode[], inLinkResult: boolean): ValuePlan | undefined => {
      const nonNull = isNonNullType(type);
      const nullable = getNullableType(type);
      if (isListType(nullable)) {
        const item = valueOf(nullable.ofType, nodes, inLinkResult);
        return item && { kind: 'list', nonNull, item };
      }
      if (isLeafType(nullable)) return { kind: 'leaf', nonNull, type: nullable, unchanged: unchangedLeaf(nullable) };
      if (isObjectType(nullable)) {
        const fields = fieldsOf(nullable, nodes, inLinkResult);
        return fields && { kind: 'object', nonNull, fields };
      }
      if (inLinkResult) return undefined;
      const byType = new Map<string, FieldPlan[]>();
      for (const possible of schema.getPossibleTypes(nullable)) {
        const fields = fieldsOf(possible, nodes, false);
        if (!fields) return undefined;
        byType.set(possible.name, fields);
      }
      return { kind: 'abstract', nonNull, type: nullable, byType };
    };
    const fieldsOf = (type: GraphQLObjectType, nodes: readonly FieldNode[], inLinkResult: boolean): FieldPlan[] | undefined => {
      const collected = new Map<string, FieldNode[]>();
      const visited = new Set<string>();
      for (const node of nodes) if (node.selectionSet) collectFields(schema, fragments, variables, type, node.selectionSet, collected, visited);
      return planFields(type, collected, inLinkResult);
    };
    const planFields = (type: GraphQLObjectType, collected: Map<string, FieldNode[]>, inLinkResult: boolean): FieldPlan[] | undefined => {
      const plans: FieldPlan[] = [];
      const definitions = type.getFields();
      for (const [key, nodes] of collected) {
        if (key === '__proto__') return undefined;
        const name = nodes[0].name.value;
        if (name === '__typename') {
          plans.push({ key, name, nodes, parentType: type, read: 'typename', value: { kind: 'leaf', nonNull: true, type: GraphQLString, unchanged: (value) => value === type.name } });
          continue;
        }
        // Other introspection is never forwarded (forwardable-operation.ts).
        const definition = definitions[name];
        if (!definition) return undefined;
        const coordinate = `${type.name}.${name}`;
        const link = links?.links.get(coordinate);
        const resultOfLink = linkedTypes.has(type.name);
        const value = valueOf(definition.type, nodes, Boolean(link) || inLinkResult);
        if (!value) return undefined;
        const plan: FieldPlan = { key, name, nodes, parentType: type, read: 'data', definition: definition as GraphQLField<unknown, unknown>, value };
        if (link) {
          // A non-null link would null its parent after the rest is written: left to execution.
          if (isNonNullType(definition.type)) return undefined;
          plan.read = 'link';
          plan.link = { resolve: link.resolve, aliases: Object.entries(link.aliases) };
        } else if (resultOfLink) {
          const own = links?.resultFields.get(coordinate);
          plan.read = own ? 'own' : 'byName';
          plan.own = own;
        }
        if (plan.read === 'link' || plan.read === 'own') {
          if (!usesVariables(nodes[0])) plan.fixedArgs = getArgumentValues(plan.definition!, nodes[0]);
        }
        plans.push(plan);
      }
      return plans;
    };
    const collected = new Map<string, FieldNode[]>();
    collectFields(schema, fragments, variables, rootType, operation.selectionSet, collected, new Set());
    return planFields(rootType, collected, false);
  };

  // Without @skip/@include the plan is the operation's alone; with them, one per set of outcomes.
  const plans = new Map<string, FieldPlan[] | null>();
  const rootFieldsFor = (variables: Record<string, unknown>): FieldPlan[] | undefined => {
    const signature = conditions.length === 0 ? '' : conditions.map((node) => (includes(node, variables) ? '1' : '0')).join('');
    let plan = plans.get(signature);
    if (plan === undefined) {
      plan = planFor(variables) ?? null;
      // Bounded by the operation: at most one plan per combination of its conditions that requests use.
      plans.set(signature, plan);
    }
    return plan ?? undefined;
  };
  if (conditions.length === 0 && !rootFieldsFor({})) return undefined;

  const hasLinks = Boolean(links?.links.size);
  return {
    shape(data, variables, context) {
      const rootFields = rootFieldsFor(variables);
      if (!rootFields) return undefined;
      if (!hasLinks && fieldsUnchanged(data, rootFields)) return { data, unchanged: true };
      const walk = new Walk(schema, operation, fragments, variables, context, nullErrorsWithoutLocations);
      let shaped: Record<string, unknown> | null;
      try {
        shaped = walk.object(rootFields, data, undefined);
      } catch (error) {
        if (error === LEFT_TO_EXECUTION) return undefined;
        // A non-null root field failed: the whole data is null, as execution gives it.
        walk.errors.push(error as GraphQLError);
        shaped = null;
      }
      if (walk.pending.length === 0) return answerOf(shaped, walk.errors);
      return walk.settled().then(() => (walk.leftToExecution ? undefined : answerOf(shaped, walk.errors)));
    },
  } satisfies AnswerShaper as AnswerShaper;
}

function answerOf(data: Record<string, unknown> | null, errors: GraphQLError[]): ShapedAnswer {
  return errors.length > 0 ? { data, errors, unchanged: false } : { data, unchanged: false };
}

/** One completion of a source's data: its errors in the order execution meets them, and the links still resolving. */
class Walk {
  readonly errors: GraphQLError[] = [];
  readonly pending: Promise<void>[] = [];
  leftToExecution = false;
  /** The link whose result is being completed: a non-null field of it that fails nulls the link. */
  private holder: { into: Record<string, unknown>; key: string; failed: boolean } | undefined;

  private readonly schema: GraphQLSchema;
  private readonly operation: OperationDefinitionNode;
  private readonly fragments: Record<string, FragmentDefinitionNode>;
  private readonly variables: Record<string, unknown>;
  private readonly context: unknown;
  private readonly nullErrorsWithoutLocations: boolean;

  constructor(
    schema: GraphQLSchema,
    operation: OperationDefinitionNode,
    fragments: Record<string, FragmentDefinitionNode>,
    variables: Record<string, unknown>,
    context: unknown,
    nullErrorsWithoutLocations: boolean,
  ) {
    this.schema = schema;
    this.operation = operation;
    this.fragments = fragments;
    this.variables = variables;
    this.context = context;
    this.nullErrorsWithoutLocations = nullErrorsWithoutLocations;
  }

  /** Waits for every link (and every field of a link's result with a resolver of its own) to be written. */
  async settled(): Promise<void> {
    while (this.pending.length > 0) await Promise.all(this.pending.splice(0));
  }

  /** An object's fields in selection order; throws (an error, to its nearest nullable parent) when a non-null field fails. */
  object(fields: FieldPlan[], source: unknown, path: Path | undefined): Record<string, unknown> {
    const result: Record<string, unknown> = {};
    const from = source as Record<string, unknown>;
    for (let index = 0; index < fields.length; index += 1) {
      const field = fields[index];
      const fieldPath: Path = { prev: path, key: field.key };
      switch (field.read) {
        case 'typename':
          result[field.key] = field.parentType.name;
          continue;
        case 'link':
          result[field.key] = null;
          this.resolveLink(field, from, result, fieldPath);
          continue;
        case 'own':
          result[field.key] = null;
          this.resolveOwn(field, from, result, fieldPath);
          continue;
        default:
          try {
            const raw = from[field.read === 'byName' ? field.name : field.key];
            result[field.key] = field.read === 'byName' ? this.value(field.value, raw, field, fieldPath) : this.sourceValue(field.value, raw, field, fieldPath);
          } catch (error) {
            if (error === LEFT_TO_EXECUTION || field.value.nonNull) throw error;
            this.errors.push(error as GraphQLError);
            result[field.key] = null;
          }
      }
    }
    return result;
  }

  /** A value of the source's data, read as delegation reads it (a leaf parsed as input of its type: null when it cannot be), then completed. */
  private sourceValue(plan: ValuePlan, raw: unknown, field: FieldPlan, path: Path): unknown {
    if (plan.kind === 'leaf' && raw != null) {
      let parsed: unknown;
      try {
        parsed = plan.type.parseValue(raw);
      } catch {
        parsed = null;
      }
      return this.value(plan, parsed, field, path);
    }
    if (raw == null) return this.value(plan, raw, field, path);
    if (plan.kind === 'list') {
      if (!Array.isArray(raw)) throw this.error(`Expected Iterable, but did not find one for field "${field.parentType.name}.${field.name}".`, field, path, true);
      return this.list(plan, raw, field, path, true);
    }
    return this.value(plan, raw, field, path);
  }

  /** A value completed against its type, as graphql-js's completeValue does. */
  private value(plan: ValuePlan, value: unknown, field: FieldPlan, path: Path): unknown {
    if (value == null) {
      if (plan.nonNull) throw this.error(`Cannot return null for non-nullable field ${field.parentType.name}.${field.name}.`, field, path, !this.nullErrorsWithoutLocations);
      return null;
    }
    switch (plan.kind) {
      case 'leaf': {
        let serialized: unknown;
        try {
          serialized = plan.type.serialize(value);
        } catch (error) {
          throw locatedError(error, field.nodes, pathArray(path));
        }
        if (serialized === undefined) throw LEFT_TO_EXECUTION;
        return serialized;
      }
      case 'list':
        if (typeof value !== 'object' || !(Symbol.iterator in value)) throw this.error(`Expected Iterable, but did not find one for field "${field.parentType.name}.${field.name}".`, field, path, true);
        return this.list(plan, [...(value as Iterable<unknown>)], field, path, false);
      case 'object':
        return this.object(plan.fields, value, path);
      case 'abstract': {
        const typename = (value as { __typename?: unknown }).__typename;
        const fields = typeof value === 'object' && typeof typename === 'string' ? plan.byType.get(typename) : undefined;
        // No `__typename`, or one naming no possible type: execution words that error.
        if (!fields) throw LEFT_TO_EXECUTION;
        return this.object(fields, value, path);
      }
    }
  }

  /** A list's items, each completed; an item's error nulls the item, or (non-null items) the list. */
  private list(plan: Extract<ValuePlan, { kind: 'list' }>, items: unknown[], field: FieldPlan, path: Path, fromSource: boolean): unknown[] {
    const completed = new Array<unknown>(items.length);
    const item = plan.item;
    for (let index = 0; index < items.length; index += 1) {
      const itemPath: Path = { prev: path, key: index };
      try {
        // Delegation reads a list's items as it reads the list: leaves parsed, inner lists item by item.
        completed[index] = fromSource && (item.kind === 'leaf' || (item.kind === 'list' && Array.isArray(items[index]))) ? this.sourceValue(item, items[index], field, itemPath) : this.value(item, items[index], field, itemPath);
      } catch (error) {
        if (error === LEFT_TO_EXECUTION || item.nonNull) throw error;
        this.errors.push(error as GraphQLError);
        completed[index] = null;
      }
    }
    return completed;
  }

  /** A link, resolved from the fields fetched for it; its result (an object) completed when it comes. */
  private resolveLink(field: FieldPlan, source: Record<string, unknown>, into: Record<string, unknown>, path: Path): void {
    const link = field.link!;
    const read: Record<string, unknown> = {};
    for (const [alias, name] of link.aliases) read[name] = source[alias];
    this.settle(field, into, path, () => link.resolve(read, this.argsOf(field), this.context, this.infoOf(field, path)), (value) => this.value(field.value, value, field, path));
  }

  /** A link result's field with a resolver of its own (a translation's rendered HTML). */
  private resolveOwn(field: FieldPlan, source: Record<string, unknown>, into: Record<string, unknown>, path: Path): void {
    this.settle(field, into, path, () => field.own!(source, this.argsOf(field), this.context, this.infoOf(field, path)), (value) => this.value(field.value, value, field, path));
  }

  /**
   * Resolves a field and completes its value into `into`, now or when its promise settles. An error
   * nulls the field (a link is nullable: compileAnswerShaper leaves non-null links to execution), or,
   * for a non-null field of a link's result, the link.
   */
  private settle(field: FieldPlan, into: Record<string, unknown>, path: Path, resolve: () => unknown, complete: (value: unknown) => unknown): void {
    const holder = this.holder;
    const failed = (error: unknown) => {
      if (error === LEFT_TO_EXECUTION) {
        this.leftToExecution = true;
        return;
      }
      const located = locatedError(error, field.nodes, pathArray(path));
      if (!field.value.nonNull) {
        this.errors.push(located);
        into[field.key] = null;
      } else if (holder && !holder.failed) {
        holder.failed = true;
        this.errors.push(located);
        holder.into[holder.key] = null;
      }
    };
    const completeInto = (value: unknown) => {
      // A link's result is completed with the link as the holder of its fields' failures.
      const outer = this.holder;
      const self = field.read === 'link' ? { into, key: field.key, failed: false } : undefined;
      if (self) this.holder = self;
      try {
        const completed = complete(value);
        if (!self?.failed) into[field.key] = completed;
      } catch (error) {
        failed(error);
      } finally {
        this.holder = outer;
      }
    };
    let resolved: unknown;
    try {
      resolved = resolve();
    } catch (error) {
      failed(error);
      return;
    }
    if (isPromiseLike(resolved)) this.pending.push(Promise.resolve(resolved).then(completeInto, failed));
    else completeInto(resolved);
  }

  private argsOf(field: FieldPlan): Record<string, unknown> {
    return field.fixedArgs ?? getArgumentValues(field.definition!, field.nodes[0], this.variables);
  }

  private infoOf(field: FieldPlan, path: Path): GraphQLResolveInfo {
    return {
      fieldName: field.name,
      fieldNodes: field.nodes,
      returnType: field.definition!.type,
      parentType: field.parentType,
      path: resolvePath(path),
      schema: this.schema,
      fragments: this.fragments,
      rootValue: undefined,
      operation: this.operation,
      variableValues: this.variables,
    };
  }

  private error(message: string, field: FieldPlan, path: Path, withLocations: boolean): GraphQLError {
    return new GraphQLError(message, { nodes: withLocations ? field.nodes : undefined, path: pathArray(path) });
  }
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | null)?.then === 'function';
}

function pathArray(path: Path | undefined): (string | number)[] {
  const keys: (string | number)[] = [];
  for (let at = path; at; at = at.prev) keys.push(at.key);
  return keys.reverse();
}

function resolvePath(path: Path | undefined): GraphQLResolveInfo['path'] {
  let result: GraphQLResolveInfo['path'] | undefined;
  for (const key of pathArray(path)) result = { prev: result, key, typename: undefined };
  return result!;
}

/** Whether an object is exactly what completion gives back: its keys in order and nothing else, every value unchanged. */
function fieldsUnchanged(object: unknown, fields: FieldPlan[]): boolean {
  if (typeof object !== 'object' || object === null || Array.isArray(object)) return false;
  const from = object as Record<string, unknown>;
  let index = 0;
  for (const key in from) {
    const field = fields[index];
    if (field === undefined || field.key !== key || field.read !== 'data' && field.read !== 'typename' || !valueUnchanged(from[key], field.value)) return false;
    index += 1;
  }
  return index === fields.length;
}

function valueUnchanged(value: unknown, plan: ValuePlan): boolean {
  if (value === null) return !plan.nonNull;
  switch (plan.kind) {
    case 'leaf':
      return plan.unchanged(value);
    case 'list':
      if (!Array.isArray(value)) return false;
      for (let index = 0; index < value.length; index += 1) if (!valueUnchanged(value[index], plan.item)) return false;
      return true;
    case 'object':
      return fieldsUnchanged(value, plan.fields);
    case 'abstract': {
      const typename = (value as { __typename?: unknown } | undefined)?.__typename;
      const fields = typeof typename === 'string' ? plan.byType.get(typename) : undefined;
      return fields !== undefined && fieldsUnchanged(value, fields);
    }
  }
}

/** What a leaf value comes back unchanged by: being read as input of its type and serialized again. */
function unchangedLeaf(type: GraphQLLeafType): (value: unknown) => boolean {
  const builtIn = UNCHANGED_BUILT_IN.get(type);
  if (builtIn) return builtIn;
  return (value) => {
    if (value === null || typeof value === 'object') return false;
    try {
      return type.serialize(type.parseValue(value)) === value;
    } catch {
      return false;
    }
  };
}

function operationOf(document: DocumentNode, operationName: string | null | undefined): OperationDefinitionNode | undefined {
  let found: OperationDefinitionNode | undefined;
  for (const definition of document.definitions) {
    if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
    if (operationName == null) {
      if (found) return undefined;
      found = definition;
    } else if (definition.name?.value === operationName) return definition;
  }
  return found;
}

/** Every node of the operation and its fragments carrying @skip or @include, in a fixed order. */
function conditionalNodes(operation: OperationDefinitionNode, fragments: Record<string, FragmentDefinitionNode>): { directives?: readonly DirectiveNode[] }[] {
  const nodes: { directives?: readonly DirectiveNode[] }[] = [];
  const visit = (selectionSet: SelectionSetNode | undefined) => {
    for (const selection of selectionSet?.selections ?? []) {
      if (selection.directives?.some((directive) => directive.name.value === 'skip' || directive.name.value === 'include')) nodes.push(selection);
      if (selection.kind !== Kind.FRAGMENT_SPREAD) visit(selection.selectionSet);
    }
  };
  visit(operation.selectionSet);
  for (const name of Object.keys(fragments)) visit(fragments[name].selectionSet);
  return nodes;
}

/** Whether @skip/@include keep a node, as graphql-js's collectFields decides (shouldIncludeNode). */
function includes(node: { directives?: readonly DirectiveNode[] }, variables: Record<string, unknown>): boolean {
  if (!node.directives?.length) return true;
  const skip = getDirectiveValues(GraphQLSkipDirective, node as FieldNode, variables);
  if (skip?.if === true) return false;
  const include = getDirectiveValues(GraphQLIncludeDirective, node as FieldNode, variables);
  return include?.if !== false;
}

/**
 * The fields of a selection set for an object of `type`, by response key in the order execution
 * meets them: graphql-js's collectFields (internal to graphql-js), written again here over the
 * public API.
 */
function collectFields(
  schema: GraphQLSchema,
  fragments: Record<string, FragmentDefinitionNode>,
  variables: Record<string, unknown>,
  type: GraphQLObjectType,
  selectionSet: SelectionSetNode,
  fields: Map<string, FieldNode[]>,
  visited: Set<string>,
): void {
  for (const selection of selectionSet.selections) {
    switch (selection.kind) {
      case Kind.FIELD: {
        if (!includes(selection, variables)) continue;
        const key = selection.alias?.value ?? selection.name.value;
        const list = fields.get(key);
        if (list) list.push(selection);
        else fields.set(key, [selection]);
        break;
      }
      case Kind.INLINE_FRAGMENT:
        if (!includes(selection, variables) || !conditionMatches(schema, selection.typeCondition?.name.value, type)) continue;
        collectFields(schema, fragments, variables, type, selection.selectionSet, fields, visited);
        break;
      case Kind.FRAGMENT_SPREAD: {
        const name = selection.name.value;
        if (visited.has(name) || !includes(selection, variables)) continue;
        visited.add(name);
        const fragment = fragments[name];
        if (!fragment || !conditionMatches(schema, fragment.typeCondition.name.value, type)) continue;
        collectFields(schema, fragments, variables, type, fragment.selectionSet, fields, visited);
        break;
      }
    }
  }
}

function conditionMatches(schema: GraphQLSchema, condition: string | undefined, type: GraphQLObjectType): boolean {
  if (condition === undefined) return true;
  const conditional = typeFromAST(schema, { kind: Kind.NAMED_TYPE, name: { kind: Kind.NAME, value: condition } });
  if (conditional === type) return true;
  return conditional !== undefined && isAbstractType(conditional) && schema.isSubType(conditional, type);
}

/** Whether a field's arguments name a variable (its arguments then differ by request). */
function usesVariables(node: FieldNode): boolean {
  const visit = (value: ValueNode): boolean => {
    if (value.kind === Kind.VARIABLE) return true;
    if (value.kind === Kind.LIST) return value.values.some(visit);
    if (value.kind === Kind.OBJECT) return value.fields.some((field) => visit(field.value));
    return false;
  };
  return (node.arguments ?? []).some((argument) => visit(argument.value));
}
