import { getNamedType, isListType, isNonNullType, isObjectType, type GraphQLField, type GraphQLObjectType, type GraphQLSchema } from 'graphql';
import { sha256Of } from '../../../shared/hash.ts';

/**
 * How one page of the problems catalogue is asked for with its translations: a GraphQL operation
 * over the gateway's own schema, so that prewarming goes through the link as readers do (batching,
 * the translation cache, the learned limits, whatever the link serves first).
 */
export interface CataloguePagePlan {
  document: string;
  /** Variables of one page: how many problems, after which cursor (null: the first page), into which language. */
  variables(first: number, after: string | null, to: string): Record<string, unknown>;
}

/**
 * The plan for `schema`, or why prewarming cannot run on it: the catalogue must be a paginated
 * `problems(first, after)` connection (nodes or edges) of problems with an `id` and the
 * `translation(to:)` link. The argument types are the schema's own, as the service declares them.
 */
export function planCataloguePage(schema: GraphQLSchema): CataloguePagePlan | { reason: string } {
  const problems = schema.getQueryType()?.getFields().problems;
  if (!problems) return { reason: 'the schema has no Query.problems list' };
  const argument = (name: string) => problems.args.find((arg) => arg.name === name);
  const first = argument('first');
  const after = argument('after');
  if (!first || !after || getNamedType(first.type).name !== 'Int' || getNamedType(after.type).name !== 'String') {
    return { reason: 'Query.problems takes no `first: Int` and `after: String` to walk it page by page' };
  }
  const connection = getNamedType(problems.type);
  if (!isObjectType(connection)) return { reason: 'Query.problems is not a connection' };
  const fields = connection.getFields();
  const pageInfo = fields.pageInfo && getNamedType(fields.pageInfo.type);
  if (!pageInfo || !isObjectType(pageInfo) || !pageInfo.getFields().hasNextPage || !pageInfo.getFields().endCursor) {
    return { reason: 'Query.problems has no pageInfo { hasNextPage endCursor }' };
  }
  const problemType = nodeTypeOf(connection);
  if (!problemType) return { reason: 'Query.problems lists no nodes (or edges { node })' };
  const { type: node, selection } = problemType;
  const translation = node.getFields().translation;
  const to = translation?.args.find((arg) => arg.name === 'to');
  if (!translation || !to || !isObjectType(getNamedType(translation.type))) return { reason: `the ${node.name}.translation link is not in the schema` };
  if (!node.getFields().id) return { reason: `${node.name} has no id` };
  const translated = getNamedType(translation.type) as GraphQLObjectType;
  const texts = ['title', 'statement'].filter((name) => translated.getFields()[name]);
  const own = ['title', 'statement'].filter((name) => node.getFields()[name]);
  const total = fields.totalCount && getNamedType(fields.totalCount.type).name === 'Int' ? ' totalCount' : '';
  const problemSelection = `id ${own.join(' ')} translation(to: $to) { ${texts.join(' ') || '__typename'} }`;
  const document = /* GraphQL */ `query TranslationPrewarmPage($first: ${first.type.toString()}, $after: ${after.type.toString()}, $to: ${to.type.toString()}) {
  problems(first: $first, after: $after) { ${selection(problemSelection)} pageInfo { hasNextPage endCursor }${total} }
}`;
  return { document, variables: (count, cursor, language) => ({ first: count, after: cursor, to: language }) };
}

/** The problem type of a connection and how to select its problems: `nodes { … }` or `edges { node { … } }`. */
function nodeTypeOf(connection: GraphQLObjectType): { type: GraphQLObjectType; selection: (inner: string) => string } | undefined {
  const listed = (field: GraphQLField<unknown, unknown> | undefined) => {
    if (!field) return undefined;
    const type = isNonNullType(field.type) ? field.type.ofType : field.type;
    const named = getNamedType(field.type);
    return isListType(type) && isObjectType(named) ? named : undefined;
  };
  const nodes = listed(connection.getFields().nodes);
  if (nodes) return { type: nodes, selection: (inner) => `nodes { ${inner} }` };
  const edges = listed(connection.getFields().edges);
  const node = edges?.getFields().node && getNamedType(edges.getFields().node.type);
  if (node && isObjectType(node)) return { type: node, selection: (inner) => `edges { node { ${inner} } }` };
  return undefined;
}

