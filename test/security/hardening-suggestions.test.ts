import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../helpers/start-stack.ts';

const KEY = 'suggestions-key';

describe('hardening: no "Did you mean …?" in production, in any form', () => {
  let stack: Stack;
  let development: Awaited<ReturnType<Stack['addGateway']>>;

  beforeAll(async () => {
    stack = await startStack({ settings: { gatewayApiKeys: [KEY], production: true, introspection: false } });
    development = await stack.addGateway({ settings: { gatewayApiKeys: [KEY], production: false } });
  });
  afterAll(async () => {
    await stack?.close();
  });

  const auth = { authorization: `Bearer ${KEY}` };
  const filterQuery = /* GraphQL */ `query ($filter: ProblemFilter) { problems(filter: $filter) { totalCount } }`;

  // [what is misspelled, query, variables, the schema name a suggestion would reveal]
  const cases: [string, string, Record<string, unknown> | undefined, string][] = [
    ['an enum value in the query', /* GraphQL */ `{ problems(filter: { difficulty: [EAS] }) { totalCount } }`, undefined, 'EASY'],
    ['an enum value in variables', filterQuery, { filter: { difficulty: ['EAS'] } }, 'EASY'],
    ['an input field in variables', filterQuery, { filter: { dificulty: ['EASY'] } }, '"difficulty"'],
    ['an input field in the query', /* GraphQL */ `{ problems(filter: { ratingMa: 3 }) { totalCount } }`, undefined, 'ratingMax'],
    ['an argument', /* GraphQL */ `{ problems(frist: 1) { totalCount } }`, undefined, '"first"'],
    ['a field', /* GraphQL */ `{ problem(id: "p1001") { titl } }`, undefined, '"title"'],
    ['a type', /* GraphQL */ `query ($filter: ProblemFiltr) { problems(filter: $filter) { totalCount } }`, undefined, '"ProblemFilter"'],
  ];

  it.each(cases)('hides the suggestion for a misspelled %s', async (_what, query, variables, revealed) => {
    const result = await stack.query(query, variables, auth);
    expect(result.errors?.length).toBeGreaterThan(0);
    expect(result.text).not.toMatch(/did you mean/i);
    expect(result.text).not.toContain(revealed);
    // Still a coded error the client can act on.
    expect(result.errors?.[0].extensions?.code).toMatch(/^(GRAPHQL_VALIDATION_FAILED|BAD_USER_INPUT)$/);
  });

  it('keeps suggestions in development, where the schema is open anyway', async () => {
    const result = await development.query(cases[0][1], undefined, auth);
    expect(result.text).toContain('Did you mean the enum value \\"EASY\\"?');
  });
});
