/**
 * A GraphQL-shaped error answered before any GraphQL processing (auth, rate limits): the body
 * clients already parse, with the status the situation calls for.
 */
export function gatewayErrorResponse(
  status: number,
  message: string,
  code: string,
  headers: Record<string, string> = {},
  extensions: Record<string, unknown> = {},
): Response {
  return new Response(JSON.stringify({ errors: [{ message, extensions: { code, ...extensions } }] }), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  });
}
