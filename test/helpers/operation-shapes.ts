import { Kind, parse, TypeInfo, visit, visitWithTypeInfo, type GraphQLSchema, type ValueNode } from 'graphql';
import type { RandomOperation } from './random-operations.ts';

/**
 * What an operation is made of, as the lanes see it: each field asked on each type; each argument
 * given inline (by the kind of its literal and its value) or as a variable (by its value, or left
 * out); aliases (the generator's own, or another field's name) and aliased `__typename`; inline
 * fragments and spreads by the type they are in; `@skip`/`@include` from a literal or a variable;
 * variables with or without a default, given or left out.
 */
export function shapesOf(schema: GraphQLSchema, { query, variables }: RandomOperation): Set<string> {
  const shapes = new Set<string>();
  const info = new TypeInfo(schema);
  const valueOf = (value: ValueNode) => (value.kind === Kind.VARIABLE ? `$${JSON.stringify(variables[value.name.value])}` : 'value' in value ? `${value.kind} ${String(value.value)}` : value.kind);
  visit(
    parse(query),
    visitWithTypeInfo(info, {
      Field(node) {
        const coordinate = `${info.getParentType()?.name}.${node.name.value}`;
        shapes.add(`field ${coordinate}`);
        if (node.alias) shapes.add(`alias ${/^[at]\d+$/.test(node.alias.value) ? 'own' : 'another field’s name'} on ${node.name.value === '__typename' ? '__typename' : 'a field'}`);
        for (const argument of node.arguments ?? []) shapes.add(`argument ${coordinate}(${argument.name.value}) ${valueOf(argument.value)}`);
      },
      InlineFragment(node) {
        shapes.add(`inline fragment on ${node.typeCondition?.name.value} in ${info.getParentType()?.name}`);
      },
      FragmentSpread() {
        shapes.add(`spread in ${info.getParentType()?.name}`);
      },
      Directive(node) {
        shapes.add(`@${node.name.value} from ${node.arguments?.[0]?.value.kind}`);
      },
      VariableDefinition(node) {
        shapes.add(`variable ${node.type.kind} ${node.defaultValue ? 'with' : 'without'} a default, ${node.variable.name.value in variables ? 'given' : 'left out'}`);
      },
    }),
  );
  return shapes;
}

/**
 * Whether `operation` has a shape not in `seen` (which it then joins): of the operations a seed
 * generates, those that repeat only shapes asked before are left out, so a file asks each shape
 * without asking it hundreds of times.
 */
export function addsShapes(schema: GraphQLSchema, operation: RandomOperation, seen: Set<string>): boolean {
  const shapes = [...shapesOf(schema, operation)];
  if (shapes.every((shape) => seen.has(shape))) return false;
  for (const shape of shapes) seen.add(shape);
  return true;
}
