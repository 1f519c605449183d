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
  visit,
  type DirectiveNode,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type FragmentSpreadNode,
  type GraphQLInterfaceType,
  type GraphQLNamedType,
  type InlineFragmentNode,
  type GraphQLSchema,
  type GraphQLObjectType,
  type OperationDefinitionNode,
  type SelectionNode,
  type SelectionSetNode,
} from 'graphql';

/** What the fields a link reads are aliased with in the operation sent (`_gatewayLink_title`). */
export const LINK_ALIAS_PREFIX = '_gatewayLink_';

/** An operation the source can answer by itself, and what to send it. */
export interface ForwardableOperation {
  /** The public schema the operation was validated against (the types of what it selects). */
  schema: GraphQLSchema;
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
  /**
   * Whether the operation selects link fields (see ForwardedLink): the query sent has each of them
   * replaced by the source fields the link reads, and the answer is completed by the gateway.
   */
  linked: boolean;
  /**
   * Whether fragments of the operation carry `@defer`: the query sent has none (the source answers
   * everything at once) and the gateway delivers the deferred parts itself, in increments.
   */
  deferred: boolean;
}

/**
 * A field the gateway adds to a source type and resolves from fields of the same object (a link,
 * like `Problem.translation`): an operation selecting it can still go to the source whole, asking
 * for the fields the link reads instead, under `aliases` (response key → source field), and the
 * gateway resolves the link from them. Only plain fields and `__typename` may be selected under it.
 */
export interface ForwardedLink {
  /** The response keys the link's fields are fetched under, by the source field each names (e.g. `{ _gatewayLinkTitle: 'title' }`). */
  aliases: Record<string, string>;
}

export interface ForwardableOperationsOptions {
  /** The source's own schema, as Mesh built it from the source. */
  sourceSchema: GraphQLSchema;
  /** `Type.field` coordinates the gateway adds or resolves itself (additionalTypeDefs, additionalResolvers). */
  gatewayFields: ReadonlySet<string>;
  /** Gateway fields operations may still be forwarded with, by `Type.field`. @default none */
  links?: ReadonlyMap<string, ForwardedLink>;
}

/** The only directives a source is sure to read as the gateway does. */
const FORWARDED_DIRECTIVES = new Set(['include', 'skip']);

/** Directives on fragments the gateway applies itself, over the source's answer, and does not send. */
const GATEWAY_FRAGMENT_DIRECTIVES = new Set(['defer']);

/**
 * Tells, per operation, whether one source can answer it as the gateway would: a query whose every
 * field (through fragments and inline fragments) is a field of the same type in the source's own
 * schema, with the same arguments and result type, not one the gateway adds or resolves itself, and
 * no introspection beyond `__typename` and no directive but @include/@skip (so no @defer/@stream).
 * Queries only: the delegated path sends each root field of a mutation as its own call, in order.
 * The answer is worked out once per document and operation name (yoga hands the same parsed document
 * for the same text), so a repeated operation costs one map lookup.
 */
export function forwardableOperations({ sourceSchema, gatewayFields, links = new Map() }: ForwardableOperationsOptions) {
  const decided = new WeakMap<DocumentNode, Map<string, ForwardableOperation | null>>();
  return (schema: GraphQLSchema, document: DocumentNode, operationName: string | null | undefined): ForwardableOperation | undefined => {
    let byName = decided.get(document);
    if (!byName) decided.set(document, (byName = new Map()));
    const name = operationName ?? '';
    let decision = byName.get(name);
    if (decision === undefined) {
      decision = decide(schema, sourceSchema, gatewayFields, links, document, operationName) ?? null;
      byName.set(name, decision);
    }
    return decision ?? undefined;
  };
}

