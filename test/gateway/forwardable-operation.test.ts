import { buildSchema, parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { fastPathBlocker } from '../../src/gateway/execution/forward/fast-path-blocker.ts';
import { forwardableOperations, gatewayFieldsOf } from '../../src/gateway/execution/forward/forwardable-operation.ts';

const SOURCE = /* GraphQL */ `
  type Query { problem(id: ID, slug: String): Problem problems(first: Int): [Problem!]! node(id: ID!): Node }
  interface Node { id: ID! }
  type Problem implements Node { id: ID! title: String! contest: Contest }
  type Contest implements Node { id: ID! title: String! }
`;
const GATEWAY_TYPE_DEFS = /* GraphQL */ `
  extend type Query { translation: TranslationQuery! }
  type TranslationQuery { languages: [String!] }
  extend type Problem { translation(to: String!): ProblemTranslation }
  type ProblemTranslation { title: String! }
`;

describe('which operations the problems source answers whole', () => {
  const sourceSchema = buildSchema(SOURCE);
  const publicSchema = buildSchema(SOURCE + GATEWAY_TYPE_DEFS);
  // Contest.title is resolved by the gateway here, as an additional resolver could.
  const gatewayFields = gatewayFieldsOf([parse(GATEWAY_TYPE_DEFS)], [{ Contest: { title: () => 'x' } }]);
  const decide = (query: string, operationName?: string) => forwardableOperations({ sourceSchema, gatewayFields })(publicSchema, parse(query), operationName);

  it('knows the gateway fields from the type definitions and the resolvers', () => {
    expect([...gatewayFields].sort()).toEqual(['Contest.title', 'Problem.translation', 'ProblemTranslation.title', 'Query.translation', 'TranslationQuery.languages']);
  });

  it.each([
    '{ problem(id: "1") { id title } }',
    'query Q($id: ID) { problem(id: $id) { ...F ... on Problem { contest { id } } } } fragment F on Problem { __typename title }',
    '{ node(id: "1") { id ... on Problem { title } } }',
    'query ($skip: Boolean!) { problems(first: 2) @skip(if: $skip) { id } __typename }',
  ])('forwards %s', (query) => {
    expect(decide(query)).toBeDefined();
  });

  it.each([
    ['a link field', '{ problem(id: "1") { title translation(to: "es") { title } } }'],
    ['a link field inside a fragment', '{ problem(id: "1") { ...F } } fragment F on Problem { translation(to: "es") { title } }'],
    ['a gateway root field', '{ translation { languages } }'],
    ['a field the gateway resolves itself', '{ problem(id: "1") { contest { id title } } }'],
    ['introspection', '{ __schema { queryType { name } } }'],
    ['only __typename', '{ __typename }'],
    ['@stream', '{ problems(first: 2) @stream { id } }'],
    ['a directive on the operation', 'query Q @live { problem(id: "1") { id } }'],
  ])('does not forward %s', (_, query) => {
    expect(decide(query)).toBeUndefined();
  });

  it('forwards @defer on fragments without it (the gateway delivers the increments), and not the variables only it used', () => {
    expect(decide('{ problem(id: "1") { id ... @defer { title } } }')).toMatchObject({ query: '{problem(id:"1"){id ...{title}}}', deferred: true, linked: false });
    expect(decide('query ($late: Boolean) { problem(id: "1") { id ...F @defer(if: $late) } } fragment F on Problem { title }')).toMatchObject({
      query: '{problem(id:"1"){id ...F}}fragment F on Problem{title}',
      deferred: true,
    });
    expect(decide('{ problem(id: "1") { id title } }')).toMatchObject({ deferred: false });
  });

  it('forwards one operation of a document, with only the fragments it uses, printed compactly', () => {
    const document = `
      query Other { translation { languages } }
      query Wanted { problem(id: "1") { ...A } }
      fragment A on Problem { id }
      fragment B on Problem { translation(to: "es") { title } }`;
    expect(decide(document, 'Other')).toBeUndefined();
    expect(decide(document, 'Wanted')).toMatchObject({ query: 'query Wanted{problem(id:"1"){...A}}fragment A on Problem{id}', operationName: 'Wanted' });
  });

  it('decides once per document and operation name', () => {
    const plans = forwardableOperations({ sourceSchema, gatewayFields });
    const document = parse('{ problem(id: "1") { id } }');
    expect(plans(publicSchema, document, undefined)).toBe(plans(publicSchema, document, undefined));
  });
});

describe('when the configuration allows the fast path at all', () => {
  const config = (extra: Record<string, unknown> = {}, source: Record<string, unknown> = {}, handler: Record<string, unknown> = {}) =>
    ({
      sources: [{ name: 'Problems', handler: { graphql: { endpoint: 'http://x/graphql', source: './s.graphql', operationHeaders: {}, ...handler } }, ...source }],
      transforms: [{ filterSchema: { filters: [] } }, { prune: {} }],
      ...extra,
    }) as never;

  it('allows it for the shipped shape: filtering and pruning only, no plugins', () => {
    expect(fastPathBlocker(config(), 'Problems')).toBeUndefined();
  });

  it.each([
    ['a transform of the source', config({}, { transforms: [{ rename: {} }] }), /transforms/],
    ['a root-level transform that renames', config({ transforms: [{ prefix: { value: 'P_' } }] }), /prefix/],
    ['a handler option that changes the call', config({}, {}, { useGETForQueries: true }), /useGETForQueries/],
    ['a plugin of .meshrc.yaml', config({ plugins: [{ responseCache: {} }] }), /plugins/],
  ])('refuses it for %s', (_, mesh, reason) => {
    expect(fastPathBlocker(mesh, 'Problems')).toMatch(reason);
  });
});
