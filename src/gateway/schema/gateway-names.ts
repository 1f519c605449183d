import { MapperKind, mapSchema, pruneSchema } from '@graphql-tools/utils';
import { getNamedType, isNonNullType, Kind, type DocumentNode, type GraphQLFieldConfig, type GraphQLSchema } from 'graphql';

/** The names the gateway adds to the graph itself, which the problems service's own must not take. */
export interface GatewayNames {
  /** Types the gateway defines (`TranslationQuery`, `ProblemTranslation`…). */
  types: Set<string>;
  /** Fields it adds to types it extends, as `Type.field` (`Query.translation`, `Problem.translation`). */
  fields: Set<string>;
  /** Prefixes of the names a source of its own uses (the translation source's raw types and operations). */
  prefixes: string[];
}

/** The names the gateway's type definitions (`.meshrc.yaml`'s additionalTypeDefs) define and add, and its sources' prefixes. */
export function gatewayNamesOf(typeDefs: DocumentNode[], prefixes: string[]): GatewayNames {
  const names: GatewayNames = { types: new Set(), fields: new Set(), prefixes };
  for (const definition of typeDefs.flatMap((document) => document.definitions)) {
    if (definition.kind === Kind.OBJECT_TYPE_EXTENSION || definition.kind === Kind.INTERFACE_TYPE_EXTENSION) {
      for (const field of definition.fields ?? []) names.fields.add(`${definition.name.value}.${field.name.value}`);
    } else if ('name' in definition && definition.name && definition.kind !== Kind.DIRECTIVE_DEFINITION && !definition.kind.endsWith('Extension')) {
      names.types.add(definition.name.value);
    }
  }
  return names;
}

/**
 * The problems schema without what bears a name of the gateway's own: such a type, a field the
 * gateway adds (`Problem.translation`), every field whose type or required argument is such a type,
 * and optional arguments of such a type. Left out, not renamed: the gateway forwards operations to
 * the service as clients wrote them, so a renamed name would reach the service, which does not know
 * it. Unchanged (the same object) when nothing collides, which is the rule.
 */
export function withoutGatewayNames(schema: GraphQLSchema, names: GatewayNames): { schema: GraphQLSchema; leftOut: string[] } {
  const taken = (typeName: string) => names.types.has(typeName) || names.prefixes.some((prefix) => typeName.startsWith(prefix));
  const types = Object.keys(schema.getTypeMap()).filter((name) => !name.startsWith('__') && taken(name));
  const fields = [...names.fields].filter((coordinate) => {
    const [typeName, fieldName] = coordinate.split('.');
    const type = schema.getType(typeName) as { getFields?: () => Record<string, unknown> } | undefined;
    return Boolean(type?.getFields?.()[fieldName]);
  });
  const rootPrefixed = Object.keys(schema.getQueryType()?.getFields() ?? {}).filter((name) => names.prefixes.some((prefix) => name.startsWith(prefix)));
  if (types.length === 0 && fields.length === 0 && rootPrefixed.length === 0) return { schema, leftOut: [] };

  const leftOut = [...types.map((name) => `type ${name}`), ...fields.map((coordinate) => `field ${coordinate}`), ...rootPrefixed.map((name) => `field Query.${name}`)];
  const field = (config: GraphQLFieldConfig<unknown, unknown>, fieldName: string, typeName: string): GraphQLFieldConfig<unknown, unknown> | null => {
    const coordinate = `${typeName}.${fieldName}`;
    if (names.fields.has(coordinate) || (typeName === schema.getQueryType()?.name && rootPrefixed.includes(fieldName))) return null;
    const args = Object.entries(config.args ?? {});
    const takenArgs = args.filter(([, arg]) => taken(getNamedType(arg.type).name));
    if (taken(getNamedType(config.type).name) || takenArgs.some(([, arg]) => isNonNullType(arg.type) && arg.defaultValue === undefined)) {
      leftOut.push(`field ${coordinate} (of a type left out)`);
      return null;
    }
    if (takenArgs.length === 0) return config;
    leftOut.push(...takenArgs.map(([name]) => `argument ${coordinate}(${name}:) (of a type left out)`));
    return { ...config, args: Object.fromEntries(args.filter((entry) => !takenArgs.includes(entry))) };
  };
  const mapped = mapSchema(schema, {
    [MapperKind.TYPE]: (type) => (taken(type.name) ? null : type),
    [MapperKind.COMPOSITE_FIELD]: field,
    [MapperKind.INPUT_OBJECT_FIELD]: (config, fieldName, typeName) => {
      if (!taken(getNamedType(config.type).name)) return config;
      leftOut.push(`input field ${typeName}.${fieldName} (of a type left out)`);
      return null;
    },
  });
  // A type left with no field (all of them of types left out) goes too, and what only it used.
  return { schema: pruneSchema(mapped), leftOut };
}
