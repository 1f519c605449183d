import { execute, parse, print, validate, type DocumentNode, type ExecutionResult, type GraphQLSchema } from 'graphql';
import { normalizedExecutor } from '@graphql-tools/executor';
import { makeExecutableSchema } from '@graphql-tools/schema';
import { stitchSchemas } from '@graphql-tools/stitch';
import { isAsyncIterable, type Executor } from '@graphql-tools/utils';
import { describe, expect, it } from 'vitest';
import { deferredFieldsTransform } from '../../src/gateway/execution/delegate/deferred-fields-transform.ts';
import { delegatedExecution } from '../../src/gateway/execution/delegate/delegated-execution.ts';
import { fragmentTypenameTransform } from '../../src/gateway/execution/delegate/fragment-typename-transform.ts';

/**
 * Canaries for the graphql-tools faults the files in src/gateway/execution/delegate/ work around.
 * Each reproduces its fault with the installed graphql-tools (@graphql-tools/stitch and /delegate,
 * what Mesh's stitching merger delegates with) on a tiny schema, without the workaround, and asserts
 * the fault still happens: when an upgrade fixes one, its canary fails and says which file to remove.
 * Each also checks that its workaround, put in the same place, gives the right answer.
 *
 * The source behaves as a GraphQL service does: it validates what it is sent (a call with two
 * fields under one key is refused, as the problems service refuses it) and records it.
 */
const source = makeExecutableSchema({
  typeDefs: /* GraphQL */ `
    directive @defer(label: String, if: Boolean! = true) on FRAGMENT_SPREAD | INLINE_FRAGMENT
    type Query {
      problem(id: ID!): Problem
    }
    type Problem {
      id: ID!
      title: String!
      slug: String!
    }
  `,
  resolvers: { Query: { problem: (_root: unknown, { id }: { id: string }) => ({ id, title: 'Two sums', slug: 'two-sums' }) } },
});

/** The gateway's shape in small: one source, and a link (`translation`) that reads `id title`, as Problem.translation does. */
function stitched(transforms: unknown[] = []): { schema: GraphQLSchema; sent: string[] } {
  const sent: string[] = [];
  const executor = (({ document, variables }) => {
    sent.push(print(document as DocumentNode));
    const errors = validate(source, document as DocumentNode);
    if (errors.length) return { errors };
    return execute({ schema: source, document: document as DocumentNode, variableValues: variables });
  }) as Executor;
  const schema = stitchSchemas({
    subschemas: [{ schema: source, executor, transforms: transforms as never[] }],
    typeDefs: /* GraphQL */ `
      extend type Problem {
        translation: String
      }
    `,
    resolvers: { Problem: { translation: { selectionSet: '{ id title }', resolve: ({ title }: { title: string }) => `${title} (es)` } } },
  });
  return { schema, sent };
}

/** Every payload of the answer: one, or the initial one and each increment. */
async function payloads(execution: (args: { schema: GraphQLSchema; document: DocumentNode }) => unknown, schema: GraphQLSchema, query: string): Promise<ExecutionResult[]> {
  const result = await execution({ schema, document: parse(query) });
  if (!isAsyncIterable(result)) return [result as ExecutionResult];
  const all: ExecutionResult[] = [];
  for await (const part of result) all.push(part as ExecutionResult);
  return all;
}

const plain = (args: { schema: GraphQLSchema; document: DocumentNode }) => normalizedExecutor(args);
const withDelegatedExecution = delegatedExecution(normalizedExecutor);

describe('fragment-typename-transform.ts: a __typename asked only inside an inline fragment', () => {
  const QUERY = '{ problem(id: "1") { ... on Problem { __typename } } }';

  it('still empties the call to the source (canary)', async () => {
    const { schema } = stitched();
    const [answer] = await payloads(plain, schema, QUERY);
    expect(
      answer,
      'graphql-tools fixed the __typename lost from an inline fragment (delegate finalizeGatewayRequest): remove src/gateway/execution/delegate/fragment-typename-transform.ts',
    ).toMatchObject({ data: null, errors: [{ message: 'Failed to create a gateway request. The request must contain at least one operation.' }] });
  });

  it('is answered with the workaround', async () => {
    const { schema } = stitched([fragmentTypenameTransform()]);
    expect(await payloads(plain, schema, QUERY)).toEqual([{ data: { problem: { __typename: 'Problem' } } }]);
  });
});

