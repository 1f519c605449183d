import {
  getArgumentValues,
  getNullableType,
  GraphQLBoolean,
  GraphQLFloat,
  GraphQLID,
  GraphQLInt,
  GraphQLString,
  isAbstractType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  Kind,
  typeFromAST,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLAbstractType,
  type GraphQLField,
  type GraphQLFieldResolver,
  type GraphQLLeafType,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionNode,
  type SelectionSetNode,
} from 'graphql';
import { isLeftOut } from '../shape/selection-plan.ts';
import { fieldReadsVariables } from '../shape/variable-reads.ts';
import type { CompletedLink, LinkCompletionOptions } from './linked-answer.ts';

/** How a value of one type is completed. */
export type ValuePlan =
  | { kind: 'leaf'; nonNull: boolean; type: GraphQLLeafType; unchanged: (value: unknown) => boolean }
  | { kind: 'list'; nonNull: boolean; item: ValuePlan }
  | { kind: 'object'; nonNull: boolean; fields: FieldPlan[] }
  | { kind: 'abstract'; nonNull: boolean; type: GraphQLAbstractType; byType: Map<string, FieldPlan[]> };

/** How one response key of an object is read and completed. */
export interface FieldPlan {
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
  link?: {
    resolve: CompletedLink['resolve'];
    aliases: [alias: string, name: string][];
    /**
     * The JSON text each frozen result of the link completed to, for a link whose selection is
     * leaves read by name (no resolver of their own, no object below): a frozen result cannot
     * change, so under this plan its text is the same every time (answer-writer.ts). Absent otherwise.
     */
    texts?: WeakMap<object, string>;
  };
  own?: GraphQLFieldResolver<unknown, unknown>;
  /** Arguments the same for every request (no variable in them), worked out once. */
  fixedArgs?: Record<string, unknown>;
  /** The key as written in JSON text, first in its object (`{"key":`) and after another (`,"key":`). */
  openingJson: string;
  nextJson: string;
  /** The parent type's name as a JSON string (the value of `__typename`). */
  parentTypeJson: string;
}


/** Built-in scalars whose values come back unchanged: cheaper than reading and serializing again. */
const INT_MAX = 2 ** 31 - 1;
const UNCHANGED_BUILT_IN = new Map<GraphQLLeafType, (value: unknown) => boolean>([
  [GraphQLString, (value) => typeof value === 'string'],
  [GraphQLBoolean, (value) => typeof value === 'boolean'],
  [GraphQLFloat, (value) => typeof value === 'number' && Number.isFinite(value)],
  [GraphQLInt, (value) => Number.isInteger(value) && (value as number) <= INT_MAX && (value as number) >= -INT_MAX - 1],
  [GraphQLID, (value) => typeof value === 'string'],
]);

/** The plans of an operation's root fields by the request's @skip/@include outcomes. */
export interface AnswerPlans {
  /** The root fields for these variables; undefined when the shaper leaves the operation to execution. */
  rootFieldsFor(variables: Record<string, unknown>): FieldPlan[] | undefined;
}

export interface AnswerPlanOptions {
  schema: GraphQLSchema;
  /** The operation and the document's fragments by name, as the forwardable operation carries them (ForwardableOperation). */
  operation: OperationDefinitionNode;
  fragments: Record<string, FragmentDefinitionNode>;
  links?: LinkCompletionOptions;
}

/**
 * What completes a source's data for one operation, planned once per operation and schema: the
 * fields of each type as graphql-js collects them (aliases merged, fragments and inline fragments
 * by type condition, @skip/@include by the request's variables), how each value is read and
 * checked, and which fields are links. Undefined when the operation is not one the shaper
 * completes (a mutation, a non-null link, a response key `__proto__`).
 */