function decide(
  schema: GraphQLSchema,
  sourceSchema: GraphQLSchema,
  gatewayFields: ReadonlySet<string>,
  links: ReadonlyMap<string, ForwardedLink>,
  document: DocumentNode,
  operationName: string | null | undefined,
): ForwardableOperation | undefined {
  const operation = getOperationAST(document, operationName);
  if (!operation || !forwardableHead(schema, sourceSchema, operation)) return undefined;
  const fragments: Record<string, FragmentDefinitionNode> = Object.create(null);
  for (const definition of document.definitions) if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments[definition.name.value] = definition;
  const sending = new SentSelections({ schema, sourceSchema, gatewayFields, links, fragments });
  const sentSelection = sending.selectionSet(operation.selectionSet, schema.getQueryType()!);
  // Completing a linked answer would need the `__typename` of every interface or union value.
  if (!sentSelection || (sending.linked && sending.abstract)) return undefined;
  const rootFields = sourceFieldsAtRoot(operation.selectionSet, fragments);
  if (rootFields === 'none') return undefined;
  return {
    schema,
    operation,
    fragments,
    query: sentQuery(document, operation, sentSelection, sending),
    operationName: operation.name?.value,
    callsWhateverTheVariables: rootFields === 'always',
    linked: sending.linked,
    deferred: sending.deferred,
  };
}

/** A query with no directive of its own, on the source's root type, whose variables' types the source has as the same kinds. */
function forwardableHead(schema: GraphQLSchema, sourceSchema: GraphQLSchema, operation: OperationDefinitionNode): boolean {
  if (operation.operation !== 'query' || operation.directives?.length) return false;
  const root = schema.getQueryType();
  if (!root || sourceSchema.getQueryType()?.name !== root.name) return false;
  for (const variable of operation.variableDefinitions ?? []) {
    if (variable.directives?.length) return false;
    let type = variable.type;
    while (type.kind !== Kind.NAMED_TYPE) type = type.type;
    if (!sameKind(schema.getType(type.name.value), sourceSchema.getType(type.name.value))) return false;
  }
  return true;
}

/** The operation as sent, printed compactly: its selections as sent and the fragments it uses, without variables only the gateway reads. */
function sentQuery(document: DocumentNode, operation: OperationDefinitionNode, sentSelection: SelectionSetNode, sending: SentSelections): string {
  const sentFragments = document.definitions.flatMap((definition) =>
    definition.kind === Kind.FRAGMENT_DEFINITION && sending.usedFragments.has(definition.name.value) ? [sending.usedFragments.get(definition.name.value)!] : [],
  );
  let sentOperation = operation;
  if (sending.linked || sending.deferred || sending.typenameAdded) {
    // Variables only the links' arguments, `@defer(if:)` or the @skip/@include of either used are
    // not sent: the source would refuse a variable its operation never uses.
    const usedVariables = new Set<string>();
    for (const node of [sentSelection, ...sentFragments]) visit(node, { Variable: (variable) => void usedVariables.add(variable.name.value) });
    const variableDefinitions = operation.variableDefinitions?.filter((definition) => usedVariables.has(definition.variable.name.value));
    sentOperation = { ...operation, selectionSet: sentSelection, variableDefinitions };
  }
  return stripIgnoredCharacters(print({ kind: Kind.DOCUMENT, definitions: [sentOperation, ...sentFragments] }));
}

/** What one selection came to: not forwardable (undefined), sent as it is, or sent changed. */
type Sending = 'same' | 'changed' | undefined;

interface SentSelectionsOptions {
  schema: GraphQLSchema;
  sourceSchema: GraphQLSchema;
  gatewayFields: ReadonlySet<string>;
  links: ReadonlyMap<string, ForwardedLink>;
  fragments: Record<string, FragmentDefinitionNode>;
}

/**
 * The selections of one operation as sent to the source, and what was found on the way: link
 * fields replaced by the fields they read, `@defer` taken off fragments, `__typename` added under
 * interfaces and unions; undefined for a selection set the source cannot answer as the gateway would.
 */
