import { getNamedType, isObjectType, type GraphQLObjectType, type GraphQLSchema } from 'graphql';
import { listedItemsOf, type ListedItems } from '../../../shared/listed-items.ts';
import { sha256Of } from '../../../shared/hash.ts';

/**
 * How one page of the problems catalogue is asked for with its translations: a GraphQL operation
 * over the gateway's own schema, so that prewarming goes through the link as readers do (batching,
 * the translation cache, the learned limits, whatever the link serves first).
 */
export interface CataloguePagePlan {
  document: string;
  /** How the catalogue is walked, for log lines: `Relay pageInfo`, `cursors on edges`, `offset/limit`… */
  pagination: string;
  /** Variables of one page: how many problems, from where (null: the first page), into which language. */
  variables(first: number, after: string | null, to: string): Record<string, unknown>;
  /** Reads the answer to a page of `size` asked from `after`: its problems, and where the next page starts. */
  read(result: PageResult, size: number, after: string | null): CataloguePage;
}

/** How the next page is found: Relay's pageInfo, the last edge's cursor, or a count of problems read. */
type Paging = 'relay' | 'edge-cursors' | 'offset';

/** Names of the arguments of numeric pagination, most common first. */
const OFFSET_ARGUMENTS = ['offset', 'skip'];
const COUNT_ARGUMENTS = ['limit', 'first'];

/**
 * The plan for `schema`, or why prewarming cannot run on it: the catalogue must be a `problems` list
 * of problems with an `id` and the `translation(to:)` link, walked by the pagination the service
 * has: Relay (`first`, `after`, `pageInfo { hasNextPage endCursor }`), cursors on edges (`first`,
 * `after`, `edges { cursor node }`), or numeric offsets (`offset` or `skip` with `limit` or
 * `first`) over a list or a connection (`nodes`, `edges { node }` or `items`). The argument types are
 * the schema's own, as the service declares them.
 */
export function planCataloguePage(schema: GraphQLSchema): CataloguePagePlan | { reason: string } {
  const problems = schema.getQueryType()?.getFields().problems;
  if (!problems) return { reason: 'the schema has no Query.problems list' };
  const argument = (names: string[], types: string[]) =>
    names.map((name) => problems.args.find((arg) => arg.name === name)).find((arg) => arg !== undefined && types.includes(getNamedType(arg.type).name));
  const listed = listedItemsOf(problems.type);
  if (!listed) return { reason: 'Query.problems lists no problems (a list, or a connection with nodes, items or edges { node })' };
  const fields = listed.connection?.getFields() ?? {};
  const pageInfo = fields.pageInfo && getNamedType(fields.pageInfo.type);
  const relay = isObjectType(pageInfo) && Boolean(pageInfo.getFields().hasNextPage && pageInfo.getFields().endCursor);
  const first = argument(['first'], ['Int']);
  const after = argument(['after'], ['String', 'ID']);
  const offset = argument(OFFSET_ARGUMENTS, ['Int']);
  const count = argument(COUNT_ARGUMENTS, ['Int']);
  let paging: Paging;
  if (first && after && relay) paging = 'relay';
  else if (first && after && listed.edgeCursor) paging = 'edge-cursors';
  else if (offset && count) paging = 'offset';
  else {
    const takes = problems.args.map((arg) => `${arg.name}: ${arg.type.toString()}`).join(', ') || 'no arguments';
    return {
      reason: first && after
        ? `Query.problems takes \`first\` and \`after\`, but it answers neither pageInfo { hasNextPage endCursor } nor edges { cursor }, so the next page's cursor is unknown`
        : `Query.problems (${takes}) takes neither \`first\` and \`after\` (cursors) nor \`offset\` or \`skip\` with \`limit\` or \`first\` (numeric offsets), so it cannot be walked page by page`,
    };
  }
  const node = listed.item;
  const translation = node.getFields().translation;
  const to = translation?.args.find((arg) => arg.name === 'to');
  if (!translation || !to || !isObjectType(getNamedType(translation.type))) return { reason: `the ${node.name}.translation link is not in the schema` };
  if (!node.getFields().id) return { reason: `${node.name} has no id` };
  const translated = getNamedType(translation.type) as GraphQLObjectType;
  const texts = ['title', 'statement'].filter((name) => translated.getFields()[name]);
  const own = ['title', 'statement'].filter((name) => node.getFields()[name]);
  const total = fields.totalCount && getNamedType(fields.totalCount.type).name === 'Int' ? ' totalCount' : '';
  const problemSelection = `id ${own.join(' ')} translation(to: $to) { ${texts.join(' ') || '__typename'} }`;
  const [from, size] = paging === 'offset' ? [offset!, count!] : [after!, first!];
  const selection = `${itemsSelection(listed, problemSelection, paging === 'edge-cursors')}${paging === 'relay' ? ' pageInfo { hasNextPage endCursor }' : ''}${total}`;
  const document = /* GraphQL */ `query TranslationPrewarmPage($size: ${size.type.toString()}, $from: ${from.type.toString()}, $to: ${to.type.toString()}) {
  problems(${size.name}: $size, ${from.name}: $from) { ${selection} }
}`;
  return {
    document,
    pagination: paging === 'relay' ? 'Relay pageInfo' : paging === 'edge-cursors' ? 'cursors on edges' : `${from.name}/${size.name}`,
    variables: (pageSize, cursor, language) => ({ size: pageSize, from: paging === 'offset' ? Number(cursor ?? 0) : cursor, to: language }),
    read: (result, pageSize, cursor) => readCataloguePage(result, { paging, size: pageSize, after: cursor }),
  };
}

