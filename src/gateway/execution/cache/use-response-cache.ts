import { getOperationAST, type DocumentNode, type ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { sha256Of } from '../../../shared/hash.ts';
import { gatewayRequestOf } from '../../pipeline/gateway-request.ts';
import { cachingHeaders, matchesEtag, secondsLeft, type CachedAnswer, type ResponseCache } from './response-cache.ts';

/**
 * Answers a query seen before without parsing, validating or executing it again: the key is the
 * document, the variables, the operation name and the caller's credential (its `Authorization`
 * header, hashed), so clients with different credentials never share an entry. It sits after the
 * key check and the rate limits, which apply to hits as to any request, and the request log records
 * hits like other answers. Only queries are stored, and only answers without errors; mutations,
 * subscriptions and streamed (`@defer`) answers never are. Answers say how long they may be reused
 * (`Cache-Control: private, max-age=…`) and carry an `ETag`; a client presenting it in
 * `If-None-Match` gets 304 with no body. A store that fails or is slow is a miss.
 *
 * Most hits never reach this plugin: the node:http adapter in front of yoga (pipeline/node-adapter.ts) answers
 * plain JSON requests from the same cache. This one serves what that listener hands on (batches,
 * browsers' CORS requests, persisted-query hashes, other media types) and keeps every answer.
 */
export function useResponseCache(cache: ResponseCache): Plugin {
  const pending = new WeakMap<object, { key: string }>();
  const served = new WeakMap<Request, CachedAnswer[]>();
  /** Operations each request carries (several in a batch): headers only when every one was cacheable. */
  const operations = new WeakMap<Request, number>();
  const remember = (request: Request, answer: CachedAnswer) => {
    const list = served.get(request) ?? [];
    list.push(answer);
    served.set(request, list);
  };

  return {
    async onParams({ request, params, context, setResult }) {
      if (!cache.enabled || typeof params.query !== 'string' || (request.method !== 'GET' && request.method !== 'POST')) return;
      operations.set(request, (operations.get(request) ?? 0) + 1);
      const key = cache.keyOf(request.headers.get('authorization'), params as { query: string });
      const answer = await cache.read(key);
      if (answer) {
        remember(request, answer);
        gatewayRequestOf(context)?.observed.operations.set(context, { name: answer.operationName, type: 'query' });
        setResult(JSON.parse(answer.body) as ExecutionResult);
        return;
      }
      pending.set(params, { key });
    },
    onExecute({ args }) {
      const context = args.contextValue as { request?: Request; params?: object };
      const lookup = context.params ? pending.get(context.params) : undefined;
      if (!lookup || !context.request) return;
      const operation = getOperationAST(args.document as DocumentNode, args.operationName ?? undefined);
      if (!operation || cache.ttlFor(operation) <= 0) return;
      const request = context.request;
      return {
        onExecuteDone({ result }) {
          if (Symbol.asyncIterator in result) return;
          const kept = cache.keep(lookup.key, operation, result as ExecutionResult);
          if (kept) remember(request, kept);
        },
      };
    },
    onResponse({ request, response, setResponse }) {
      const answers = served.get(request);
      if (!answers || answers.length !== operations.get(request) || response.status !== 200) return;
      // A batch is reusable as a whole only for as long as its shortest-lived answer.
      const etag = answers.length === 1 ? answers[0].etag : `"${sha256Of(...answers.map((answer) => answer.etag))}"`;
      const headers = new Headers(response.headers);
      for (const [name, value] of Object.entries(cachingHeaders(etag, Math.min(...answers.map(secondsLeft))))) {
        if (name === 'vary') headers.append(name, value);
        else headers.set(name, value);
      }
      if (matchesEtag(request.headers.get('if-none-match'), etag)) {
        setResponse(new Response(null, { status: 304, headers }));
        return;
      }
      setResponse(new Response(response.body, { status: response.status, statusText: response.statusText, headers }));
    },
  };
}