class SentSelections {
  linked = false;
  deferred = false;
  /** Whether an interface or union is selected. */
  abstract = false;
  /** Whether `__typename` was added under an interface or union, for the gateway to complete the answer by. */
  typenameAdded = false;
  /** Fragments spread, as sent (the same node when nothing in them changed), in the order first met. */
  readonly usedFragments = new Map<string, FragmentDefinitionNode>();

  private readonly schema: GraphQLSchema;
  private readonly sourceSchema: GraphQLSchema;
  private readonly gatewayFields: ReadonlySet<string>;
  private readonly links: ReadonlyMap<string, ForwardedLink>;
  private readonly fragments: Record<string, FragmentDefinitionNode>;

  constructor({ schema, sourceSchema, gatewayFields, links, fragments }: SentSelectionsOptions) {
    this.schema = schema;
    this.sourceSchema = sourceSchema;
    this.gatewayFields = gatewayFields;
    this.links = links;
    this.fragments = fragments;
  }

  /** The selection set as sent (the same node when nothing in it is a link), or undefined when the source cannot answer it. */
  selectionSet(selectionSet: SelectionSetNode, parent: GraphQLNamedType): SelectionSetNode | undefined {
    let changed = false;
    const sent: SelectionNode[] = [];
    for (const original of selectionSet.selections) {
      let selection = original;
      if (selection.kind !== Kind.FIELD && selection.directives?.some((directive) => GATEWAY_FRAGMENT_DIRECTIVES.has(directive.name.value))) {
        selection = { ...selection, directives: selection.directives.filter((directive) => !GATEWAY_FRAGMENT_DIRECTIVES.has(directive.name.value)) };
        this.deferred = true;
        changed = true;
      }
      if (!onlyForwardedDirectives(selection.directives)) return undefined;
      const sending =
        selection.kind === Kind.FIELD ? this.field(selection, parent, sent) : selection.kind === Kind.INLINE_FRAGMENT ? this.inlineFragment(selection, parent, sent) : this.spread(selection, sent);
      if (!sending) return undefined;
      if (sending === 'changed') changed = true;
    }
    return changed ? { ...selectionSet, selections: sent } : selectionSet;
  }

  private field(selection: FieldNode, parent: GraphQLNamedType, sent: SelectionNode[]): Sending {
    const fieldName = selection.name.value;
    // A response key of the client's own in the links' alias space would be taken for (or clash
    // with) what a link reads: `_gatewayLink_title: id` gave the link the id as the title to
    // translate. Delegation keeps them apart.
    if (selection.alias?.value.startsWith(LINK_ALIAS_PREFIX)) return undefined;
    if (fieldName === '__typename') {
      sent.push(selection);
      return 'same';
    }
    if (fieldName.startsWith('__')) return undefined;
    const sourceParent = this.sourceSchema.getType(parent.name);
    if (!(isObjectType(parent) || isInterfaceType(parent)) || !sameKind(parent, sourceParent)) return undefined;
    const coordinate = `${parent.name}.${fieldName}`;
    const link = this.links.get(coordinate);
    if (link) return this.link(selection, parent, sourceParent as typeof parent, link, sent);
    if (this.gatewayFields.has(coordinate)) return undefined;
    const field = parent.getFields()[fieldName];
    const sourceField = (sourceParent as typeof parent).getFields()[fieldName];
    if (!field || !sourceField) return undefined;
    const type = getNamedType(field.type);
    if (type.name !== getNamedType(sourceField.type).name) return undefined;
    if (isInterfaceType(type) || isUnionType(type)) this.abstract = true;
    if (selection.arguments?.some((argument) => !sourceField.args.some((each) => each.name === argument.name.value))) return undefined;
    if (!selection.selectionSet) {
      sent.push(selection);
      return 'same';
    }
    let sub = this.selectionSet(selection.selectionSet, type);
    if (!sub) return undefined;
    // The gateway completes the answer against the public schema, where an interface or union
    // value is resolved to its type by its `__typename`: asked for whether the client did or not.
    if ((isInterfaceType(type) || isUnionType(type)) && !sub.selections.some(isPlainTypename)) {
      sub = { ...sub, selections: [...sub.selections, TYPENAME] };
      this.typenameAdded = true;
    }
    sent.push(sub === selection.selectionSet ? selection : { ...selection, selectionSet: sub });
    return sub === selection.selectionSet ? 'same' : 'changed';
  }

