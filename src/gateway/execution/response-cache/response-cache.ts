import type { ExecutionResult, OperationDefinitionNode } from 'graphql';
import { sha256Of } from '../../../shared/hash.ts';
import type { KeyValueStore } from '../../stores/key-value-store.ts';
import type { CachedAnswer } from '../../request/cached-answer.ts';
import type { AnswerLanguage } from '../../request/answer-language.ts';
import { answerText, hasData } from '../forward/prepared-operations.ts';
import { createKeptAnswers } from './kept-answers.ts';
import { createKnownRequests, type KnownRequest } from './known-requests.ts';

export { cacheControlOf, cachingHeaders, matchesEtag, secondsLeft } from './caching-headers.ts';
export type { KnownRequest } from './known-requests.ts';

export interface ResponseCacheOptions {
  /**
   * Where replicas share answers (Redis). Without it, answers are kept in this process only; with it,
   * in both: the answers read or kept lately stay here too, in front of it.
   */
  sharedStore?: KeyValueStore;
  /** Memory bound of the answers kept in this process, counting two bytes a character. @default 32 MiB */
  maxLocalBytes?: number;
  /**
   * Memory bound of the requests remembered by their bytes (rawKeyOf, recall), counting two bytes a
   * character. @default 8 MiB
   */
  maxKnownRequestBytes?: number;
  /** How long an answer with problems data is reused; 0 turns the response cache off. */
  ttlMs: number;
  /** How long an answer holding only translations (the `translation` namespace) is reused. */
  translationOnlyTtlMs: number;
  /** How long the shared store may take before the request goes on without it. @default 100 */
  storeTimeoutMs?: number;
  /**
   * What decides whether a request may run at all (the schema, the operation limits, introspection,
   * trusted documents), as one string: part of every key, so an answer is served only where the
   * request would have been allowed to execute (replicas sharing a store during a rolling change,
   * a development and a production replica). @default ''
   */
  policy?: string;
  /**
   * What translated answers depend on besides the request: the gateway's default languages and the
   * curated translations in force (TranslationRuntime.variant). Part of the key of every document
   * that may translate, so a curated translation added or changed is served at once. @default none
   */
  translationVariant?: () => string;
}

/** What a request asks for, as the cache tells requests apart. */
export interface CacheableParams {
  query: string;
  variables?: unknown;
  operationName?: string | null;
}

export interface ResponseCache {
  /** False when RESPONSE_CACHE_TTL_SECONDS is 0: nothing is read or kept. */
  enabled: boolean;
  /**
   * The caller's credential (its `Authorization` header) is part of the key: credentials never share
   * entries. So are the reader's languages (`readerLanguages`, the normalized and bounded key of their
   * `Accept-Language`: accept-language.ts, never the raw header) for a document that may translate,
   * since a translation field without `to:` answers in them.
   */
  keyOf(authorization: string | null | undefined, params: CacheableParams, readerLanguages?: string): string;
  /** The live answer under `key`; a store that fails or is slow is a miss. */
  read(key: string): Promise<CachedAnswer | undefined>;
  /** The live answer under `key` when this process holds it (no store is asked): a hit without a promise. */
  peek(key: string): CachedAnswer | undefined;
  /**
   * What identifies a request by its exact bytes (`raw`: a POST's body, a GET's query string) and
   * method together with everything else its key depends on: the credential, the reader's languages
   * (the translations in force are checked by recall, the policy is this cache's own). Equal for two
   * requests only when keyOf would be, without parsing or hashing either: a lookup key, never stored
   * elsewhere or shown (it holds the request's bytes, and stands for its credential by a number).
   */
  rawKeyOf(authorization: string | null | undefined, method: string, raw: string, readerLanguages?: string): string;
  /**
   * The key and parameters of the request remembered under a raw key (remember), or undefined;
   * undefined too once the translations in force changed for a document that may translate.
   */
  recall(rawKey: string): KnownRequest | undefined;
  /** Remembers what a request's bytes parsed to and were keyed as, once its answer was found or kept. */
  remember(rawKey: string, known: KnownRequest): void;
  /** How long an answer to `operation` may be reused (0: not at all). */
  ttlFor(operation: OperationDefinitionNode): number;
  /**
   * Keeps the answer to `operation` when it may be reused: a query (ttlFor) answered with data and no
   * errors, with the language its texts were answered in (`Content-Language`, `Vary`). Returns what
   * was kept (for the headers of this response), or undefined.
   */
  keep(key: string, operation: OperationDefinitionNode, result: ExecutionResult, language?: AnswerLanguage): CachedAnswer | undefined;
}

