import { isEnumType, isInputObjectType, isInterfaceType, isObjectType, isSpecifiedScalarType, isUnionType, type GraphQLNamedType, type GraphQLSchema } from 'graphql';

export interface SchemaDiff {
  typesAdded: string[];
  typesRemoved: string[];
  /** `Type.field(args): Type` (enum values as `Enum.VALUE`, union members as `Union|Member`). */
  fieldsAdded: string[];
  fieldsRemoved: string[];
}

/** Members of a named type that a client could depend on, as comparable strings. */
function membersOf(type: GraphQLNamedType): string[] {
  if (isObjectType(type) || isInterfaceType(type)) {
    // Arguments are part of a field's contract: a changed argument list shows as - and +.
    return Object.values(type.getFields()).map((field) => {
      const args = field.args.map((arg) => `${arg.name}: ${String(arg.type)}`).join(', ');
      return `${type.name}.${field.name}${args ? `(${args})` : ''}: ${String(field.type)}`;
    });
  }
  if (isInputObjectType(type)) {
    return Object.values(type.getFields()).map((field) => `${type.name}.${field.name}: ${String(field.type)}`);
  }
  if (isEnumType(type)) return type.getValues().map((value) => `${type.name}.${value.name}`);
  if (isUnionType(type)) return type.getTypes().map((member) => `${type.name}|${member.name}`);
  return [];
}

function userTypes(schema: GraphQLSchema): Map<string, GraphQLNamedType> {
  // Built-in scalars come and go with use; they are not the upstream's own types.
  return new Map(Object.entries(schema.getTypeMap()).filter(([name, type]) => !name.startsWith('__') && !isSpecifiedScalarType(type)));
}

/** What a client would notice between two versions of a schema: types and fields added and removed. */
export function diffSchemas(before: GraphQLSchema, after: GraphQLSchema): SchemaDiff {
  const oldTypes = userTypes(before);
  const newTypes = userTypes(after);
  const oldMembers = new Set([...oldTypes.values()].flatMap(membersOf));
  const newMembers = new Set([...newTypes.values()].flatMap(membersOf));
  const typesAdded = [...newTypes.keys()].filter((name) => !oldTypes.has(name)).sort();
  const typesRemoved = [...oldTypes.keys()].filter((name) => !newTypes.has(name)).sort();
  // A whole type added or removed is one line, not one per field.
  const ownerIn = (names: string[]) => (member: string) => names.includes(member.split(/[.|]/)[0]);
  return {
    typesAdded,
    typesRemoved,
    fieldsAdded: [...newMembers].filter((member) => !oldMembers.has(member) && !ownerIn(typesAdded)(member)).sort(),
    fieldsRemoved: [...oldMembers].filter((member) => !newMembers.has(member) && !ownerIn(typesRemoved)(member)).sort(),
  };
}

/** A short human summary, one line per change, capped so a large change stays readable. */
export function formatSchemaDiff(diff: SchemaDiff, limit = 40): string {
  const lines = [
    ...diff.typesAdded.map((name) => `+ type ${name}`),
    ...diff.typesRemoved.map((name) => `- type ${name}`),
    ...diff.fieldsAdded.map((name) => `+ ${name}`),
    ...diff.fieldsRemoved.map((name) => `- ${name}`),
  ];
  if (lines.length === 0) return 'no changes';
  const shown = lines.slice(0, limit);
  if (lines.length > limit) shown.push(`… and ${lines.length - limit} more`);
  return shown.join('\n');
}