export function compileAnswerPlans({ schema, operation, fragments, links }: AnswerPlanOptions): AnswerPlans | undefined {
  const rootType = schema.getQueryType();
  if (operation.operation !== 'query' || !rootType) return undefined;
  const conditions = conditionalNodes(operation, fragments);
  const linkedTypes = new Set([...(links?.resultFields.keys() ?? [])].map((coordinate) => coordinate.split('.')[0]));

  /** The plan for one set of @skip/@include outcomes (the only thing variables change in it). */
  const planFor = (variables: Record<string, unknown>): FieldPlan[] | undefined => {
    const planner = new FieldPlanner({ schema, fragments, variables, links, linkedTypes });
    const collected = new Map<string, FieldNode[]>();
    collectFields(schema, fragments, variables, rootType, operation.selectionSet, collected, new Set());
    return planner.fields(rootType, collected, false);
  };

  // Without @skip/@include the plan is the operation's alone; with them, one per set of outcomes.
  const plans = new Map<string, FieldPlan[] | null>();
  const rootFieldsFor = (variables: Record<string, unknown>): FieldPlan[] | undefined => {
    const signature = conditions.length === 0 ? '' : conditions.map((node) => (isLeftOut(node, variables) ? '0' : '1')).join('');
    let plan = plans.get(signature);
    if (plan === undefined) {
      plan = planFor(variables) ?? null;
      // Bounded by the operation: at most one plan per combination of its conditions that requests use.
      plans.set(signature, plan);
    }
    return plan ?? undefined;
  };
  if (conditions.length === 0 && !rootFieldsFor({})) return undefined;
  return { rootFieldsFor };
}

interface FieldPlannerOptions {
  schema: GraphQLSchema;
  fragments: Record<string, FragmentDefinitionNode>;
  /** The request's variables, for @skip/@include only. */
  variables: Record<string, unknown>;
  links: LinkCompletionOptions | undefined;
  /** The names of the links' result types (`ProblemTranslation`). */
  linkedTypes: ReadonlySet<string>;
}

/**
 * Plans the fields of an operation for one set of @skip/@include outcomes: each response key's
 * read and value, down the selection. Undefined anywhere the shaper leaves the operation to execution.
 */
class FieldPlanner {
  private readonly schema: GraphQLSchema;
  private readonly fragments: Record<string, FragmentDefinitionNode>;
  private readonly variables: Record<string, unknown>;
  private readonly links: LinkCompletionOptions | undefined;
  private readonly linkedTypes: ReadonlySet<string>;

  constructor({ schema, fragments, variables, links, linkedTypes }: FieldPlannerOptions) {
    this.schema = schema;
    this.fragments = fragments;
    this.variables = variables;
    this.links = links;
    this.linkedTypes = linkedTypes;
  }

  /** The plans of an object's collected fields, in the order execution meets them. */
  fields(type: GraphQLObjectType, collected: Map<string, FieldNode[]>, inLinkResult: boolean): FieldPlan[] | undefined {
    const plans: FieldPlan[] = [];
    for (const [key, nodes] of collected) {
      if (key === '__proto__') return undefined;
      const plan = this.field(type, key, nodes, inLinkResult);
      if (!plan) return undefined;
      plans.push(plan);
    }
    return plans;
  }

  private field(type: GraphQLObjectType, key: string, nodes: FieldNode[], inLinkResult: boolean): FieldPlan | undefined {
    const name = nodes[0].name.value;
    if (name === '__typename') {
      return { key, name, nodes, parentType: type, read: 'typename', value: { kind: 'leaf', nonNull: true, type: GraphQLString, unchanged: (value) => value === type.name }, ...jsonOf(key, type) };
    }
    // Other introspection is never forwarded (forwardable-operation.ts).
    const definition = type.getFields()[name];
    if (!definition) return undefined;
    const coordinate = `${type.name}.${name}`;
    const link = this.links?.links.get(coordinate);
    const value = this.value(definition.type, nodes, Boolean(link) || inLinkResult);
    if (!value) return undefined;
    const plan: FieldPlan = { key, name, nodes, parentType: type, read: 'data', definition: definition as GraphQLField<unknown, unknown>, value, ...jsonOf(key, type) };
    if (link) {
      // A non-null link would null its parent after the rest is written: left to execution.
      if (isNonNullType(definition.type)) return undefined;
      plan.read = 'link';
      plan.link = { resolve: link.resolve, aliases: Object.entries(link.aliases), texts: leavesByName(value) ? new WeakMap() : undefined };
    } else if (this.linkedTypes.has(type.name)) {
      const own = this.links?.resultFields.get(coordinate);
      plan.read = own ? 'own' : 'byName';
      plan.own = own;
    }
    if ((plan.read === 'link' || plan.read === 'own') && !fieldReadsVariables(nodes[0])) plan.fixedArgs = getArgumentValues(plan.definition!, nodes[0]);
    return plan;
  }