/** Root fields whose answers are translations only; any other root field is problems data. */
const TRANSLATION_ROOTS = new Set(['translation', '__typename']);

/**
 * Whether a document may hold a translation field (`Problem.translation`, the `translation`
 * namespace): a text test, before any parsing, erring on the side of yes (a name or comment that
 * merely contains the word costs only a finer key).
 */
function mayTranslate(query: string): boolean {
  return query.includes('translation');
}

/**
 * The response cache's rules, shared by the two places that answer from it: the front door
 * (pipeline/front-door/) and the yoga plugin behind it (use-response-cache.ts). Only queries
 * answered with data and without errors are kept (keep checks); an entry is the exact bytes served,
 * under a key of everything the answer depends on (keyOf). Made of two stores with one concern
 * each: the answers kept (kept-answers.ts: in this process, ready to write, and in the shared
 * store) and the requests answered lately, by their bytes (known-requests.ts: the same bytes again
 * are not parsed or keyed). Wherever a hit comes from, it is an answer within its TTL: one held here
 * may be one another replica has since replaced in the shared store, as any two answers within
 * their TTL may differ.
 */
export function createResponseCache({
  sharedStore,
  maxLocalBytes = 32 * 1024 * 1024,
  maxKnownRequestBytes = 8 * 1024 * 1024,
  ttlMs,
  translationOnlyTtlMs,
  storeTimeoutMs = 100,
  policy = '',
  translationVariant,
}: ResponseCacheOptions): ResponseCache {
  const answers = createKeptAnswers({ sharedStore, maxLocalBytes, storeTimeoutMs });
  const known = createKnownRequests({ maxBytes: maxKnownRequestBytes, translationVariant, mayTranslate });
  const ttlFor = (operation: OperationDefinitionNode): number => {
    if (operation.operation !== 'query') return 0;
    const roots = operation.selectionSet.selections.map((selection) => (selection.kind === 'Field' ? selection.name.value : ''));
    return roots.every((root) => TRANSLATION_ROOTS.has(root)) ? translationOnlyTtlMs : ttlMs;
  };
  return {
    enabled: ttlMs > 0,
    // No operation name (absent or null) is not the name "": yoga finds no operation called "".
    keyOf: (authorization, { query, variables, operationName }, readerLanguages = '') =>
      sha256Of(
        'response',
        policy,
        authorization ?? '',
        query,
        JSON.stringify(variables ?? null),
        JSON.stringify(operationName ?? null),
        mayTranslate(query) ? `${readerLanguages}|${translationVariant?.() ?? ''}` : '',
      ),
    rawKeyOf: known.rawKeyOf,
    recall: known.recall,
    remember: known.remember,
    peek: answers.peek,
    read: answers.read,
    ttlFor,
    keep(key, operation, result, language = {}) {
      const ttl = ttlFor(operation);
      if (ttl <= 0 || result.errors?.length || !hasData(result)) return undefined;
      // The answer as written (with its extensions: what `@inContext` says was served is part of it),
      // never parsed back from a shaped answer's text only to be written again.
      const text = answerText(result);
      return answers.keep(key, { body: text, etag: `"${sha256Of(text)}"`, operationName: operation.name?.value, expiresAt: Date.now() + ttl, ...language }, ttl);
    },
  };
}