describe('deferred-fields-transform.ts: fields under @defer', () => {
  const QUERY = '{ problem(id: "1") { id ... @defer { title } } }';

  it('are still left out of the call and answered null (canary)', async () => {
    const { schema, sent } = stitched();
    const answer = await payloads(plain, schema, QUERY);
    expect(
      { sent, answer },
      'graphql-tools fixed the deferred fields nothing fetches (delegate finalizeGatewayRequest, without defer: true on the subschema): remove src/gateway/execution/delegate/deferred-fields-transform.ts',
    ).toMatchObject({
      sent: [expect.not.stringContaining('title')],
      answer: [
        { data: { problem: { id: '1' } }, hasNext: true },
        { incremental: [{ data: null, errors: [{ message: 'Cannot return null for non-nullable field Problem.title.' }] }], hasNext: false },
      ],
    });
  });

  it('are fetched with the workaround, and still delivered later', async () => {
    const { schema, sent } = stitched([deferredFieldsTransform()]);
    const answer = await payloads(plain, schema, QUERY);
    expect(sent).toEqual([expect.stringContaining('title')]);
    expect(answer).toEqual([
      { data: { problem: { id: '1' } }, hasNext: true },
      { incremental: [{ data: { title: 'Two sums' }, path: ['problem'] }], hasNext: false },
    ]);
  });
});

describe('left-out-selections.ts (with delegated-execution.ts): a field asked twice, first under @include(if: false)', () => {
  const QUERY = '{ problem(id: "1") { title @include(if: false) title } }';

  it('is still sent once, with the directive, and answered null (canary)', async () => {
    const { schema, sent } = stitched();
    const [answer] = await payloads(plain, schema, QUERY);
    expect(
      { sent, answer },
      'graphql-tools fixed the merging of a field’s occurrences that keeps only the first one’s directives (delegate prepareGatewayDocument): remove src/gateway/execution/delegate/left-out-selections.ts and its use in delegated-execution.ts',
    ).toMatchObject({
      sent: [expect.stringMatching(/^\s*title @include\(if: false\)$/m)],
      answer: { data: { problem: null }, errors: [{ message: 'Cannot return null for non-nullable field Problem.title.' }] },
    });
    expect(sent[0].match(/title/g)).toHaveLength(1);
  });

  it('is answered with the workaround', async () => {
    const { schema } = stitched();
    expect(await payloads(withDelegatedExecution, schema, QUERY)).toEqual([{ data: { problem: { title: 'Two sums' } } }]);
  });
});

describe('shadowing-selections.ts (with delegated-execution.ts): a client key that is a field a link reads (`title: slug` beside the link)', () => {
  const QUERY = '{ problem(id: "1") { title: slug translation } }';

  it('still makes a call with two fields under one key, which the source refuses (canary)', async () => {
    const { schema, sent } = stitched();
    const [answer] = await payloads(plain, schema, QUERY);
    expect(
      { sent, answer },
      'graphql-tools fixed the link’s fields added under keys the client already uses (delegate prepareGatewayDocument): remove src/gateway/execution/delegate/shadowing-selections.ts and its use in delegated-execution.ts',
    ).toMatchObject({
      sent: [expect.stringMatching(/title: slug[\s\S]*^\s*title$/m)],
      answer: { data: { problem: null }, errors: [{ message: expect.stringContaining('Fields "title" conflict because "slug" and "title" are different fields') }] },
    });
  });

  it('is answered with the workaround', async () => {
    const { schema } = stitched();
    expect(await payloads(withDelegatedExecution, schema, QUERY)).toEqual([{ data: { problem: { title: 'two-sums', translation: 'Two sums (es)' } } }]);
  });
});
