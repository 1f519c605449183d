import { getOperationAST, type DocumentNode, type ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { sha256Of } from '../../shared/hash.ts';
import { withTimeout } from '../../shared/with-timeout.ts';
import type { KeyValueStore } from '../cache/key-value-store.ts';
import { observedRequestOf } from '../observability/observed-request.ts';

export interface ResponseCacheOptions {
  store: KeyValueStore;
  /** How long an answer with problems data is reused; 0 turns the response cache off. */
  ttlMs: number;
  /** How long an answer holding only translations (the `translation` namespace) is reused. */
  translationOnlyTtlMs: number;
  /** How long the store may take before the request goes on without it. @default 100 */
  storeTimeoutMs?: number;
}

interface Entry {
  /** The answer, as served. */
  result: ExecutionResult;
  /** The operation's own name (the request log and metrics name a hit as they named the miss). */
  operationName?: string;
  /** Epoch ms when it stops being served. */
  expiresAt: number;
}

interface Pending {
  key: string;
}

/** Root fields whose answers are translations only; any other root field is problems data. */
const TRANSLATION_ROOTS = new Set(['translation', '__typename']);

/**
 * Answers a query seen before without parsing, validating or executing it again: the key is the
 * document, the variables, the operation name and the caller's credential (its `Authorization`
 * header, hashed), so clients with different credentials never share an entry. It sits after the
 * key check and the rate limits, which apply to hits as to any request, and the request log records
 * hits like other answers. Only queries are stored, and only answers without errors; mutations,
 * subscriptions and streamed (`@defer`) answers never are. Answers say how long they may be reused
 * (`Cache-Control: private, max-age=…`) and carry an `ETag`; a client presenting it in
 * `If-None-Match` gets 304 with no body. A store that fails or is slow is a miss.
 */
export function useResponseCache({ store, ttlMs, translationOnlyTtlMs, storeTimeoutMs = 100 }: ResponseCacheOptions): Plugin {
  const pending = new WeakMap<object, Pending>();
  const served = new WeakMap<Request, { etag: string; maxAge: number }[]>();
  /** Operations each request carries (several in a batch): headers only when every one was cacheable. */
  const operations = new WeakMap<Request, number>();
  const read = (key: string) => withTimeout(() => store.get(key), storeTimeoutMs).catch(() => undefined);
  const remember = (request: Request, entry: Entry) => {
    const list = served.get(request) ?? [];
    list.push({ etag: etagOf(entry.result), maxAge: Math.max(0, Math.floor((entry.expiresAt - Date.now()) / 1000)) });
    served.set(request, list);
  };

  return {
    async onParams({ request, params, context, setResult }) {
      if (ttlMs <= 0 || typeof params.query !== 'string' || (request.method !== 'GET' && request.method !== 'POST')) return;
      operations.set(request, (operations.get(request) ?? 0) + 1);
      const key = sha256Of('response', request.headers.get('authorization') ?? '', params.query, JSON.stringify(params.variables ?? null), params.operationName ?? '');
      const stored = await read(key);
      const entry = stored ? parseEntry(stored) : undefined;
      if (entry && entry.expiresAt > Date.now()) {
        remember(request, entry);
        observedRequestOf(request)?.operations.set(context, { name: entry.operationName, type: 'query' });
        setResult(entry.result);
        return;
      }
      pending.set(params, { key });
    },
    onExecute({ args }) {
      const context = args.contextValue as { request?: Request; params?: object };
      const lookup = context.params ? pending.get(context.params) : undefined;
      if (!lookup || !context.request) return;
      const operation = getOperationAST(args.document as DocumentNode, args.operationName ?? undefined);
      if (operation?.operation !== 'query') return;
      const request = context.request;
      const roots = operation.selectionSet.selections.map((selection) => (selection.kind === 'Field' ? selection.name.value : ''));
      const ttl = roots.every((root) => TRANSLATION_ROOTS.has(root)) ? translationOnlyTtlMs : ttlMs;
      return {
        onExecuteDone({ result }) {
          if (ttl <= 0 || Symbol.asyncIterator in result) return;
          const answer = result as ExecutionResult;
          if (answer.errors?.length || answer.data == null) return;
          const entry: Entry = { result: { data: answer.data }, operationName: operation.name?.value, expiresAt: Date.now() + ttl };
          remember(request, entry);
          void withTimeout(() => store.set(lookup.key, JSON.stringify(entry), ttl), storeTimeoutMs).catch(() => undefined);
        },
      };
    },
    onResponse({ request, response, setResponse }) {
      const answers = served.get(request);
      if (!answers || answers.length !== operations.get(request) || response.status !== 200) return;
      // A batch is reusable as a whole only for as long as its shortest-lived answer.
      const etag = answers.length === 1 ? answers[0].etag : `"${sha256Of(...answers.map((answer) => answer.etag))}"`;
      const maxAge = Math.min(...answers.map((answer) => answer.maxAge));
      const headers = new Headers(response.headers);
      headers.set('etag', etag);
      headers.set('cache-control', `private, max-age=${maxAge}`);
      headers.append('vary', 'Authorization');
      const notModified = request.headers
        .get('if-none-match')
        ?.split(',')
        .some((tag) => tag.trim().replace(/^W\//, '') === etag);
      if (notModified) {
        setResponse(new Response(null, { status: 304, headers }));
        return;
      }
      setResponse(new Response(response.body, { status: response.status, statusText: response.statusText, headers }));
    },
  };
}

function parseEntry(text: string): Entry | undefined {
  try {
    const entry = JSON.parse(text) as Entry;
    return typeof entry?.expiresAt === 'number' && entry.result ? entry : undefined;
  } catch {
    return undefined;
  }
}

function etagOf(result: ExecutionResult): string {
  return `"${sha256Of(JSON.stringify(result))}"`;
}
