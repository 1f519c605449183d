import {
  BREAK,
  GraphQLIncludeDirective,
  GraphQLSkipDirective,
  Kind,
  getDirectiveValues,
  visit,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type SelectionNode,
  type SelectionSetNode,
} from 'graphql';

export type Fragments = Record<string, FragmentDefinitionNode>;

/**
 * The response keys asked for at one level, in order, each with the plan of the level under it. Made
 * once per level and request, then shared by every object of a list (a page of 20 problems walks its
 * selection once, not 20 times). Used to put answers in selection order (use-selection-order.ts) and
 * to keep only what was selected (fast-path/delegated-answer.ts).
 */
export interface SelectionPlan {
  keys: string[];
  asked: Set<string>;
  child(key: string): SelectionPlan | undefined;
}

/** The plan of `selectionSets`; with `variables`, a selection `@skip`/`@include` leaves out is not asked. */
export function selectionPlan(selectionSets: readonly SelectionSetNode[], fragments: Fragments, variables?: Record<string, unknown>): SelectionPlan {
  const fields = fieldsByKey(selectionSets, fragments, variables);
  const children = new Map<string, SelectionPlan | undefined>();
  return {
    keys: [...fields.keys()],
    asked: new Set(fields.keys()),
    child(key) {
      if (!children.has(key)) {
        const sub = (fields.get(key) ?? []).flatMap((field) => (field.selectionSet ? [field.selectionSet] : []));
        children.set(key, sub.length > 0 ? selectionPlan(sub, fragments, variables) : undefined);
      }
      return children.get(key);
    },
  };
}

/** The fields of `selectionSets` by response key, in order, through fragments (with `variables`, as @skip and @include leave them). */
export function fieldsByKey(selectionSets: readonly SelectionSetNode[], fragments: Fragments, variables?: Record<string, unknown>): Map<string, FieldNode[]> {
  const fields = new Map<string, FieldNode[]>();
  // A fragment spread again at one level adds nothing the first spread did not (and expanding it
  // again could take time exponential in the document).
  const spread = new Set<string>();
  const collect = (selectionSet: SelectionSetNode) => {
    for (const selection of selectionSet.selections) {
      if (variables && isLeftOut(selection, variables)) continue;
      if (selection.kind === Kind.FIELD) {
        const key = selection.alias?.value ?? selection.name.value;
        const nodes = fields.get(key);
        if (nodes) nodes.push(selection);
        else fields.set(key, [selection]);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        collect(selection.selectionSet);
      } else {
        const fragment = fragments[selection.name.value];
        if (!fragment || spread.has(fragment.name.value)) continue;
        spread.add(fragment.name.value);
        collect(fragment.selectionSet);
      }
    }
  };
  for (const selectionSet of selectionSets) collect(selectionSet);
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

/** Documents with `@skip` or `@include` somewhere, worked out once per parsed document. */
const conditional = new WeakMap<DocumentNode, boolean>();

/** Whether any selection of the document carries `@skip` or `@include` (its order, its selections then depend on the variables). */
export function hasConditions(document: DocumentNode): boolean {
  let known = conditional.get(document);
  if (known === undefined) {
    known = false;
    visit(document, {
      Directive(node) {
        if (node.name.value !== 'skip' && node.name.value !== 'include') return undefined;
        known = true;
        return BREAK;
      },
    });
    conditional.set(document, known);
  }
  return known;
}
