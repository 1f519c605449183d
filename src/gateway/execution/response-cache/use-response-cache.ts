import { getOperationAST, type DocumentNode, type ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { sha256Of } from '../../../shared/hash.ts';
import { gatewayRequestOf, handedOperationOf } from '../../request/gateway-request.ts';
import { answerLanguageHeaders, answerLanguageOf, noteAnswerLanguage } from '../../request/languages-served.ts';
import { cachingHeaders, matchesEtag, secondsLeft, type ResponseCache } from './response-cache.ts';

/** Where an operation's cache key waits for its execution, on the operation's own context. */
const CACHE_KEY = Symbol('response cache key');
type OperationContext = { [CACHE_KEY]?: string } | undefined;

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
 * Most hits never reach this plugin: the front door in front of yoga (pipeline/front-door/) answers
 * plain JSON requests from the same cache. This one serves what that listener hands on without
 * having looked it up (a batch yoga serves, other media types) and
 * keeps every answer; what the listener looked up and missed is not read again.
 */
export function useResponseCache(cache: ResponseCache): Plugin {
  return {
    async onParams({ request, params, context, setResult }) {
      if (!cache.enabled || typeof params.query !== 'string' || (request.method !== 'GET' && request.method !== 'POST')) return;
      const gateway = gatewayRequestOf(context);
      if (!gateway) return;
      // What this request's operations (several in a batch) found or kept: headers only when every one was cacheable.
      const state = (gateway.responseCache ??= { operations: 0, answers: [] });
      state.operations += 1;
      // The front door looked this operation up already (a miss): read once per request, kept under its key.
      const handed = handedOperationOf(context);
      const key = handed?.cacheKey ?? cache.keyOf(request.headers.get('authorization'), params as { query: string }, gateway.readerLanguages.key);
      const answer = handed?.lookedUp ? undefined : await cache.read(key);
      if (answer) {
        state.answers.push(answer);
        noteAnswerLanguage(gateway, answer);
        gateway.observed.operations.set(context, { name: answer.operationName, type: 'query' });
        setResult(JSON.parse(answer.body.toString()) as ExecutionResult);
        return;
      }
      // Each operation's own context (a batch's operations have one each) carries its key to execution.
      (context as NonNullable<OperationContext>)[CACHE_KEY] = key;
    },
    onExecute({ args }) {
      const context = args.contextValue as OperationContext;
      const key = context?.[CACHE_KEY];
      const gateway = gatewayRequestOf(context);
      if (key === undefined || !gateway?.responseCache) return;
      const operation = getOperationAST(args.document as DocumentNode, args.operationName ?? undefined);
      if (!operation || cache.ttlFor(operation) <= 0) return;
      const state = gateway.responseCache;
      return {
        onExecuteDone({ result }) {
          if (Symbol.asyncIterator in result) return;
          const kept = cache.keep(key, operation, result as ExecutionResult, answerLanguageOf(gateway.languagesServed));
          if (kept) state.answers.push(kept);
        },
      };
    },
    onResponse({ request, response, setResponse, serverContext }) {
      const gateway = gatewayRequestOf(serverContext);
      const state = gateway?.responseCache;
      const answers = state?.answers ?? [];
      const language = answerLanguageOf(gateway?.languagesServed);
      const cacheable = answers.length > 0 && answers.length === state?.operations && response.status === 200;
      // An answer in the reader's languages says so even when it is not kept (cache off, errors), so
      // that an HTTP cache on the way never hands it to a reader of another language.
      if (!cacheable && !language.negotiated) return;
      // A batch is reusable as a whole only for as long as its shortest-lived answer.
      const etag = answers.length === 1 ? answers[0].etag : `"${sha256Of(...answers.map((answer) => answer.etag))}"`;
      const headers = new Headers(response.headers);
      const added = cacheable ? cachingHeaders(etag, Math.min(...answers.map(secondsLeft)), language) : answerLanguageHeaders(language);
      for (const [name, value] of Object.entries(added)) {
        if (name === 'vary') headers.append(name, value);
        else headers.set(name, value);
      }
      if (cacheable && matchesEtag(request.headers.get('if-none-match'), etag)) {
        setResponse(new Response(null, { status: 304, headers }));
        return;
      }
      setResponse(new Response(response.body, { status: response.status, statusText: response.statusText, headers }));
    },
  };
}

