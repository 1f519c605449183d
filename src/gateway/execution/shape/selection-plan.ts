import {
  GraphQLIncludeDirective,
  GraphQLSkipDirective,
  Kind,
  getDirectiveValues,
  getNamedType,
  isAbstractType,
  isCompositeType,
  isInterfaceType,
  isObjectType,
  visit,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLSchema,
  type SelectionNode,
  type SelectionSetNode,
} from 'graphql';

export type Fragments = Record<string, FragmentDefinitionNode>;

/**
 * The schema and the type a selection set is asked on. With it, a plan knows which fragments an
 * object of an interface or a union takes (only those on its own type, as execution collects fields)
 * and the types of the levels under it.
 */
export interface PlanTyping {
  schema: GraphQLSchema;
  type: GraphQLCompositeType;
}

/**
 * The response keys asked for at one level, in order, each with the plan of the level under it. Made
 * once per level and request, then shared by every object of a list (a page of 20 problems walks its
 * selection once, not 20 times). Used to put answers in selection order (use-selection-order.ts) and
 * to keep only what was selected (execution/forward/delegated-answer.ts).
 */
export interface SelectionPlan {
  keys: string[];
  asked: Set<string>;
  child(key: string): SelectionPlan | undefined;
  /** The fields asked under `key`, in document order. */
  fieldsOf(key: string): FieldNode[];
  /**
   * The plan for one object of the answer. On an interface or a union whose object types are asked
   * different things (fragments on them), the plan of the object's own type: named by a `__typename`
   * the operation asks, or else the only one whose keys the object has. The plan itself otherwise.
   */
  of(object: Record<string, unknown>): SelectionPlan;
}

/**
 * The plan of `selectionSets`; with `variables`, a selection `@skip`/`@include` leaves out is not
 * asked; with `typing`, objects of interfaces and unions are planned by their own type.
 */
export function selectionPlan(selectionSets: readonly SelectionSetNode[], fragments: Fragments, variables?: Record<string, unknown>, typing?: PlanTyping): SelectionPlan {
  const general = planOf(selectionSets, fragments, variables, typing);
  if (!typing || !isAbstractType(typing.type)) return general;
  const { schema, type } = typing;
  const byType = new Map<string, SelectionPlan>();
  for (const member of schema.getPossibleTypes(type)) byType.set(member.name, planOf(selectionSets, fragments, variables, { schema, type: member }));
  const plans = [...byType.values()];
  // Nothing asked of one type that is not asked of all, in the same order: one plan serves.
  if (plans.every((plan) => sameOrder(plan.keys, general.keys))) return general;
  const typenameKeys = general.keys.filter((key) => general.fieldsOf(key)[0]?.name.value === '__typename');
  return {
    ...general,
    of(object) {
      for (const key of typenameKeys) {
        const named = typeof object[key] === 'string' ? byType.get(object[key] as string) : undefined;
        if (named) return named;
      }
      // The types whose asked keys are exactly the object's (execution gives an object every key
      // collected for its type, and no other): one order among them, or the plan of them all.
      const keys = Object.keys(object).filter((key) => general.asked.has(key));
      const matching = plans.filter((plan) => plan.keys.length === keys.length && keys.every((key) => plan.asked.has(key)));
      return matching.length > 0 && matching.every((plan) => sameOrder(plan.keys, matching[0].keys)) ? matching[0] : general;
    },
  };
}

function sameOrder(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((key, index) => key === b[index]);
}

/** One plan for the selection sets on `typing.type` (for an object type, only the fragments that apply to it). */
function planOf(selectionSets: readonly SelectionSetNode[], fragments: Fragments, variables: Record<string, unknown> | undefined, typing: PlanTyping | undefined): SelectionPlan {
  const fields = collectFields(selectionSets, fragments, variables, typing);
  const children = new Map<string, SelectionPlan | undefined>();
  const plan: SelectionPlan = {
    keys: [...fields.keys()],
    asked: new Set(fields.keys()),
    fieldsOf: (key) => fields.get(key)?.nodes ?? [],
    child(key) {
      if (!children.has(key)) {
        const collected = fields.get(key);
        const sub = (collected?.nodes ?? []).flatMap((field) => (field.selectionSet ? [field.selectionSet] : []));
        children.set(key, sub.length > 0 ? selectionPlan(sub, fragments, variables, collected && typing && childTyping(typing.schema, collected)) : undefined);
      }
      return children.get(key);
    },
    of: () => plan,
  };
  return plan;
}

