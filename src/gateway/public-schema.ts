import { GraphQLDeferDirective, GraphQLStreamDirective, MapperKind, mapSchema } from '@graphql-tools/utils';
import { GraphQLSchema, isNonNullType } from 'graphql';

/**
 * Directives the OpenAPI source uses to drive its own HTTP calls. They work on the source's
 * subschema; in the public schema they only leak implementation detail into introspection.
 */
const MESH_INTERNAL_DIRECTIVES = new Set(['enum', 'httpOperation', 'regexp', 'resolveRoot', 'statusCodeTypeName', 'transport', 'typescript']);

/** Root fields the gateway resolves itself and that cannot fail. */
const GATEWAY_ROOT_FIELDS = new Set(['translation']);

/**
 * The schema clients see, derived from the mesh's:
 * - without Mesh's internal directives;
 * - every root query field of the problems service nullable. An upstream may declare
 *   `problems: ProblemConnection!`; served as is, a problems outage would null the whole `data`
 *   (GraphQL propagates null to the nearest nullable parent) and take the translation fields with it.
 *   Nullable, the outage costs that field and its error only;
 * - with `@defer` and `@stream`, which the gateway serves (useDeferStream), so tools that read this
 *   schema accept operations that use them.
 */
export function toPublicSchema(schema: GraphQLSchema): GraphQLSchema {
  const mapped = mapSchema(schema, {
    [MapperKind.DIRECTIVE]: (directive) => (MESH_INTERNAL_DIRECTIVES.has(directive.name) ? null : directive),
    [MapperKind.QUERY_ROOT_FIELD]: (field, fieldName) =>
      isNonNullType(field.type) && !GATEWAY_ROOT_FIELDS.has(fieldName) ? { ...field, type: field.type.ofType } : field,
  });
  // The @transport usages sit on the schema definition node; drop them with it.
  mapped.astNode = undefined;
  mapped.extensionASTNodes = [];
  const incremental = [GraphQLDeferDirective, GraphQLStreamDirective].filter((directive) => !mapped.getDirective(directive.name));
  return new GraphQLSchema({ ...mapped.toConfig(), directives: [...mapped.getDirectives(), ...incremental] });
}