  /** A link: its own response key is not sent; what it reads is, once per selection set. */
  private link(selection: FieldNode, parent: GraphQLObjectType | GraphQLInterfaceType, sourceParent: typeof parent, link: ForwardedLink, sent: SelectionNode[]): Sending {
    const field = parent.getFields()[selection.name.value];
    if (!field || !isObjectType(getNamedType(field.type)) || !plainSelection(selection.selectionSet, getNamedType(field.type) as GraphQLObjectType)) return undefined;
    const sourceFields = sourceParent.getFields();
    if (Object.values(link.aliases).some((name) => !sourceFields[name])) return undefined;
    for (const [alias, name] of Object.entries(link.aliases)) {
      if (sent.some((each) => each.kind === Kind.FIELD && each.alias?.value === alias)) continue;
      sent.push({ kind: Kind.FIELD, alias: { kind: Kind.NAME, value: alias }, name: { kind: Kind.NAME, value: name } });
    }
    this.linked = true;
    return 'changed';
  }

  private inlineFragment(selection: InlineFragmentNode, parent: GraphQLNamedType, sent: SelectionNode[]): Sending {
    const type = selection.typeCondition ? this.schema.getType(selection.typeCondition.name.value) : parent;
    if (!type || !sameKind(type, this.sourceSchema.getType(type.name))) return undefined;
    const sub = this.selectionSet(selection.selectionSet, type);
    if (!sub) return undefined;
    sent.push(sub === selection.selectionSet ? selection : { ...selection, selectionSet: sub });
    return sub === selection.selectionSet ? 'same' : 'changed';
  }

  private spread(selection: FragmentSpreadNode, sent: SelectionNode[]): Sending {
    const fragmentName = selection.name.value;
    sent.push(selection);
    // A fragment's type condition fixes its type: one check per fragment is enough.
    if (this.usedFragments.has(fragmentName)) return 'same';
    const fragment = this.fragments[fragmentName];
    if (!fragment || !onlyForwardedDirectives(fragment.directives)) return undefined;
    const type = this.schema.getType(fragment.typeCondition.name.value);
    if (!type || !sameKind(type, this.sourceSchema.getType(type.name))) return undefined;
    // Marked as used before its selections are read (a fragment that spreads itself is invalid, but never loops here).
    this.usedFragments.set(fragmentName, fragment);
    const sub = this.selectionSet(fragment.selectionSet, type);
    if (!sub) return undefined;
    if (sub !== fragment.selectionSet) this.usedFragments.set(fragmentName, { ...fragment, selectionSet: sub });
    return 'same';
  }
}

const TYPENAME: FieldNode = { kind: Kind.FIELD, name: { kind: Kind.NAME, value: '__typename' } };

/** A `__typename` with no alias and no directive: the one a value's type is read from. */
function isPlainTypename(selection: SelectionNode): boolean {
  return selection.kind === Kind.FIELD && selection.name.value === '__typename' && !selection.alias && !selection.directives?.length;
}

/** A link's selection: plain fields of its type and `__typename`, no fragments, no directive but @skip/@include. */
function plainSelection(selectionSet: SelectionSetNode | undefined, type: GraphQLObjectType): boolean {
  if (!selectionSet) return false;
  return selectionSet.selections.every(
    (selection) =>
      selection.kind === Kind.FIELD &&
      !selection.selectionSet &&
      onlyForwardedDirectives(selection.directives) &&
      (selection.name.value === '__typename' || Boolean(type.getFields()[selection.name.value])),
  );
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