/** The selection of the listed problems under the list's own shape, with each edge's cursor when asked. */
function itemsSelection({ shape }: ListedItems, inner: string, withCursor: boolean): string {
  if (shape === 'list') return inner;
  if (shape === 'edges') return `edges { ${withCursor ? 'cursor ' : ''}node { ${inner} } }`;
  return `${shape} { ${inner} }`;
}

/** One problem of a page as prewarming sees it. */
export interface PagedProblem {
  /** The problem's id, for the line of one it could not translate. */
  id: string;
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

/** An execution result of a plan's document. */
export interface PageResult {
  data?: unknown;
  errors?: readonly ResultError[] | null;
}

/** Codes of failures of a moment: the same page asked again later may succeed. */
const TRANSIENT_CODES = new Set(['UPSTREAM_RATE_LIMITED', 'UPSTREAM_ERROR', 'UPSTREAM_UNAVAILABLE', 'UPSTREAM_TIMEOUT', 'INTERNAL_SERVER_ERROR', 'OPERATION_LIMIT_EXCEEDED']);

/**
 * Reads an execution result of the plan's document (Relay's, unless `how` says otherwise); a page
 * with no list at all is all transient.
 */
export function readCataloguePage(result: PageResult, how: { paging: Paging; size: number; after: string | null } = { paging: 'relay', size: 0, after: null }): CataloguePage {
  const errors = result.errors ?? [];
  const transientErrors = errors.filter((error) => TRANSIENT_CODES.has(codeOf(error)));
  const retryAfters = transientErrors.map((error) => Number(error.extensions?.retryAfter)).filter((seconds) => Number.isFinite(seconds) && seconds > 0);
  const transient = transientErrors.length > 0
    ? { codes: [...new Set(transientErrors.map(codeOf))], ...(retryAfters.length > 0 ? { retryAfterMs: Math.max(...retryAfters) * 1000 } : {}) }
    : undefined;
  const answered = (result.data as { problems?: Connection | (ProblemNode | null)[] | null } | null | undefined)?.problems;
  if (!answered) return { problems: [], hasNextPage: true, endCursor: null, transient: transient ?? { codes: errors.length > 0 ? [...new Set(errors.map(codeOf))] : ['NO_DATA'] } };
  const connection: Connection = Array.isArray(answered) ? { nodes: answered } : answered;
  const nodes = connection.nodes ?? connection.items ?? connection.edges?.map((edge) => edge?.node) ?? [];
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
    const id = String(node?.id ?? '');
    const digest = sha256Of(id, String(node?.title ?? ''), String(node?.statement ?? ''));
    const translated = Boolean(node?.translation);
    return translated ? { id, digest, translated } : { id, digest, translated, failure: failureAt.get(position) ?? shared };
  });
  const total = typeof connection.totalCount === 'number' ? connection.totalCount : undefined;
  return {
    problems,
    ...nextPage(connection, nodes.length, total, how),
    ...(total !== undefined ? { total } : {}),
    ...(transient ? { transient } : {}),
  };
}

/**
 * Where the next page starts, and whether there is one: Relay says so; with cursors on edges or
 * offsets, a page shorter than asked (or reaching `totalCount`) is the last.
 */
function nextPage(connection: Connection, read: number, total: number | undefined, { paging, size, after }: { paging: Paging; size: number; after: string | null }): Pick<CataloguePage, 'hasNextPage' | 'endCursor'> {
  if (paging === 'relay') return { hasNextPage: connection.pageInfo?.hasNextPage === true, endCursor: connection.pageInfo?.endCursor ?? null };
  const full = read > 0 && read >= size;
  if (paging === 'edge-cursors') {
    const cursor = connection.edges?.at(-1)?.cursor;
    return { hasNextPage: full && typeof cursor === 'string', endCursor: typeof cursor === 'string' ? cursor : null };
  }
  const next = Number(after ?? 0) + read;
  return { hasNextPage: full && (total === undefined || next < total), endCursor: String(next) };
}

interface ProblemNode {
  id?: unknown;
  title?: unknown;
  statement?: unknown;
  translation?: unknown;
}

interface Connection {
  nodes?: (ProblemNode | null)[];
  items?: (ProblemNode | null)[];
  edges?: ({ node?: ProblemNode | null; cursor?: unknown } | null)[];
  pageInfo?: { hasNextPage?: boolean; endCursor?: string | null };
  totalCount?: unknown;
}

function codeOf(error: ResultError): string {
  const code = error.extensions?.code;
  return typeof code === 'string' ? code : 'INTERNAL_SERVER_ERROR';
}
