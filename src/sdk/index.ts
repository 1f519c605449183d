/**
 * A typed SDK for server-side callers: one function per operation in src/sdk/operations, with
 * TypeScript types for variables and results generated from the shipped schema.graphql by
 * `npm run codegen`; and the operations themselves as typed documents (`TranslateTextDocument`, …)
 * for Apollo Client, urql or graphql-request; and `apolloTypePolicies`, the cache policy Apollo Client
 * needs for the graph.
 *
 *   const sdk = createGatewaySdk({ url: process.env.GATEWAY_URL!, apiKey: process.env.GATEWAY_KEY });
 *   const { problems } = await sdk.ProblemsInLanguage({ to: 'es' });
 */
import { print, type DocumentNode } from 'graphql';
import { getSdk, type Requester } from './generated.ts';

export * from './gql/graphql.ts';
export { getSdk, type Requester, type Sdk } from './generated.ts';
export { apolloTypePolicies } from './apollo-type-policies.ts';

export interface GatewaySdkOptions {
  /** The gateway's GraphQL endpoint. */
  url: string;
  /** A gateway key, sent as `Authorization: Bearer …`. */
  apiKey?: string | undefined;
  /** Extra headers, e.g. `x-request-id`. */
  headers?: Record<string, string> | undefined;
  /** @default globalThis.fetch */
  fetch?: typeof fetch | undefined;
}

/** Errors of a response, with whatever data came with them (an upstream fault costs fields, not all). */
export class GatewaySdkError extends Error {
  readonly errors: { message: string; path?: (string | number)[]; extensions?: Record<string, unknown> }[];
  readonly data: unknown;
  readonly status: number;

  constructor(errors: GatewaySdkError['errors'], data: unknown, status: number) {
    super(errors.map((error) => error.message).join('; ') || `HTTP ${status}`);
    this.errors = errors;
    this.data = data;
    this.status = status;
    this.name = 'GatewaySdkError';
  }
}

export function createGatewaySdk({ url, apiKey, headers = {}, fetch: fetchFn = fetch }: GatewaySdkOptions) {
  const requester: Requester = async <R, V>(document: DocumentNode, variables?: V) => {
    const response = await fetchFn(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/graphql-response+json, application/json',
        ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
        ...headers,
      },
      body: JSON.stringify({ query: print(document), variables }),
    });
    const body = (await response.json().catch(() => ({}))) as { data?: R; errors?: GatewaySdkError['errors'] };
    if (body.errors?.length || body.data == null) throw new GatewaySdkError(body.errors ?? [], body.data, response.status);
    return body.data;
  };
  return getSdk(requester);
}
