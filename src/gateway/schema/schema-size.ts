import { isEnumType, isInputObjectType, isInterfaceType, isObjectType, isSpecifiedScalarType, type GraphQLSchema } from 'graphql';
import { SETTINGS } from '../settings/setting-table.ts';

/** How much of a schema there is to build: what the engine's build time grows with. */
export interface SchemaSize {
  /** Named types, the built-in scalars and introspection types left out. */
  types: number;
  /** Fields of object, interface and input types, and the arguments of fields. */
  fields: number;
  /** Values of all enums. */
  enumValues: number;
}

/** The largest problems schema the gateway builds an engine for (each a setting: settings/setting-table.ts). */
export interface SchemaBounds {
  maxTypes: number;
  maxFields: number;
  maxEnumValues: number;
}

/** A schema over one of its bounds: which, by its setting's variable, and by how much. */
export interface SchemaOverBound {
  /** `types`, `fields` or `enumValues`. */
  measure: keyof SchemaSize;
  count: number;
  bound: number;
  /** The setting's variable, e.g. `PROBLEMS_SCHEMA_MAX_ENUM_VALUES`. */
  variable: string;
}

/** The setting of each bound, whose variable a refusal names. */
const BOUND_SETTINGS = { types: SETTINGS.problemsSchemaMaxTypes, fields: SETTINGS.problemsSchemaMaxFields, enumValues: SETTINGS.problemsSchemaMaxEnumValues };

const WORDS: Record<keyof SchemaSize, string> = { types: 'types', fields: 'fields and arguments', enumValues: 'enum values' };

/** Counts a schema's types, fields (arguments included) and enum values: a walk of its maps, no building. */
export function sizeOf(schema: GraphQLSchema): SchemaSize {
  const size: SchemaSize = { types: 0, fields: 0, enumValues: 0 };
  for (const [name, type] of Object.entries(schema.getTypeMap())) {
    if (name.startsWith('__') || isSpecifiedScalarType(type)) continue;
    size.types += 1;
    if (isObjectType(type) || isInterfaceType(type)) {
      for (const field of Object.values(type.getFields())) size.fields += 1 + field.args.length;
    } else if (isInputObjectType(type)) size.fields += Object.keys(type.getFields()).length;
    else if (isEnumType(type)) size.enumValues += type.getValues().length;
  }
  return size;
}

/** The first bound `size` is over, or undefined when it is within all of them. */
export function overBound(size: SchemaSize, bounds: SchemaBounds): SchemaOverBound | undefined {
  const limits: Record<keyof SchemaSize, number> = { types: bounds.maxTypes, fields: bounds.maxFields, enumValues: bounds.maxEnumValues };
  for (const measure of ['types', 'fields', 'enumValues'] as const) {
    if (size[measure] > limits[measure]) return { measure, count: size[measure], bound: limits[measure], variable: BOUND_SETTINGS[measure].variable };
  }
  return undefined;
}

/** `112000 enum values, over PROBLEMS_SCHEMA_MAX_ENUM_VALUES=50000`. */
export function describeOverBound({ measure, count, bound, variable }: SchemaOverBound): string {
  return `${count} ${WORDS[measure]}, over ${variable}=${bound}`;
}
