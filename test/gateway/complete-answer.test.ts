import { buildSchema, parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { unchangedByCompletion } from '../../src/gateway/execution/forward/complete-answer.ts';
import { linkCompletion } from '../../src/gateway/execution/forward/linked-answer.ts';

const schema = buildSchema(/* GraphQL */ `
  enum Difficulty { EASY MEDIUM HARD }
  scalar DateTime
  interface Node { id: ID! }
  type Stats { rate: Float, count: Int! }
  type Problem implements Node { id: ID!, title: String!, slug: String, difficulty: Difficulty!, rating: Int, stats: Stats, tags: [String!]!, solved: Boolean, updatedAt: DateTime }
  type Query { problem(id: ID!): Problem, problems(first: Int): [Problem!]!, node(id: ID!): Node }
`);

const PLAIN = /* GraphQL */ `query Plain($id: ID!) { problem(id: $id) { __typename id name: title slug difficulty rating stats { rate count } tags solved } problems(first: 2) { id } }`;

const good = () => ({
  problem: { __typename: 'Problem', id: 'p1', name: 'Two sums', slug: null, difficulty: 'EASY', rating: 3, stats: { rate: 0.5, count: 2 }, tags: ['a', 'b'], solved: false },
  problems: [{ id: 'p1' }, { id: 'p2' }],
});

/** The same data with one change, by path. */
function changed(path: string[], value: unknown, remove = false): Record<string, unknown> {
  const data = good() as Record<string, any>;
  let target = data;
  for (const key of path.slice(0, -1)) target = target[key];
  if (remove) delete target[path.at(-1)!];
  else target[path.at(-1)!] = value;
  return data;
}

const complete = linkCompletion({ links: new Map(), resultFields: new Map() });
const completed = async (query: string, data: Record<string, unknown>) =>
  JSON.stringify(await complete({ schema, document: parse(query), variableValues: { id: 'p1' }, contextValue: {}, data }));

/**
 * A plain forwarded answer is served as the source gave it only when completion would give it back
 * unchanged: the check says yes for a well-formed answer (and completion agrees, byte for byte) and
 * no for every way an answer can differ from its completion.
 */
describe('an answer completion gives back unchanged', () => {
  const check = unchangedByCompletion(schema, parse(PLAIN), 'Plain')!;

  it('is recognised, and completion gives it back byte for byte', async () => {
    expect(check(good())).toBe(true);
    expect(await completed(PLAIN, good())).toBe(JSON.stringify({ data: good() }));
  });

  it.each([
    ['a null in a non-null field', changed(['problem', 'name'], null)],
    ['a missing field', changed(['problem', 'slug'], undefined, true)],
    ['an extra field', changed(['problem', 'extra'], 1)],
    ['an enum value the schema does not have', changed(['problem', 'difficulty'], 'NOPE')],
    ['a number in a String', changed(['problem', 'name'], 42)],
    ['a number in an ID', changed(['problem', 'id'], 7)],
    ['an object in an ID', changed(['problem', 'id'], { nested: true })],
    ['a string in an Int', changed(['problem', 'rating'], 'abc')],
    ['a fraction in an Int', changed(['problem', 'rating'], 1.5)],
    ['an Int out of range', changed(['problem', 'rating'], 2 ** 31)],
    ['a string in a Float', changed(['problem', 'stats', 'rate'], 'abc')],
    ['a string in a Boolean', changed(['problem', 'solved'], 'false')],
    ['a string where a list belongs', changed(['problem', 'tags'], 'not a list')],
    ['a null in a list of non-null', changed(['problem', 'tags'], ['a', null])],
    ['a list where an object belongs', changed(['problem', 'stats'], [])],
    ['another __typename', changed(['problem', '__typename'], 'Other')],
  ] as [string, Record<string, unknown>][])('is not recognised with %s, which completion changes', async (_name, data) => {
    expect(check(data)).toBe(false);
    expect(await completed(PLAIN, data)).not.toBe(JSON.stringify({ data }));
  });

  it('is not recognised with its fields in another order (completion puts them in selection order)', async () => {
    const { problems, problem } = good();
    const data = { problems, problem };
    expect(check(data)).toBe(false);
    expect(await completed(PLAIN, data)).not.toBe(JSON.stringify({ data }));
  });

  it.each([
    ['a fragment', `query { problem(id: "p1") { ...F } } fragment F on Problem { id }`],
    ['an inline fragment', `query { node(id: "p1") { ... on Problem { id } } }`],
    ['an interface', `query { node(id: "p1") { id } }`],
    ['@skip', `query { problem(id: "p1") { id @skip(if: false) } }`],
    ['a custom scalar', `query { problem(id: "p1") { updatedAt } }`],
    ['a key given twice', `query { problem(id: "p1") { id id } }`],
    ['another operation name', PLAIN.replace('Plain', 'Other')],
  ])('leaves an operation with %s to completion', (_name, query) => {
    expect(unchangedByCompletion(schema, parse(query), 'Plain')).toBeUndefined();
  });
});
