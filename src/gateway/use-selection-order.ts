import {
  Kind,
  getOperationAST,
  type DocumentNode,
  type ExecutionResult,
  type FragmentDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';

type Fragments = Record<string, FragmentDefinitionNode>;

/**
 * GraphQL answers keep the order of the selection set; Mesh's execution builds each object in the
 * order its fields complete (batched problems fields after plain ones, one source after another), so
 * `a, b, c` could come back `a, c, b`. This puts every object of the answer back in the order the
 * operation asked for, fragments and aliases included, and leaves objects already in order as they are.
 */
export function useSelectionOrder(): Plugin {
  return {
    onExecute({ args }) {
      const document = args.document as DocumentNode;
      const operation = getOperationAST(document, args.operationName ?? undefined);
      if (!operation) return;
      const fragments: Fragments = {};
      for (const definition of document.definitions) if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments[definition.name.value] = definition;
      return {
        onExecuteDone({ result, setResult }) {
          if (Symbol.asyncIterator in result) return;
          const answer = result as ExecutionResult;
          if (!answer.data) return;
          const data = ordered(answer.data, planOf([operation.selectionSet], fragments));
          if (data !== answer.data) setResult({ ...answer, data: data as ExecutionResult['data'] });
        },
      };
    },
  };
}

/**
 * The response keys asked for at one level, in order, each with the plan of the level under it. Made
 * once per level and request, then shared by every object of a list (a page of 20 problems walks its
 * selection once, not 20 times).
 */
interface Plan {
  keys: string[];
  asked: Set<string>;
  child(key: string): Plan | undefined;
}

function planOf(selectionSets: readonly SelectionSetNode[], fragments: Fragments): Plan {
  const fields = new Map<string, SelectionSetNode[]>();
  collect(selectionSets, fragments, fields, new Set());
  const children = new Map<string, Plan | undefined>();
  return {
    keys: [...fields.keys()],
    asked: new Set(fields.keys()),
    child(key) {
      if (!children.has(key)) {
        const sub = fields.get(key);
        children.set(key, sub && sub.length > 0 ? planOf(sub, fragments) : undefined);
      }
      return children.get(key);
    },
  };
}

/** `value` with every object's keys in selection order; the same object when nothing moved. */
function ordered(value: unknown, plan: Plan): unknown {
  if (Array.isArray(value)) {
    let changed = false;
    const items = value.map((item) => {
      const next = ordered(item, plan);
      if (next !== item) changed = true;
      return next;
    });
    return changed ? items : value;
  }
  if (value === null || typeof value !== 'object') return value;
  const object = value as Record<string, unknown>;
  const keys = Object.keys(object);
  const order = [...plan.keys.filter((key) => key in object), ...keys.filter((key) => !plan.asked.has(key))];
  let changed = false;
  const result: Record<string, unknown> = {};
  order.forEach((key, index) => {
    const child = plan.child(key);
    const next = child ? ordered(object[key], child) : object[key];
    if (next !== object[key] || keys[index] !== key) changed = true;
    result[key] = next;
  });
  return changed ? result : value;
}

/** The response keys of `selectionSets` in order, each with the sub-selections asked for under it. */
function collect(selectionSets: readonly SelectionSetNode[], fragments: Fragments, fields: Map<string, SelectionSetNode[]>, spread: Set<string>): void {
  for (const selectionSet of selectionSets) {
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.FIELD) {
        const key = selection.alias?.value ?? selection.name.value;
        const list = fields.get(key) ?? [];
        if (selection.selectionSet) list.push(selection.selectionSet);
        fields.set(key, list);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        collect([selection.selectionSet], fragments, fields, spread);
      } else {
        const fragment = fragments[selection.name.value];
        // A fragment spread again at one level adds nothing the first spread did not (and expanding
        // it again could take time exponential in the document).
        if (!fragment || spread.has(fragment.name.value)) continue;
        spread.add(fragment.name.value);
        collect([fragment.selectionSet], fragments, fields, spread);
      }
    }
  }
}
