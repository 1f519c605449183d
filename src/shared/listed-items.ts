import { getNamedType, getNullableType, isListType, isObjectType, type GraphQLField, type GraphQLObjectType, type GraphQLOutputType } from 'graphql';

/**
 * How a field hands out a list of objects: as a plain list, or through a connection object's
 * `nodes`, `items` or `edges { node }` (the shapes problems services use). GraphiQL's examples and
 * prewarming's catalogue walk both ask the problems list for its items, whatever its shape.
 */
export interface ListedItems {
  shape: 'list' | 'nodes' | 'items' | 'edges';
  /** The objects listed. */
  item: GraphQLObjectType;
  /** The connection object, for `totalCount` and `pageInfo`; undefined for a plain list. */
  connection: GraphQLObjectType | undefined;
  /** Whether each edge carries a `cursor` (String or ID) to ask for the page after it. */
  edgeCursor: boolean;
}

/** The items a field of this type lists, or undefined when it lists no objects. */
export function listedItemsOf(type: GraphQLOutputType): ListedItems | undefined {
  const nullable = getNullableType(type);
  if (isListType(nullable)) {
    const item = getNamedType(nullable);
    return isObjectType(item) ? { shape: 'list', item, connection: undefined, edgeCursor: false } : undefined;
  }
  if (!isObjectType(nullable)) return undefined;
  const fields = nullable.getFields();
  for (const shape of ['nodes', 'items'] as const) {
    const item = listedObject(fields[shape]);
    if (item) return { shape, item, connection: nullable, edgeCursor: false };
  }
  const edge = listedObject(fields.edges);
  const node = edge?.getFields().node && getNamedType(edge.getFields().node.type);
  if (!edge || !node || !isObjectType(node)) return undefined;
  const cursor = edge.getFields().cursor;
  return { shape: 'edges', item: node, connection: nullable, edgeCursor: Boolean(cursor && ['String', 'ID'].includes(getNamedType(cursor.type).name)) };
}

/** The object type a field lists, when it is a list of objects. */
function listedObject(field: GraphQLField<unknown, unknown> | undefined): GraphQLObjectType | undefined {
  if (!field || !isListType(getNullableType(field.type))) return undefined;
  const named = getNamedType(field.type);
  return isObjectType(named) ? named : undefined;
}
