import {
  Kind,
  getNamedType,
  getOperationAST,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
  isUnionType,
  print,
  stripIgnoredCharacters,
  type DirectiveNode,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLNamedType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';

/** An operation the source can answer by itself, and what to send it. */
export interface ForwardableOperation {
  operation: OperationDefinitionNode;
  /** Every fragment of the document, by name (for the answer's root fields). */
  fragments: Record<string, FragmentDefinitionNode>;
  /** The operation and the fragments it uses, printed compactly: the document's other operations may name gateway fields. */
  query: string;
  operationName?: string;
  /**
   * Whether a root field of the source is selected whatever the variables say. When not, the
   * operation only goes to the source if @skip/@include leave one: the gateway answers a lone
   * `__typename` itself, with no call.
   */
  callsWhateverTheVariables: boolean;
}

export interface ForwardableOperationsOptions {
  /** The source's own schema, as Mesh built it from the source. */
  sourceSchema: GraphQLSchema;
  /** `Type.field` coordinates the gateway adds or resolves itself (additionalTypeDefs, additionalResolvers). */
  gatewayFields: ReadonlySet<string>;
}

/** The only directives a source is sure to read as the gateway does. */
const FORWARDED_DIRECTIVES = new Set(['include', 'skip']);

/**
 * Tells, per operation, whether one source can answer it as the gateway would: a query whose every
 * field (through fragments and inline fragments) is a field of the same type in the source's own
 * schema, with the same arguments and result type, not one the gateway adds or resolves itself, and
 * no introspection beyond `__typename` and no directive but @include/@skip (so no @defer/@stream).
 * Queries only: the delegated path sends each root field of a mutation as its own call, in order.
 * The answer is worked out once per document and operation name (yoga hands the same parsed document
 * for the same text), so a repeated operation costs one map lookup.
 */
export function forwardableOperations({ sourceSchema, gatewayFields }: ForwardableOperationsOptions) {
  const decided = new WeakMap<DocumentNode, Map<string, ForwardableOperation | null>>();
  return (schema: GraphQLSchema, document: DocumentNode, operationName: string | null | undefined): ForwardableOperation | undefined => {
    let byName = decided.get(document);
    if (!byName) decided.set(document, (byName = new Map()));
    const name = operationName ?? '';
    let decision = byName.get(name);
    if (decision === undefined) {
      decision = decide(schema, sourceSchema, gatewayFields, document, operationName) ?? null;
      byName.set(name, decision);
    }
    return decision ?? undefined;
  };
}

function decide(
  schema: GraphQLSchema,
  sourceSchema: GraphQLSchema,
  gatewayFields: ReadonlySet<string>,
  document: DocumentNode,
  operationName: string | null | undefined,
): ForwardableOperation | undefined {
  const operation = getOperationAST(document, operationName);
  if (!operation || operation.operation !== 'query' || operation.directives?.length) return undefined;
  const root = schema.getQueryType();
  if (!root || sourceSchema.getQueryType()?.name !== root.name) return undefined;
  for (const variable of operation.variableDefinitions ?? []) {
    if (variable.directives?.length) return undefined;
    let type = variable.type;
    while (type.kind !== Kind.NAMED_TYPE) type = type.type;
    if (!sameKind(schema.getType(type.name.value), sourceSchema.getType(type.name.value))) return undefined;
  }
  const fragments: Record<string, FragmentDefinitionNode> = {};
  for (const definition of document.definitions) if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments[definition.name.value] = definition;
  const used = new Set<string>();

  const forwardable = (selectionSet: SelectionSetNode, parent: GraphQLNamedType): boolean => {
    for (const selection of selectionSet.selections) {
      if (!onlyForwardedDirectives(selection.directives)) return false;
      if (selection.kind === Kind.FIELD) {
        const fieldName = selection.name.value;
        if (fieldName === '__typename') continue;
        if (fieldName.startsWith('__')) return false;
        const sourceParent = sourceSchema.getType(parent.name);
        if (!(isObjectType(parent) || isInterfaceType(parent)) || !sameKind(parent, sourceParent)) return false;
        if (gatewayFields.has(`${parent.name}.${fieldName}`)) return false;
        const field = parent.getFields()[fieldName];
        const sourceField = (sourceParent as typeof parent).getFields()[fieldName];
        if (!field || !sourceField) return false;
        const type = getNamedType(field.type);
        if (type.name !== getNamedType(sourceField.type).name) return false;
        if (selection.arguments?.some((argument) => !sourceField.args.some((each) => each.name === argument.name.value))) return false;
        if (selection.selectionSet && !forwardable(selection.selectionSet, type)) return false;
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        const type = selection.typeCondition ? schema.getType(selection.typeCondition.name.value) : parent;
        if (!type || !sameKind(type, sourceSchema.getType(type.name)) || !forwardable(selection.selectionSet, type)) return false;
      } else {
        const fragmentName = selection.name.value;
        // A fragment's type condition fixes its type: one check per fragment is enough.
        if (used.has(fragmentName)) continue;
        const fragment = fragments[fragmentName];
        if (!fragment || !onlyForwardedDirectives(fragment.directives)) return false;
        used.add(fragmentName);
        const type = schema.getType(fragment.typeCondition.name.value);
        if (!type || !sameKind(type, sourceSchema.getType(type.name)) || !forwardable(fragment.selectionSet, type)) return false;
      }
    }
    return true;
  };
  if (!forwardable(operation.selectionSet, root)) return undefined;
  const rootFields = sourceFieldsAtRoot(operation.selectionSet, fragments);
  if (rootFields === 'none') return undefined;

  const sent: DocumentNode = {
    kind: Kind.DOCUMENT,
    definitions: [operation, ...document.definitions.filter((definition) => definition.kind === Kind.FRAGMENT_DEFINITION && used.has(definition.name.value))],
  };
  return {
    operation,
    fragments,
    query: stripIgnoredCharacters(print(sent)),
    operationName: operation.name?.value,
    callsWhateverTheVariables: rootFields === 'always',
  };
}

/** Whether the root selects a field of the source other than `__typename`: always, only under @skip/@include, or never. */
function sourceFieldsAtRoot(selectionSet: SelectionSetNode, fragments: Record<string, FragmentDefinitionNode>): 'always' | 'conditionally' | 'none' {
  let found: 'conditionally' | 'none' = 'none';
  const visit = (selections: SelectionSetNode, conditional: boolean, spread: Set<string>): boolean => {
    for (const selection of selections.selections) {
      const underCondition = conditional || !!selection.directives?.length;
      if (selection.kind === Kind.FIELD) {
        if (selection.name.value === '__typename') continue;
        if (!underCondition) return true;
        found = 'conditionally';
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        if (visit(selection.selectionSet, underCondition, spread)) return true;
      } else if (!spread.has(selection.name.value) && fragments[selection.name.value]) {
        spread.add(selection.name.value);
        if (visit(fragments[selection.name.value].selectionSet, underCondition, spread)) return true;
      }
    }
    return false;
  };
  return visit(selectionSet, false, new Set()) ? 'always' : found;
}

function onlyForwardedDirectives(directives: readonly DirectiveNode[] | undefined): boolean {
  return !directives || directives.every((directive) => FORWARDED_DIRECTIVES.has(directive.name.value));
}

/** Both exist, as the same kind of type (object, interface, union, enum, input, scalar). */
function sameKind(type: GraphQLNamedType | undefined | null, sourceType: GraphQLNamedType | undefined | null): boolean {
  return !!type && !!sourceType && kindOf(type) === kindOf(sourceType);
}

function kindOf(type: GraphQLNamedType): string {
  if (isObjectType(type)) return 'object';
  if (isInterfaceType(type)) return 'interface';
  if (isUnionType(type)) return 'union';
  if (isEnumType(type)) return 'enum';
  if (isInputObjectType(type)) return 'input';
  return 'scalar';
}

/**
 * The `Type.field` coordinates the gateway defines or resolves itself: every field its additional
 * type definitions declare (new types and extensions of the source's) and every field its additional
 * resolvers resolve. Such a field is never the source's to answer, even where the source has one of
 * the same name.
 */
export function gatewayFieldsOf(typeDefs: readonly DocumentNode[], resolvers: readonly unknown[]): Set<string> {
  const fields = new Set<string>();
  for (const document of typeDefs) {
    for (const definition of document.definitions) {
      if (!('fields' in definition) || !definition.fields || !('name' in definition) || !definition.name) continue;
      for (const field of definition.fields) fields.add(`${definition.name.value}.${field.name.value}`);
    }
  }
  for (const map of resolvers) {
    if (!map || typeof map !== 'object') continue;
    for (const [typeName, typeResolvers] of Object.entries(map)) {
      if (!typeResolvers || typeof typeResolvers !== 'object') continue;
      for (const fieldName of Object.keys(typeResolvers)) fields.add(`${typeName}.${fieldName}`);
    }
  }
  return fields;
}