/** The type the selection of a key is asked on, from its first field and the type that field was selected on. */
function childTyping(schema: GraphQLSchema, { nodes, on }: CollectedField): PlanTyping | undefined {
  if (!on || (!isObjectType(on) && !isInterfaceType(on))) return undefined;
  const definition = on.getFields()[nodes[0].name.value];
  const type = definition && getNamedType(definition.type);
  return type && isCompositeType(type) ? { schema, type } : undefined;
}

interface CollectedField {
  nodes: FieldNode[];
  /** The type the first of them was selected on (a fragment's type condition, or the level's type), when typed. */
  on?: GraphQLCompositeType;
}

/**
 * The fields of `selectionSets` by response key, in order, through fragments (with `variables`, as
 * @skip and @include leave them), each key with the type its first field was selected on; with
 * `typing` on an object type, a fragment counts only when its type condition applies to that type,
 * as execution collects.
 */
function collectFields(selectionSets: readonly SelectionSetNode[], fragments: Fragments, variables: Record<string, unknown> | undefined, typing: PlanTyping | undefined): Map<string, CollectedField> {
  const fields = new Map<string, CollectedField>();
  const runtime = typing && isObjectType(typing.type) ? typing.type : undefined;
  // A fragment spread again at one level adds nothing the first spread did not (and expanding it
  // again could take time exponential in the document).
  const spread = new Set<string>();
  const conditionOf = (name: string | undefined, on: GraphQLCompositeType | undefined): { applies: boolean; on: GraphQLCompositeType | undefined } => {
    if (!name || !typing) return { applies: true, on };
    const condition = typing.schema.getType(name);
    if (!condition || !isCompositeType(condition)) return { applies: true, on };
    const applies = !runtime || condition === runtime || (isAbstractType(condition) && typing.schema.isSubType(condition, runtime));
    return { applies, on: runtime ?? condition };
  };
  const collect = (selectionSet: SelectionSetNode, on: GraphQLCompositeType | undefined) => {
    for (const selection of selectionSet.selections) {
      if (variables && isLeftOut(selection, variables)) continue;
      if (selection.kind === Kind.FIELD) {
        const key = selection.alias?.value ?? selection.name.value;
        const collected = fields.get(key);
        if (collected) collected.nodes.push(selection);
        else fields.set(key, { nodes: [selection], on });
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        const condition = conditionOf(selection.typeCondition?.name.value, on);
        if (condition.applies) collect(selection.selectionSet, condition.on);
      } else {
        const fragment = fragments[selection.name.value];
        if (!fragment || spread.has(fragment.name.value)) continue;
        const condition = conditionOf(fragment.typeCondition.name.value, on);
        if (!condition.applies) continue;
        spread.add(fragment.name.value);
        collect(fragment.selectionSet, condition.on);
      }
    }
  };
  for (const selectionSet of selectionSets) collect(selectionSet, typing?.type);
  return fields;
}

/** Whether `@skip` or `@include` leaves this selection out, for these (coerced) variables. */
export function isLeftOut(node: SelectionNode, variables: Record<string, unknown>): boolean {
  if (!node.directives?.length) return false;
  try {
    if (getDirectiveValues(GraphQLSkipDirective, node, variables)?.if === true) return true;
    return getDirectiveValues(GraphQLIncludeDirective, node, variables)?.if === false;
  } catch {
    // A condition on a variable without a value: execution refuses the operation before any of
    // this matters; until then, the selection counts.
    return false;
  }
}

/** The `@skip`/`@include` of each parsed document, worked out once per document. */
const conditions = new WeakMap<DocumentNode, { any: boolean; variables: string[] }>();

function conditionsOf(document: DocumentNode): { any: boolean; variables: string[] } {
  let known = conditions.get(document);
  if (!known) {
    const variables = new Set<string>();
    let any = false;
    visit(document, {
      Directive(node) {
        if (node.name.value !== 'skip' && node.name.value !== 'include') return;
        any = true;
        for (const argument of node.arguments ?? []) if (argument.value.kind === Kind.VARIABLE) variables.add(argument.value.name.value);
      },
    });
    conditions.set(document, (known = { any, variables: [...variables] }));
  }
  return known;
}

/** Whether any selection of the document carries `@skip` or `@include` (its order, its selections then depend on the variables). */
export function hasConditions(document: DocumentNode): boolean {
  return conditionsOf(document).any;
}

/** The variables the document's `@skip(if:)` and `@include(if:)` read. */
export function conditionVariablesOf(document: DocumentNode): readonly string[] {
  return conditionsOf(document).variables;
}
