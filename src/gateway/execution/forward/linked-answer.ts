import { normalizedExecutor } from '@graphql-tools/executor';
import {
  buildASTSchema,
  getNullableType,
  GraphQLError,
  isNonNullType,
  isLeafType,
  isListType,
  Kind,
  parse,
  printSchema,
  type DocumentNode,
  type ExecutionResult,
  type GraphQLFieldResolver,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
} from 'graphql';
import { LINK_ALIAS_PREFIX, type ForwardedLink } from './forwardable-operation.ts';

/** A link as the fast path completes it: what it reads (ForwardedLink) and its resolver. */
export interface CompletedLink extends ForwardedLink {
  /** The link's resolver, given the fields it reads by their own names. */
  resolve: GraphQLFieldResolver<Record<string, unknown>, unknown>;
}

export interface LinkCompletionOptions {
  /** Links by `Type.field` (e.g. `Problem.translation`). */
  links: ReadonlyMap<string, CompletedLink>;
  /** Resolvers of fields of the links' result types, by `Type.field` (e.g. `ProblemTranslation.statementHtml`); other fields are read by name. */
  resultFields: ReadonlyMap<string, GraphQLFieldResolver<unknown, unknown>>;
}

/** How the completion reads one field: through a link, a result field's resolver, or from the value by name or by response key. */
type FieldReading =
  | { link: CompletedLink; aliases: [alias: string, name: string][] }
  | { own: GraphQLFieldResolver<unknown, unknown> }
  | { byName: boolean };

export interface LinkedAnswerRequest {
  schema: GraphQLSchema;
  document: DocumentNode;
  operationName?: string | null;
  variableValues?: Record<string, unknown> | null;
  contextValue: unknown;
  /** The source's data for the operation as sent (links replaced by the fields they read). */
  data: Record<string, unknown>;
}

/**
 * Completes the source's answer to a linked or deferred operation (see ForwardedLink and
 * ForwardableOperation.deferred) as the gateway's execution would: graphql-tools' executor (the one
 * yoga and Mesh use) runs the client's own operation over the source's data, `@defer` delivered in
 * increments, with each value read by its response key (aliases included), each link resolved by
 * its own resolver from the fields fetched for it, and the links' result fields read by name or by
 * their resolvers. Aliases, fragments, @skip/@include, nulls (and non-null checks), field order and
 * the links' errors (with their paths and locations) come out as execution gives them, and so do
 * values the schema cannot represent (an unknown enum value, a string in a Float, an object in an ID:
 * the built-in scalars' and enums' own serialization, as delegation completes them). Executed on a
 * copy of the public schema without its resolvers (Mesh's would delegate again), made once per schema.
 */
export function linkCompletion({ links, resultFields }: LinkCompletionOptions): (request: LinkedAnswerRequest) => Promise<ExecutionResult | AsyncIterable<unknown>> {
  const shapes = new WeakMap<GraphQLSchema, GraphQLSchema>();
  const resultTypes = new Set([...resultFields.keys()].map((coordinate) => coordinate.split('.')[0]));
  /** How each field is read, worked out once per type and field rather than for every value of a page. */
  const readings = new WeakMap<GraphQLObjectType, Map<string, FieldReading>>();
  const readingOf = (parentType: GraphQLObjectType, fieldName: string): FieldReading => {
    let byField = readings.get(parentType);
    if (!byField) readings.set(parentType, (byField = new Map()));
    let reading = byField.get(fieldName);
    if (!reading) {
      const coordinate = `${parentType.name}.${fieldName}`;
      const link = links.get(coordinate);
      const own = resultFields.get(coordinate);
      reading = link
        ? { link, aliases: Object.entries(link.aliases) }
        : own
          ? { own }
          : // A link's result is the gateway's object, by field name; the source's data is by response key.
            { byName: resultTypes.has(parentType.name) };
      byField.set(fieldName, reading);
    }
    return reading;
  };
  const fieldResolver: GraphQLFieldResolver<Record<string, unknown>, unknown> = (source, args, context, info) => {
    const reading = readingOf(info.parentType, info.fieldName);
    if ('link' in reading) {
      const read: Record<string, unknown> = {};
      for (const [alias, name] of reading.aliases) read[name] = source[alias];
      return reading.link.resolve(read, args, context, info);
    }
    if ('own' in reading) return reading.own(source, args, context, info);
    if (reading.byName) return source[info.fieldName];
    const value = externalValue(source[info.path.key], info.returnType);
    // Raised here, in graphql-js's own words, rather than by the executor: an error of the source's
    // data, written for clients (the executor's own would read as a failure of the gateway's code).
    if (value == null && isNonNullType(info.returnType)) {
      throw new GraphQLError(`Cannot return null for non-nullable field ${info.parentType.name}.${info.fieldName}.`);
    }
    if (value != null && isListType(getNullableType(info.returnType)) && !Array.isArray(value)) {
      throw new GraphQLError(`Expected Iterable, but did not find one for field "${info.parentType.name}.${info.fieldName}".`);
    }
    return value;
  };
  return async ({ schema, document, operationName, variableValues, contextValue, data }) => {
    let shape = shapes.get(schema);
    if (!shape) {
      shape = buildASTSchema(parse(printSchema(schema)), { assumeValidSDL: true });
      shapes.set(schema, shape);
    }
    return normalizedExecutor({
      schema: shape,
      document,
      rootValue: data,
      contextValue,
      variableValues,
      operationName,
      fieldResolver,
    }) as Promise<ExecutionResult | AsyncIterable<unknown>>;
  };
}

