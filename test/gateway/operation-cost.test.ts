import { buildSchema, parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { compileOperationEstimate, estimateOperation, UNPAGED_LIST_SIZE, UPSTREAM_MAX_PAGE_SIZE } from '../../src/gateway/execution/shape/operation-cost.ts';

// The shapes of the gateway's schema that matter to the cost: connections whose `first` defaults to
// 20 (as in sources/problems/schema.graphql), one whose `first` has no default, and unpaged lists.
const schema = buildSchema(/* GraphQL */ `
  type Query {
    problems(first: Int = 20, filter: ProblemFilter): ProblemConnection
    contests(first: Int): ContestConnection
    translation: TranslationQuery!
  }
  input ProblemFilter { search: String, tags: [String!] }
  type ProblemConnection { nodes: [Problem!]!, totalCount: Int! }
  type ContestConnection { nodes: [Contest!]! }
  type Contest { id: ID!, problems: [Problem!]! }
  type Problem { id: ID!, title: String!, contest: Contest, translation(to: String!): ProblemTranslation }
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

  it('costs `first` as the executor coerces it: a variable\'s default, else the argument\'s default', () => {
    expect(estimate('query ($n: Int = 100) { problems(first: $n) { totalCount } }').cost).toBe(1 + 100);
    expect(estimate('query ($n: Int = 100) { problems(first: $n) { totalCount } }', { n: 5 }).cost).toBe(1 + 5);
    // An unsent variable without a default leaves the argument unset, so the schema's `= 20` applies.
    expect(estimate('query ($n: Int) { problems(first: $n) { totalCount } }').cost).toBe(1 + 20);
    expect(estimate('{ problems { totalCount } }').cost).toBe(1 + 20);
  });

  it('counts `first: null` as the page the upstream then returns, never as one item', () => {
    // The service treats null as absent: its default page (the argument's default in the schema).
    expect(estimate('{ problems(first: null) { totalCount } }').cost).toBe(1 + 20);
    expect(estimate('query ($n: Int = 100) { problems(first: $n) { totalCount } }', { n: null }).cost).toBe(1 + 20);
    // Without a default in the schema, the upstream may return as many as it ever does.
    expect(estimate('{ contests(first: null) { nodes { id } } }').cost).toBe(1 + UPSTREAM_MAX_PAGE_SIZE * 2);
    expect(estimate('query ($n: Int) { contests(first: $n) { nodes { id } } }').cost).toBe(1 + UPSTREAM_MAX_PAGE_SIZE * 2);
    expect(estimate('{ problems(first: 0) { nodes { id } } }').cost).toBe(1);
  });

  it('counts a list without `first` as several items, not one', () => {
    const nested = estimate('{ contests(first: 2) { nodes { problems { translation(to: "es") { title } } } } }');
    expect(nested.cost).toBe(1 + 2 * (1 + 1 + UNPAGED_LIST_SIZE * (20 + 1)));
    expect(nested.usesTranslation).toBe(true);
  });

  it('multiplies nested lists reached through fragments, inline fragments and aliases', () => {
    // The shape that returned 19 MB for a 154-byte query: a page of problems, each with its contest's
    // problems, each with theirs.
    const perProblem = 1 + 1 + UNPAGED_LIST_SIZE * (1 + 1 + 1 + UNPAGED_LIST_SIZE * 1); // contest, problems, [title, contest, problems, [title]]
    const plain = estimate('query ($n: Int = 100) { problems(first: $n) { nodes { contest { problems { title contest { problems { title } } } } } } }');
    expect(plain.cost).toBe(1 + 100 * (1 + perProblem));
    const viaFragments = estimate(/* GraphQL */ `
      query ($n: Int = 100) { a: problems(first: $n) { ...Page } b: problems(first: $n) { ... on ProblemConnection { ...Page } } }
      fragment Page on ProblemConnection { nodes { ...Nested } }
      fragment Nested on Problem { contest { problems { title ... on Problem { contest { problems { title } } } } } }
    `);
    expect(viaFragments.cost).toBe(2 * plain.cost);
  });

  it('reads variables inside list and input-object arguments with their defaults', () => {
    // A list variable's default holds the texts that will be translated, however few the client sent.
    expect(estimate('query ($t: [String!]! = ["a", "b", "c"]) { translation { translateMany(texts: $t, to: "es") } }').cost).toBe(1 + 30);
    expect(estimate('query ($b: String = "bb") { translation { translateMany(texts: ["a", $b], to: "es") } }').cost).toBe(1 + 20);
    const filtered = estimate('query ($s: String = "needle") { problems(first: 1, filter: { search: $s, tags: [$s] }) { totalCount } }');
    expect(filtered.longestArgument).toEqual({ name: 'filter.search', path: 'filter.search', length: 6 });
    // Values that do not coerce still get an estimate (from the raw values); the executor refuses them.
    expect(estimate('query ($n: Int) { problems(first: $n) { totalCount } }', { n: 'many' })).toBeDefined();
    expect(estimate('query ($t: [String!]!) { translation { translateMany(texts: $t, to: "es") } }', { t: null })).toBeDefined();
  });

  it('weighs translateMany by its number of texts, and reports the longest argument', () => {
    const many = estimate('{ translation { translateMany(texts: ["a", "bb", "ccc"], to: "es") } }');
    expect(many.cost).toBe(1 + 30);
    expect(many.longestArgument).toEqual({ name: 'texts', path: 'texts[2]', length: 3 });
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

  it("is compiled once per document: each request's variables are read again where arguments read them", () => {
    const paged = compileOperationEstimate(schema, parse('query ($n: Int, $s: String) { problems(first: $n, filter: { search: $s }) { totalCount } }'), undefined);
    expect(paged({ n: 5 })!.cost).toBe(1 + 5);
    expect(paged({ n: 50, s: 'graphs' })).toMatchObject({ cost: 1 + 50, longestArgument: { name: 'filter.search', length: 6 } });
    expect(paged({ n: 'five' })!.coercedVariables).toBeUndefined();
  });

  it('walks a document whose arguments read no variable once, whatever the variables or conditions', () => {
    const fixed = compileOperationEstimate(schema, parse('query ($full: Boolean!) { problems(first: 3) { nodes { id translation(to: "es") @include(if: $full) { title } } } }'), undefined);
    const first = fixed({ full: true })!;
    const second = fixed({ full: false })!;
    expect(second.cost).toBe(first.cost);
    // The walk's findings are the same objects: found once, not walked again per request.
    expect(second.fieldArguments).toBe(first.fieldArguments);
    expect(second.coercedVariables).toEqual({ full: false });
    expect(fixed({})!.coercedVariables).toBeUndefined();
  });
});