  private value(type: GraphQLOutputType, nodes: readonly FieldNode[], inLinkResult: boolean): ValuePlan | undefined {
    const nonNull = isNonNullType(type);
    const nullable = getNullableType(type);
    if (isListType(nullable)) {
      const item = this.value(nullable.ofType, nodes, inLinkResult);
      return item && { kind: 'list', nonNull, item };
    }
    if (isLeafType(nullable)) return { kind: 'leaf', nonNull, type: nullable, unchanged: unchangedLeaf(nullable) };
    if (isObjectType(nullable)) {
      const fields = this.subfields(nullable, nodes, inLinkResult);
      return fields && { kind: 'object', nonNull, fields };
    }
    if (inLinkResult) return undefined;
    const byType = new Map<string, FieldPlan[]>();
    for (const possible of this.schema.getPossibleTypes(nullable)) {
      const fields = this.subfields(possible, nodes, false);
      if (!fields) return undefined;
      byType.set(possible.name, fields);
    }
    return { kind: 'abstract', nonNull, type: nullable, byType };
  }

  /** The fields selected under `nodes` for an object of `type`, planned. */
  private subfields(type: GraphQLObjectType, nodes: readonly FieldNode[], inLinkResult: boolean): FieldPlan[] | undefined {
    const collected = new Map<string, FieldNode[]>();
    const visited = new Set<string>();
    for (const node of nodes) if (node.selectionSet) collectFields(this.schema, this.fragments, this.variables, type, node.selectionSet, collected, visited);
    return this.fields(type, collected, inLinkResult);
  }
}

/** An object whose selected fields are all leaves read by name or `__typename`: what it completes to depends on its own fields alone. */
function leavesByName(value: ValuePlan): boolean {
  return value.kind === 'object' && value.fields.every((field) => (field.read === 'byName' || field.read === 'typename') && field.value.kind === 'leaf');
}

function jsonOf(key: string, type: GraphQLObjectType): Pick<FieldPlan, 'openingJson' | 'nextJson' | 'parentTypeJson'> {
  const keyJson = JSON.stringify(key);
  return { openingJson: `{${keyJson}:`, nextJson: `,${keyJson}:`, parentTypeJson: JSON.stringify(type.name) };
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

/** Every node of the operation and its fragments carrying @skip or @include, in a fixed order. */
function conditionalNodes(operation: OperationDefinitionNode, fragments: Record<string, FragmentDefinitionNode>): SelectionNode[] {
  const nodes: SelectionNode[] = [];
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
        if (isLeftOut(selection, variables)) continue;
        const key = selection.alias?.value ?? selection.name.value;
        const list = fields.get(key);
        if (list) list.push(selection);
        else fields.set(key, [selection]);
        break;
      }
      case Kind.INLINE_FRAGMENT:
        if (isLeftOut(selection, variables) || !conditionMatches(schema, selection.typeCondition?.name.value, type)) continue;
        collectFields(schema, fragments, variables, type, selection.selectionSet, fields, visited);
        break;
      case Kind.FRAGMENT_SPREAD: {
        const name = selection.name.value;
        if (visited.has(name) || isLeftOut(selection, variables)) continue;
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
