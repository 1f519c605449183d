import { Kind, type FieldNode, type ValueNode } from 'graphql';

/**
 * Whether a field's arguments name a variable anywhere (in lists and input objects too): its
 * arguments then differ by request, so what they decide cannot be worked out once per document.
 */
export function fieldReadsVariables(field: FieldNode): boolean {
  return field.arguments?.some((argument) => valueReadsVariable(argument.value)) ?? false;
}

function valueReadsVariable(value: ValueNode): boolean {
  if (value.kind === Kind.VARIABLE) return true;
  if (value.kind === Kind.LIST) return value.values.some(valueReadsVariable);
  if (value.kind === Kind.OBJECT) return value.fields.some((field) => valueReadsVariable(field.value));
  return false;
}
