export { recordUpstreamRequests, type UpstreamRequests } from '../helpers/record-upstream-requests.ts';

/** The gateway's base URL (without /graphql). */
export const baseOf = (gatewayUrl: string) => gatewayUrl.replace(/\/graphql$/, '');

/** One problem page with its translation: a query that reaches both upstreams. */
export const CROSS_SOURCE = /* GraphQL */ `
  query ProblemsInSpanish {
    problems(first: 2) { nodes { id title translation(to: "es") { title } } }
  }
`;
