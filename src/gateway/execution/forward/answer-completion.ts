import { getArgumentValues, GraphQLError, locatedError, type FragmentDefinitionNode, type GraphQLResolveInfo, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import type { FieldPlan, ValuePlan } from './answer-plan.ts';

/** A response path as graphql-js keeps one: a list from the leaf up, made into an array only for an error. */
export interface Path {
  prev: Path | undefined;
  key: string | number;
}

/** Thrown where the shaper leaves the answer to execution (see AnswerShaper). */
export const LEFT_TO_EXECUTION = Symbol('left to execution');

/** One completion of a source's data: its errors in the order execution meets them, and the links still resolving. */
export class Walk {
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

  /** A link, resolved from the fields fetched for it; its result (an object) completed into `into` now or when it comes. */
  resolveLink(field: FieldPlan, source: Record<string, unknown>, into: Record<string, unknown>, path: Path): void {
    let resolved: unknown;
    try {
      resolved = this.callLink(field, source, path);
    } catch (error) {
      this.linkThrew(field, into, path, error);
      return;
    }
    this.completeLink(field, into, path, resolved);
  }

  /** A link whose resolver threw: nulled with its error (resolveLink's failure). */
  linkThrew(field: FieldPlan, into: Record<string, unknown>, path: Path, error: unknown): void {
    this.failed(field, into, path, error, this.holder);
  }

  /** What the link's resolver gives for this object (a value, or a promise of one); throws what it throws. */
  callLink(field: FieldPlan, source: Record<string, unknown>, path: Path): unknown {
    const link = field.link!;
    const read: Record<string, unknown> = {};
    for (const [alias, name] of link.aliases) read[name] = source[alias];
    return link.resolve(read, this.argsOf(field), this.context, this.infoOf(field, path));
  }

  /** What callLink gave, completed into `into` now or when it comes (resolveLink's second half). */
  completeLink(field: FieldPlan, into: Record<string, unknown>, path: Path, resolved: unknown): void {
    this.settle(field, into, path, resolved, (value) => this.value(field.value, value, field, path));
  }

  /** A link result's field with a resolver of its own (a translation's rendered HTML). */
  private resolveOwn(field: FieldPlan, source: Record<string, unknown>, into: Record<string, unknown>, path: Path): void {
    let resolved: unknown;
    try {
      resolved = field.own!(source, this.argsOf(field), this.context, this.infoOf(field, path));
    } catch (error) {
      this.failed(field, into, path, error, this.holder);
      return;
    }
    this.settle(field, into, path, resolved, (value) => this.value(field.value, value, field, path));
  }

  /**
   * Completes a field's resolved value into `into`, now or when its promise settles. An error
   * nulls the field (a link is nullable: compileAnswerShaper leaves non-null links to execution), or,
   * for a non-null field of a link's result, the link.
   */
  private settle(field: FieldPlan, into: Record<string, unknown>, path: Path, resolved: unknown, complete: (value: unknown) => unknown): void {
    const holder = this.holder;
    const completeInto = (value: unknown) => {
      // A link's result is completed with the link as the holder of its fields' failures.
      const outer = this.holder;
      const self = field.read === 'link' ? { into, key: field.key, failed: false } : undefined;
      if (self) this.holder = self;
      try {
        const completed = complete(value);
        if (!self?.failed) into[field.key] = completed;
      } catch (error) {
        this.failed(field, into, path, error, holder);
      } finally {
        this.holder = outer;
      }
    };
    if (isPromiseLike(resolved)) this.pending.push(Promise.resolve(resolved).then(completeInto, (error: unknown) => this.failed(field, into, path, error, holder)));
    else completeInto(resolved);
  }

  /** A field that failed: nulled with its error, or its holder (the link whose result it is) when it is non-null. */
  private failed(field: FieldPlan, into: Record<string, unknown>, path: Path, error: unknown, holder: { into: Record<string, unknown>; key: string; failed: boolean } | undefined): void {
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
  }

  private argsOf(field: FieldPlan): Record<string, unknown> {
    return field.fixedArgs ?? getArgumentValues(field.definition!, field.nodes[0], this.variables);
  }

  private infoOf(field: FieldPlan, path: Path): GraphQLResolveInfo {
    return new FieldInfo(field, path, this.schema, this.fragments, this.operation, this.variables);
  }

  private error(message: string, field: FieldPlan, path: Path, withLocations: boolean): GraphQLError {
    return new GraphQLError(message, { nodes: withLocations ? field.nodes : undefined, path: pathArray(path) });
  }
}

/**
 * The resolve info of a link or a result field, as execution would give it; its path, which a
 * resolver seldom reads, is made only when read.
 */
class FieldInfo implements GraphQLResolveInfo {
  readonly fieldName: string;
  readonly fieldNodes: FieldPlan['nodes'];
  readonly returnType: GraphQLResolveInfo['returnType'];
  readonly parentType: GraphQLResolveInfo['parentType'];
  readonly schema: GraphQLSchema;
  readonly fragments: Record<string, FragmentDefinitionNode>;
  readonly operation: OperationDefinitionNode;
  readonly variableValues: Record<string, unknown>;
  readonly rootValue = undefined;
  private readonly at: Path;
  private resolvedPath: GraphQLResolveInfo['path'] | undefined;

  constructor(field: FieldPlan, at: Path, schema: GraphQLSchema, fragments: Record<string, FragmentDefinitionNode>, operation: OperationDefinitionNode, variableValues: Record<string, unknown>) {
    this.fieldName = field.name;
    this.fieldNodes = field.nodes;
    this.returnType = field.definition!.type;
    this.parentType = field.parentType;
    this.schema = schema;
    this.fragments = fragments;
    this.operation = operation;
    this.variableValues = variableValues;
    this.at = at;
  }

  get path(): GraphQLResolveInfo['path'] {
    return (this.resolvedPath ??= resolvePath(this.at));
  }
}

export function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
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
