/**
 * The least a Node proxy can do for the bench's two proxied requests, to show where the machine puts
 * the floor under the gateway's own figures: node:http in, one undici Pool per upstream out (keep-
 * alive, the upstream's key), the answer parsed and written again. No key check, limits, log,
 * metrics, error shaping or timeouts: nothing a production gateway owes its clients, so its figures
 * are a floor, never a target.
 *
 * - An operation without a `to` variable goes to the problems service as it came.
 * - One with `to` (the bench's page) asks the problems service for the page's ids, titles and
 *   statements, and answers each problem's `translation { title statement }` from a Map, filled from
 *   the translation service (one call per problem) the first time a pair of texts is seen: after
 *   warming, what the gateway's warm page does with no gateway in the way.
 *
 *   PROBLEMS_URL=… PROBLEMS_API_KEY=… TRANSLATION_URL=… TRANSLATION_API_KEY=… node --import tsx test/bench/minimal-proxy.ts
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'undici';

const problemsUrl = new URL('/graphql', process.env.PROBLEMS_URL);
const translationUrl = new URL('/translate', process.env.TRANSLATION_URL);
const problems = new Pool(problemsUrl.origin, { connections: 32 });
const translation = new Pool(translationUrl.origin, { connections: 8 });
const problemsHeaders = { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${process.env.PROBLEMS_API_KEY}` };
const translationHeaders = { 'content-type': 'application/json', authorization: `Bearer ${process.env.TRANSLATION_API_KEY}` };
const PAGE_QUERY = 'query ($after: String) { problems(first: 20, after: $after) { nodes { id title statement } } }';

interface Texts {
  title: string;
  statement: string;
}

const translations = new Map<string, Texts>();

async function post<T>(pool: Pool, url: URL, headers: Record<string, string>, body: unknown): Promise<T> {
  const answer = await pool.request({ method: 'POST', path: url.pathname, headers, body: JSON.stringify(body) });
  const text = await answer.body.text();
  if (answer.statusCode !== 200) throw new Error(`${url.origin} answered ${answer.statusCode}`);
  return JSON.parse(text) as T;
}

async function translated(to: string, texts: Texts): Promise<Texts> {
  const key = `${to}\u0000${texts.title}\u0000${texts.statement}`;
  let found = translations.get(key);
  if (!found) {
    const { translatedText } = await post<{ translatedText: string[] }>(translation, translationUrl, translationHeaders, { q: [texts.title, texts.statement], source: 'auto', target: to, format: 'html' });
    found = { title: translatedText[0], statement: translatedText[1] };
    translations.set(key, found);
  }
  return found;
}

async function answer(params: { query?: string; variables?: Record<string, unknown>; operationName?: string }): Promise<unknown> {
  const to = params.variables?.to;
  if (typeof to !== 'string') return post(problems, problemsUrl, problemsHeaders, params);
  const { data } = await post<{ data: { problems: { nodes: ({ id: string } & Texts)[] } } }>(problems, problemsUrl, problemsHeaders, {
    query: PAGE_QUERY,
    variables: { after: params.variables?.after ?? null },
  });
  const nodes = await Promise.all(data.problems.nodes.map(async (node) => ({ id: node.id, translation: await translated(to, node) })));
  return { data: { problems: { nodes } } };
}

const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', async () => {
    let status = 200;
    let body: unknown;
    try {
      body = await answer(JSON.parse(Buffer.concat(chunks).toString('utf8')));
    } catch (error) {
      status = 502;
      body = { errors: [{ message: (error as Error).message }] };
    }
    const text = JSON.stringify(body);
    response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
    response.end(text);
  });
});
server.listen(0, '127.0.0.1', () => console.log(`minimal proxy at http://127.0.0.1:${(server.address() as AddressInfo).port}`));
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => server.close(() => process.exit(0)));