/** One problem of a page as prewarming sees it. */
export interface PagedProblem {
  /** A digest of the problem's id and texts, chained into the catalogue's fingerprint. */
  digest: string;
  /** Translated (or found cached): the reader's page will be too. */
  translated: boolean;
  /** Why not, when not: the error code of its translation. */
  failure?: string;
}

export interface CataloguePage {
  problems: PagedProblem[];
  hasNextPage: boolean;
  endCursor: string | null;
  /** Problems in the whole catalogue, when the connection tells. */
  total?: number;
  /** Errors worth trying the page again for (the service slow, down, over its rate), with the longest wait it asked for. */
  transient?: { codes: string[]; retryAfterMs?: number };
}

interface ResultError {
  path?: readonly (string | number)[];
  extensions?: Record<string, unknown>;
}

/** Codes of failures of a moment: the same page asked again later may succeed. */
const TRANSIENT_CODES = new Set(['UPSTREAM_RATE_LIMITED', 'UPSTREAM_ERROR', 'UPSTREAM_UNAVAILABLE', 'UPSTREAM_TIMEOUT', 'INTERNAL_SERVER_ERROR', 'OPERATION_LIMIT_EXCEEDED']);

/** Reads an execution result of the plan's document; a page with no list at all is all transient. */
export function readCataloguePage(result: { data?: unknown; errors?: readonly ResultError[] | null }): CataloguePage {
  const errors = result.errors ?? [];
  const transientErrors = errors.filter((error) => TRANSIENT_CODES.has(codeOf(error)));
  const retryAfters = transientErrors.map((error) => Number(error.extensions?.retryAfter)).filter((seconds) => Number.isFinite(seconds) && seconds > 0);
  const transient = transientErrors.length > 0
    ? { codes: [...new Set(transientErrors.map(codeOf))], ...(retryAfters.length > 0 ? { retryAfterMs: Math.max(...retryAfters) * 1000 } : {}) }
    : undefined;
  const connection = (result.data as { problems?: Connection | null } | null | undefined)?.problems;
  if (!connection) return { problems: [], hasNextPage: true, endCursor: null, transient: transient ?? { codes: errors.length > 0 ? [...new Set(errors.map(codeOf))] : ['NO_DATA'] } };
  const nodes = connection.nodes ?? connection.edges?.map((edge) => edge?.node) ?? [];
  const failureAt = new Map<number, string>();
  for (const error of errors) {
    const index = error.path?.findIndex((segment) => typeof segment === 'number');
    if (index === undefined || index < 0) continue;
    const position = error.path![index] as number;
    if (!failureAt.has(position)) failureAt.set(position, codeOf(error));
  }
  // A failure shared by a page's problems is reported on the first field that met it, the others
  // null quietly: they failed for the same reason.
  const shared = errors.length > 0 ? codeOf(errors[0]) : 'NOT_TRANSLATED';
  const problems = nodes.map((node, position): PagedProblem => {
    const digest = sha256Of(String(node?.id ?? ''), String(node?.title ?? ''), String(node?.statement ?? ''));
    const translated = Boolean(node?.translation);
    return translated ? { digest, translated } : { digest, translated, failure: failureAt.get(position) ?? shared };
  });
  return {
    problems,
    hasNextPage: connection.pageInfo?.hasNextPage === true,
    endCursor: connection.pageInfo?.endCursor ?? null,
    ...(typeof connection.totalCount === 'number' ? { total: connection.totalCount } : {}),
    ...(transient ? { transient } : {}),
  };
}

interface ProblemNode {
  id?: unknown;
  title?: unknown;
  statement?: unknown;
  translation?: unknown;
}

interface Connection {
  nodes?: (ProblemNode | null)[];
  edges?: ({ node?: ProblemNode | null } | null)[];
  pageInfo?: { hasNextPage?: boolean; endCursor?: string | null };
  totalCount?: unknown;
}

function codeOf(error: ResultError): string {
  const code = error.extensions?.code;
  return typeof code === 'string' ? code : 'INTERNAL_SERVER_ERROR';
}