/**
 * A source's value as delegation takes it (graphql-tools' resolveExternalValue): a leaf value is
 * read as input of its type (`parseValue`), and one the type cannot take becomes null, so a non-null
 * field then fails as delegation's does ("Cannot return null…"); lists are read item by item.
 */
export function externalValue(value: unknown, type: GraphQLOutputType): unknown {
  if (value == null) return value;
  const nullable = getNullableType(type);
  if (isLeafType(nullable)) {
    try {
      return nullable.parseValue(value);
    } catch {
      return null;
    }
  }
  if (isListType(nullable) && Array.isArray(value)) return value.map((item) => externalValue(item, nullable.ofType));
  return value;
}

/**
 * The links of additional resolver maps (as `.meshrc.yaml` lists them), for linkCompletion: a field
 * resolved with a `selectionSet` (the source fields it reads) is a link, fetched under aliases
 * `_gatewayLink_<field>`; a plain resolver of another type is a result field. Undefined when there
 * is no link, or when a map holds something else (a subscription, a type resolver): the fast path
 * then leaves every linked operation to delegation.
 */
export function completedLinksOf(resolverMaps: readonly unknown[]): LinkCompletionOptions | undefined {
  const links = new Map<string, CompletedLink>();
  const resultFields = new Map<string, GraphQLFieldResolver<unknown, unknown>>();
  for (const map of resolverMaps) {
    if (!map || typeof map !== 'object') return undefined;
    for (const [typeName, fields] of Object.entries(map)) {
      if (!fields || typeof fields !== 'object') return undefined;
      for (const [fieldName, resolver] of Object.entries(fields)) {
        const coordinate = `${typeName}.${fieldName}`;
        if (typeof resolver === 'function') {
          resultFields.set(coordinate, resolver as GraphQLFieldResolver<unknown, unknown>);
          continue;
        }
        const { selectionSet, resolve } = (resolver ?? {}) as { selectionSet?: unknown; resolve?: unknown };
        if (typeof selectionSet !== 'string' || typeof resolve !== 'function') return undefined;
        const read = parse(selectionSet).definitions[0];
        if (read?.kind !== Kind.OPERATION_DEFINITION) return undefined;
        const aliases: Record<string, string> = {};
        for (const selection of read.selectionSet.selections) {
          if (selection.kind !== Kind.FIELD || selection.selectionSet || selection.arguments?.length) return undefined;
          aliases[`${LINK_ALIAS_PREFIX}${selection.name.value}`] = selection.name.value;
        }
        links.set(coordinate, { aliases, resolve: resolve as CompletedLink['resolve'] });
      }
    }
  }
  return links.size > 0 ? { links, resultFields } : undefined;
}
