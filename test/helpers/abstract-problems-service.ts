import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { GraphQLError, GraphQLScalarType, Kind } from 'graphql';
import { createSchema, createYoga } from 'graphql-yoga';

export const ABSTRACT_PROBLEMS_SCHEMA_PATH = fileURLToPath(new URL('../fixtures/problems-with-abstract-types.graphql', import.meta.url));

interface ProblemRecord {
  id: string;
  title: string;
  rating: number | null;
  tags: string[];
  publishedAt: Date;
  meta: unknown;
  authorId: string | null;
}

const problems: ProblemRecord[] = [
  { id: 'p1', title: 'Sum of Two Numbers', rating: 800, tags: ['math'], publishedAt: new Date('2024-01-02T03:04:05Z'), meta: { source: 'archive', weights: [1, 2] }, authorId: 'a1' },
  { id: 'p2', title: 'Longest Path in a Tree', rating: 1900, tags: ['graphs', 'trees'], publishedAt: new Date('2024-02-03T04:05:06Z'), meta: null, authorId: 'a2' },
  { id: 'p3', title: 'Balanced Brackets', rating: null, tags: ['strings'], publishedAt: new Date('2024-03-04T05:06:07Z'), meta: { hint: 'use a stack' }, authorId: 'a1' },
  { id: 'p4', title: 'Coin Change', rating: 1400, tags: ['dp', 'math'], publishedAt: new Date('2024-04-05T06:07:08Z'), meta: [1, 'two', { three: 3 }], authorId: null },
  { id: 'p5', title: 'Shortest Route', rating: 2100, tags: ['graphs'], publishedAt: new Date('2024-05-06T07:08:09Z'), meta: 'plain text', authorId: 'a2' },
];
const authors = [
  { id: 'a1', name: 'Ada' },
  { id: 'a2', name: 'Grace' },
];
const contests = [
  { id: 'c1', title: 'Round One', problemIds: ['p1', 'p3'], startsAt: new Date('2024-06-01T10:00:00Z') },
  { id: 'c2', title: 'Round Two', problemIds: ['p2', 'p4', 'p5'], startsAt: null },
];

const statementOf = (problem: ProblemRecord, format: string) =>
  format === 'PLAIN'
    ? `${problem.title}. Read n numbers and print the answer.`
    : `**${problem.title}.** Read $n$ numbers $a_1, \\dots, a_n$ and print the answer.\n\n## Input\n\nThe first line holds $n$ ($1 \\le n \\le 10^5$).`;

const byId = (id: string) => problems.find((problem) => problem.id === id) ?? authors.find((author) => author.id === id) ?? contests.find((contest) => contest.id === id) ?? null;
const typeOf = (value: { id: string }) => (value.id.startsWith('p') ? 'Problem' : value.id.startsWith('a') ? 'Author' : 'Contest');

const DateTime = new GraphQLScalarType({
  name: 'DateTime',
  serialize: (value) => (value as Date).toISOString(),
  parseValue: (value) => new Date(String(value)),
  parseLiteral: (ast) => (ast.kind === Kind.STRING ? new Date(ast.value) : null),
});
const JSONScalar = new GraphQLScalarType({ name: 'JSON', serialize: (value) => value, parseValue: (value) => value });

/**
 * A problems service unlike the stand-in (test/fixtures/problems-with-abstract-types.graphql):
 * interfaces, a union, custom scalars, a `statement(format:)` the link also reads, a mutation, and a
 * field that fails (`problem(id: "boom")`). Requires `Authorization: Bearer <apiKey>`.
 */
export function createAbstractProblemsService(apiKey: string) {
  return createYoga({
    graphqlEndpoint: '/graphql',
    landingPage: false,
    context: ({ request }) => {
      if (request.headers.get('authorization') !== `Bearer ${apiKey}`) throw new GraphQLError('Unauthorized', { extensions: { http: { status: 401 } } });
      return {};
    },
    schema: createSchema({
      typeDefs: readFileSync(ABSTRACT_PROBLEMS_SCHEMA_PATH, 'utf8'),
      resolvers: {
        DateTime,
        JSON: JSONScalar,
        Node: { __resolveType: typeOf },
        Titled: { __resolveType: typeOf },
        SearchResult: { __resolveType: typeOf },
        Query: {
          problem: (_: unknown, { id }: { id: string }) => {
            if (id === 'boom') throw new GraphQLError('The archive is being rebuilt.');
            return problems.find((problem) => problem.id === id) ?? null;
          },
          problems: (_: unknown, { first, tag }: { first: number; tag?: string | null }) => {
            if (first < 0) throw new GraphQLError('`first` must not be negative.');
            return problems.filter((problem) => !tag || problem.tags.includes(tag)).slice(0, first);
          },
          node: (_: unknown, { id }: { id: string }) => byId(id),
          nodes: (_: unknown, { ids }: { ids: string[] }) => ids.map(byId),
          search: (_: unknown, { text }: { text: string }) => {
            const needle = text.toLowerCase();
            return [...problems, ...contests].filter((item) => item.title.toLowerCase().includes(needle)).concat(authors.filter((author) => author.name.toLowerCase().includes(needle)) as never[]);
          },
          titled: () => [problems[0], contests[0], problems[1], contests[1]],
          version: () => '2.1.0',
        },
        Mutation: { ping: (_: unknown, { message }: { message?: string | null }) => `pong ${message ?? ''}`.trim() },
        Problem: {
          statement: (problem: ProblemRecord, { format }: { format: string }) => statementOf(problem, format),
          author: (problem: ProblemRecord) => authors.find((author) => author.id === problem.authorId) ?? null,
          related: (problem: ProblemRecord, { first }: { first: number }) => problems.filter((other) => other.id !== problem.id).slice(0, Math.max(0, first)),
        },
        Author: { problems: (author: { id: string }) => problems.filter((problem) => problem.authorId === author.id) },
        Contest: { problems: (contest: { problemIds: string[] }) => contest.problemIds.map((id) => problems.find((problem) => problem.id === id)) },
      },
    }),
  });
}
