// Works around @graphql-tools/delegate 12.3.3 (via @graphql-tools/stitch 10.3.1, @graphql-mesh/runtime 0.109.1): prepareGatewayDocument adds a link's
// selectionSet fields under their own names, beside a client's `title: slug`, and the source refuses the call (fields that cannot be merged); canary: test/gateway/delegation-faults.test.ts.
// Successor: still present in 12.3.3, the newest release (npm latest, what Hive Gateway and @graphql-mesh/fusion-runtime delegate with); graphql-hive/gateway e104b45 still adds them unaliased (isFieldNodeSatisfiedBySelections).
import {
  GraphQLError,
  Kind,
  TypeInfo,
  getNamedType,
  isAbstractType,
  isObjectType,
  print,
  visit,
  visitWithTypeInfo,
  type DocumentNode,
  type ExecutionArgs,
  type FieldNode,
  type GraphQLCompositeType,
  type GraphQLSchema,
} from 'graphql';

/** The start of the aliases given to renamed selections, made longer until no client key starts with it. */
const ALIAS_PREFIX = '_gatewayAlias';

/** The part of graphql-tools' stitching info (on the stitched schema's extensions) read here: the fields delegation adds. */
interface StitchingInfo {
  /** Per type, the fields every call for it gets (a merged type's keys). */
  fieldNodesByType?: Record<string, readonly FieldNode[]>;
  /** Per type and gateway field, the fields the field's resolver reads (its `selectionSet`). */
  fieldNodesByField?: Record<string, Record<string, readonly FieldNode[]>>;
}

/** What a renamed document needs to give the client its own keys back. */
export interface ShadowingRenaming {
  document: DocumentNode;
  /** Every renamed key is this plus the client's key. */
  prefix: string;
}

/** Per type: the response keys delegation adds to a call for the gateway's own fields, with the fields it adds under them. */
type AddedKeys = Map<string, Map<string, FieldNode[]>>;

const addedKeysBySchema = new WeakMap<GraphQLSchema, { byType: AddedKeys; all: Set<string> }>();
const renamingByDocument = new WeakMap<DocumentNode, ShadowingRenaming | null>();

/**
 * The selections a client may write that delegation cannot send as they are. To resolve a link
 * (`Problem.translation`), graphql-tools' delegation adds the fields the link reads (`id title
 * statement`) to the call to the source, under their own names. A client selection with the same
 * response key but another field or other arguments (`title: slug`, `id: title`) then makes two
 * different fields under one key: the source refuses the call (fields that cannot be merged), and
 * the whole field failed with UPSTREAM_BAD_REQUEST. Even accepted, the link would read the client's
 * value as its own.
 *
 * This renames such client selections in the document Mesh's execution runs (and so in the call) to
 * an alias of the gateway's (`_gatewayAlias_title: slug`), and `restore` gives the client its own keys
 * back in the result, the errors' paths and any incremental payloads. Undefined when the document
 * has no such selection (almost every one; worked out once per document).
 */
export function renamedShadowingSelections(schema: GraphQLSchema, document: DocumentNode): ShadowingRenaming | undefined {
  let renaming = renamingByDocument.get(document);
  if (renaming === undefined) {
    renaming = renamingOf(schema, document);
    renamingByDocument.set(document, renaming);
  }
  return renaming ?? undefined;
}

/** The execution's arguments with shadowing selections renamed, and what restores the client's keys; undefined when none. */
export function withShadowingSelectionsRenamed(args: ExecutionArgs): { args: ExecutionArgs; restore: <T>(payload: T) => T } | undefined {
  const renaming = renamedShadowingSelections(args.schema, args.document);
  if (!renaming) return undefined;
  return { args: { ...args, document: renaming.document }, restore: (payload) => restorePayload(payload, renaming.prefix) };
}

function addedKeysOf(schema: GraphQLSchema): { byType: AddedKeys; all: Set<string> } {
  let added = addedKeysBySchema.get(schema);
  if (added) return added;
  added = { byType: new Map(), all: new Set() };
  const stitching = (schema.extensions as { stitchingInfo?: StitchingInfo }).stitchingInfo;
  const fieldsByType = new Map<string, FieldNode[]>();
  for (const [typeName, nodes] of Object.entries(stitching?.fieldNodesByType ?? {})) fieldsByType.set(typeName, [...nodes]);
  for (const [typeName, byField] of Object.entries(stitching?.fieldNodesByField ?? {})) {
    for (const nodes of Object.values(byField)) fieldsByType.set(typeName, [...(fieldsByType.get(typeName) ?? []), ...nodes]);
  }
  for (const [typeName, nodes] of fieldsByType) {
    const keys = new Map<string, FieldNode[]>();
    for (const node of nodes) {
      const key = node.alias?.value ?? node.name.value;
      keys.set(key, [...(keys.get(key) ?? []), node]);
      added.all.add(key);
    }
    added.byType.set(typeName, keys);
  }
  addedKeysBySchema.set(schema, added);
  return added;
}

