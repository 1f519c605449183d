import { serverAudits } from 'graphql-http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../helpers/start-stack.ts';

/**
 * The GraphQL over HTTP audits of the `graphql-http` package, run against the gateway with keys
 * required and the CSRF check on. The audits have no headers option, so the key and the CSRF header
 * are added in the fetch they use; introspection is allowed, which two audits need.
 */
const KEY = 'audit-key';
let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ settings: { gatewayApiKeys: [KEY], introspection: true } });
});
afterAll(async () => {
  await stack?.close();
});

describe('graphql-http server audits', () => {
  const audits = serverAudits({
    url: () => stack.gatewayUrl,
    fetchFn: (input: RequestInfo | URL, init?: RequestInit) => {
      const headers = new Headers(init?.headers);
      headers.set('authorization', `Bearer ${KEY}`);
      headers.set('x-graphql-yoga-csrf', 'audit');
      return fetch(input, { ...init, headers });
    },
  });

  for (const audit of audits.filter(({ name }) => name.startsWith('MUST'))) {
    it(`${audit.id} ${audit.name}`, async () => {
      const result = await audit.fn();
      expect(result.status, result.status === 'ok' ? '' : `${result.reason}`).toBe('ok');
    });
  }

  // Not every SHOULD and MAY audit is met (a POST without a body, and broken JSON asked for as
  // application/json, get no 400, as from yoga); what each gives is pinned, as graphql-http's own
  // tests pin theirs, so that any change, better or worse, fails until the snapshot is updated on purpose.
  it('SHOULD and MAY audits: the known results', async () => {
    const results: string[] = [];
    for (const audit of audits.filter(({ name }) => !name.startsWith('MUST'))) {
      const result = await audit.fn();
      results.push(`${audit.id} ${result.status}: ${audit.name}`);
    }
    expect(results).toMatchInlineSnapshot(`
      [
        "22EB ok: SHOULD accept application/graphql-response+json and match the content-type",
        "47DE ok: SHOULD accept */* and use application/json for the content-type",
        "80D8 ok: SHOULD assume application/json content-type when accept is missing",
        "5A70 ok: MAY accept application/x-www-form-urlencoded formatted GET requests",
        "9C48 ok: MAY NOT allow executing mutations on GET requests",
        "9ABE ok: SHOULD respond with 4xx status code if content-type is not supplied on POST requests",
        "A5BF notice: MAY use 400 status code when request body is missing on POST",
        "423L ok: MAY use 400 status code on missing {query} parameter",
        "LKJ0 ok: MAY use 400 status code on object {query} parameter",
        "LKJ1 ok: MAY use 400 status code on number {query} parameter",
        "LKJ2 ok: MAY use 400 status code on boolean {query} parameter",
        "LKJ3 ok: MAY use 400 status code on array {query} parameter",
        "34A2 ok: SHOULD allow string {query} parameter when accepting application/graphql-response+json",
        "6C00 ok: MAY use 400 status code on object {operationName} parameter",
        "6C01 ok: MAY use 400 status code on number {operationName} parameter",
        "6C02 ok: MAY use 400 status code on boolean {operationName} parameter",
        "6C03 ok: MAY use 400 status code on array {operationName} parameter",
        "8161 ok: SHOULD allow string {operationName} parameter when accepting application/graphql-response+json",
        "94B0 ok: SHOULD allow null {variables} parameter when accepting application/graphql-response+json",
        "94B1 ok: SHOULD allow null {operationName} parameter when accepting application/graphql-response+json",
        "94B2 ok: SHOULD allow null {extensions} parameter when accepting application/graphql-response+json",
        "4760 ok: MAY use 400 status code on string {variables} parameter",
        "4761 ok: MAY use 400 status code on number {variables} parameter",
        "4762 ok: MAY use 400 status code on boolean {variables} parameter",
        "4763 ok: MAY use 400 status code on array {variables} parameter",
        "2EA1 ok: SHOULD allow map {variables} parameter when accepting application/graphql-response+json",
        "D6D5 ok: MAY allow URL-encoded JSON string {variables} parameter in GETs when accepting application/graphql-response+json",
        "6A70 ok: MAY allow URL-encoded JSON string {variables} parameter in GETs when accepting application/json",
        "58B0 ok: MAY use 400 status code on string {extensions} parameter",
        "58B1 ok: MAY use 400 status code on number {extensions} parameter",
        "58B2 ok: MAY use 400 status code on boolean {extensions} parameter",
        "58B3 ok: MAY use 400 status code on array {extensions} parameter",
        "428F ok: SHOULD allow map {extensions} parameter when accepting application/graphql-response+json",
        "B6DC ok: MAY use 2xx, 4xx, or 5xx status codes on JSON parsing failure when accepting application/json",
        "BCF8 warn: SHOULD use 400 status code on JSON parsing failure when accepting application/json",
        "B7N8 ok: SHOULD use 400 status code on JSON parsing failure when accepting application/graphql-response+json",
        "8764 ok: MAY use 4xx or 5xx status codes if parameters are invalid",
        "3E3A ok: MAY use 400 status code if parameters are invalid",
        "572B ok: SHOULD use 200 status code on document parsing failure when accepting application/json",
        "FDE2 ok: SHOULD use 200 status code on document validation failure when accepting application/json",
        "7B9B ok: SHOULD use a status code of 200 on variable coercion failure when accepting application/json",
        "865D ok: SHOULD use 4xx or 5xx status codes on document parsing failure when accepting application/graphql-response+json",
        "556A ok: SHOULD use 400 status code on document parsing failure when accepting application/graphql-response+json",
        "D586 ok: SHOULD not contain the data entry on document parsing failure when accepting application/graphql-response+json",
        "51FE ok: SHOULD use 4xx or 5xx status codes on document validation failure when accepting application/graphql-response+json",
        "74FF ok: SHOULD use 400 status code on document validation failure when accepting application/graphql-response+json",
        "5E5B ok: SHOULD not contain the data entry on document validation failure when accepting application/graphql-response+json",
        "86EE ok: SHOULD use a status code of 400 on variable coercion failure when accepting application/graphql-response+json",
      ]
    `);
  });
});
