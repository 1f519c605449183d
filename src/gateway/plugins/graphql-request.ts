/**
 * Whether a request asks for GraphQL: the endpoint itself, not a CORS preflight, and not a GET
 * without an operation (the GraphiQL page, or an empty request yoga refuses without running
 * anything). The key check, the rate limits and the request log all go by this one rule.
 */
export function isGraphQLRequest(request: Request, url: URL, graphqlEndpoint: string): boolean {
  if (url.pathname !== graphqlEndpoint || request.method === 'OPTIONS') return false;
  return !(request.method === 'GET' && !url.searchParams.has('query'));
}