/** The fields delegation may add under `key` in a selection set on `type` (on any of its possible types, for an abstract one). */
function addedUnder(schema: GraphQLSchema, byType: AddedKeys, type: GraphQLCompositeType, key: string): FieldNode[] {
  const types = isAbstractType(type) ? schema.getPossibleTypes(type) : isObjectType(type) ? [type] : [];
  return types.flatMap((possible) => byType.get(possible.name)?.get(key) ?? []);
}

/** Whether `selection` and `added` cannot share one response key: another field, or other arguments. */
function clashes(selection: FieldNode, added: FieldNode): boolean {
  if (selection.name.value !== added.name.value) return true;
  const argumentsOf = (node: FieldNode) => (node.arguments ?? []).map((argument) => print(argument)).join(',');
  return argumentsOf(selection) !== argumentsOf(added);
}

function renamingOf(schema: GraphQLSchema, document: DocumentNode): ShadowingRenaming | null {
  const { byType, all } = addedKeysOf(schema);
  if (all.size === 0) return null;
  // A first pass without types: which response keys the client uses, and whether any could clash.
  const clientKeys: string[] = [];
  let candidate = false;
  visit(document, {
    Field(node) {
      const key = node.alias?.value ?? node.name.value;
      clientKeys.push(key);
      if (all.has(key) && (key !== node.name.value || (node.arguments?.length ?? 0) > 0)) candidate = true;
    },
  });
  if (!candidate) return null;
  let prefix = `${ALIAS_PREFIX}_`;
  while (clientKeys.some((key) => key.startsWith(prefix))) prefix = `_${prefix}`;
  const typeInfo = new TypeInfo(schema);
  let renamed = false;
  const renamedDocument = visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Field(node) {
        const parent = typeInfo.getParentType();
        const key = node.alias?.value ?? node.name.value;
        if (!parent || !all.has(key)) return undefined;
        if (!addedUnder(schema, byType, getNamedType(parent) as GraphQLCompositeType, key).some((added) => clashes(node, added))) return undefined;
        renamed = true;
        return { ...node, alias: { kind: Kind.NAME, value: `${prefix}${key}` } };
      },
    }),
  );
  return renamed ? { document: renamedDocument, prefix } : null;
}

/**
 * An execution result or incremental payload with the client's keys back: in its data and items, in
 * its errors' paths and in the paths of its incremental parts.
 */
function restorePayload<T>(payload: T, prefix: string): T {
  if (!payload || typeof payload !== 'object') return payload;
  const restored: Record<string, unknown> = { ...(payload as Record<string, unknown>) };
  if ('data' in restored) restored.data = restoreValue(restored.data, prefix);
  if ('items' in restored) restored.items = restoreValue(restored.items, prefix);
  if (Array.isArray(restored.path)) restored.path = restorePath(restored.path, prefix);
  if (Array.isArray(restored.errors)) restored.errors = restored.errors.map((error) => restoreError(error, prefix));
  for (const parts of ['incremental', 'pending', 'completed'] as const) {
    if (Array.isArray(restored[parts])) restored[parts] = (restored[parts] as unknown[]).map((part) => restorePayload(part, prefix));
  }
  return restored as T;
}

function restoreValue(value: unknown, prefix: string): unknown {
  if (Array.isArray(value)) return value.map((item) => restoreValue(item, prefix));
  if (!value || typeof value !== 'object') return value;
  const restored: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) restored[key.startsWith(prefix) ? key.slice(prefix.length) : key] = restoreValue(item, prefix);
  return restored;
}

function restorePath(path: readonly (string | number)[], prefix: string): (string | number)[] {
  return path.map((segment) => (typeof segment === 'string' && segment.startsWith(prefix) ? segment.slice(prefix.length) : segment));
}

function restoreError(error: unknown, prefix: string): unknown {
  if (!(error instanceof GraphQLError) || !error.path?.some((segment) => typeof segment === 'string' && segment.startsWith(prefix))) return error;
  return new GraphQLError(error.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: restorePath(error.path, prefix),
    originalError: error.originalError,
    extensions: error.extensions,
  });
}
