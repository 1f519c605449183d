import { buildSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import { diffSchemas, formatSchemaDiff } from '../../src/gateway/schema-diff.ts';
import { parseRetryAfter } from '../../src/gateway/upstream/upstream-errors.ts';

describe('diffSchemas', () => {
  const before = buildSchema(/* GraphQL */ `
    type Query { problem(id: ID!): Problem, old: Int, list(first: Int): [Int] }
    type Problem { id: ID!, title: String! }
    type Gone { x: Int }
  `);
  const after = buildSchema(/* GraphQL */ `
    type Query { problem(id: ID!): Problem, list(first: Int, after: String): [Int] }
    type Problem { id: ID!, title: String!, rating: Int }
    type Contest { id: ID! }
  `);

  it('lists types and fields added and removed, a whole type as one line', () => {
    expect(diffSchemas(before, after)).toEqual({
      typesAdded: ['Contest'],
      typesRemoved: ['Gone'],
      fieldsAdded: ['Problem.rating: Int', 'Query.list(first: Int, after: String): [Int]'],
      fieldsRemoved: ['Query.list(first: Int): [Int]', 'Query.old: Int'],
    });
  });

  it('says so when nothing changed', () => {
    expect(formatSchemaDiff(diffSchemas(before, before))).toBe('no changes');
  });

  it('summarises with + and - lines', () => {
    expect(formatSchemaDiff(diffSchemas(before, after)).split('\n')).toEqual([
      '+ type Contest',
      '- type Gone',
      '+ Problem.rating: Int',
      '+ Query.list(first: Int, after: String): [Int]',
      '- Query.list(first: Int): [Int]',
      '- Query.old: Int',
    ]);
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates, and ignores garbage', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('7', now)).toBe(7);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:30 GMT', now)).toBe(30);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});
