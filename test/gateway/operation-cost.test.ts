import { buildSchema, parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { estimateOperation, UNPAGED_LIST_SIZE } from '../../src/gateway/operation-cost.ts';

const schema = buildSchema(/* GraphQL */ `
  type Query { problems(first: Int = 20): ProblemConnection!, contests(first: Int): ContestConnection!, translation: TranslationQuery! }
  type ProblemConnection { nodes: [Problem!]!, totalCount: Int! }
  type ContestConnection { nodes: [Contest!]! }
  type Contest { id: ID!, problems: [Problem!]! }
  type Problem { id: ID!, title: String!, translation(to: String!): ProblemTranslation }
  type ProblemTranslation { title: String! }
  type TranslationQuery { translateMany(texts: [String!]!, to: String!): [String!] }
`);
const estimate = (query: string, variables?: Record<string, unknown>) => estimateOperation(schema, parse(query), undefined, variables)!;

describe('estimateOperation', () => {
  it('multiplies through `first`, counting a connection\'s nodes once per item', () => {
    // problems 1 + nodes 20×1 + per problem (id 1 + translation 20 + title 1) × 20
    expect(estimate('{ problems(first: 20) { nodes { id translation(to: "es") { title } } } }').cost).toBe(1 + 20 * (1 + 1 + 20 + 1));
    // Everything under a paginated field counts per item, the connection's own scalars included (an overestimate).
    expect(estimate('query ($n: Int) { problems(first: $n) { totalCount } }', { n: 3 }).cost).toBe(1 + 3);
  });

  it('counts a list without `first` as several items, not one', () => {
    const nested = estimate('{ contests(first: 2) { nodes { problems { translation(to: "es") { title } } } } }');
    expect(nested.cost).toBe(1 + 2 * (1 + 1 + UNPAGED_LIST_SIZE * (20 + 1)));
    expect(nested.usesTranslation).toBe(true);
  });

  it('weighs translateMany by its number of texts, and reports the longest argument', () => {
    const many = estimate('{ translation { translateMany(texts: ["a", "bb", "ccc"], to: "es") } }');
    expect(many.cost).toBe(1 + 30);
    expect(many.longestArgument).toEqual({ name: 'texts', length: 3 });
  });

  it('costs a document whose fragments spread each other twice per level in linear time', () => {
    const levels = 60;
    const fragments = Array.from({ length: levels }, (_, level) =>
      level === levels - 1 ? `fragment F${level} on Query { problems(first: 1) { totalCount } }` : `fragment F${level} on Query { ...F${level + 1} ...F${level + 1} }`,
    ).join(' ');
    // 2^59 copies of a 2-cost selection: computed by memo, not by walking 2^59 paths (which would never end).
    const result = estimate(`{ ...F0 } ${fragments}`);
    expect(result.cost).toBe(2 ** (levels - 1) * 2);
    expect(result.rootFields).toBe(2 ** (levels - 1));
  });
});
