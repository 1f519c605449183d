/** Relay-style cursor connections over in-memory lists, with validation errors a client can act on. */
import { createGraphQLError } from 'graphql-yoga';

/** The largest `first` any connection accepts. */
export const MAX_PAGE_SIZE = 100;

export const BAD_USER_INPUT = 'BAD_USER_INPUT';

export function badInput(message: string, argumentName?: string) {
  return createGraphQLError(message, { extensions: { code: BAD_USER_INPUT, ...(argumentName ? { argumentName } : {}) } });
}

export interface Connection<T> {
  edges: Array<{ cursor: string; node: T }>;
  nodes: T[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
  totalCount: number;
}

// A cursor is the base64 of "<list>:<offset>". The list name makes a cursor from one list fail loudly
// when passed to another instead of silently pointing somewhere else.
const encodeCursor = (list: string, offset: number) => Buffer.from(`${list}:${offset}`, 'utf8').toString('base64');

function decodeCursor(list: string, cursor: string): number {
  const text = /^[A-Za-z0-9+/]+={0,2}$/.test(cursor) ? Buffer.from(cursor, 'base64').toString('utf8') : '';
  const match = /^([a-z]+):(0|[1-9]\d{0,8})$/.exec(text);
  if (!match || match[1] !== list || encodeCursor(list, Number(match[2])) !== cursor) {
    throw badInput(`Invalid cursor for \`after\`: use a cursor this service returned for the ${list} list.`, 'after');
  }
  return Number(match[2]);
}

/** One page of `items` after the `after` cursor. */
export function paginate<T>(list: string, items: readonly T[], first: number | null | undefined, after: string | null | undefined): Connection<T> {
  const size = first ?? 20;
  if (!Number.isInteger(size) || size < 0 || size > MAX_PAGE_SIZE) {
    throw badInput(`\`first\` must be between 0 and ${MAX_PAGE_SIZE}, got ${size}.`, 'first');
  }
  const start = after == null ? 0 : decodeCursor(list, after) + 1;
  const page = items.slice(start, start + size);
  const edges = page.map((node, i) => ({ cursor: encodeCursor(list, start + i), node }));
  return {
    edges,
    nodes: page,
    pageInfo: {
      hasNextPage: start + page.length < items.length,
      hasPreviousPage: start > 0,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges[edges.length - 1]?.cursor ?? null,
    },
    totalCount: items.length,
  };
}
