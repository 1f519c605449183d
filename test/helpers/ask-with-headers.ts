/** A GraphQL POST with the client's headers (a reader's Accept-Language, say), answered with the response's headers too. */
export async function askWithHeaders(url: string, query: string, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json', ...headers },
    body: JSON.stringify({ query }),
  });
  const body = await response.json();
  return { status: response.status, headers: response.headers, data: body.data, errors: body.errors };
}
