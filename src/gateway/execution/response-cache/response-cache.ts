import type { ExecutionResult, OperationDefinitionNode } from 'graphql';
import { LRUCache } from 'lru-cache';
import { sha256Of } from '../../../shared/hash.ts';
import { withTimeout } from '../../../shared/with-timeout.ts';
import type { KeyValueStore } from '../../stores/key-value-store.ts';
import type { CachedAnswer } from '../../request/cached-answer.ts';
import type { AnswerLanguage } from '../../request/answer-language.ts';
import { answerLanguageHeaders } from '../../request/languages-served.ts';
import { answerText, hasData } from '../forward/prepared-operations.ts';

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

/** A request seen before, by its bytes: what they parse to and its key (keyOf). */
export interface KnownRequest {
  key: string;
  params: CacheableParams;
  /** The length of the bytes it was parsed from (what remembering it costs). */
  rawLength: number;
  /**
   * The translations in force when it was keyed, for a document that may translate (remember sets
   * it): its key holds them, so once they change it is forgotten (recall).
   */
  variant?: string;
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
 * The response cache's stores and rules, shared by the two places that answer from it: the yoga
 * plugin (use-response-cache.ts) and the front door in front of yoga (pipeline/front-door/). Only
 * queries answered with data and without errors are kept (keep checks); an entry is the exact bytes served.
 *
 * The answers kept in this process are kept parsed, ready to write (cached-answer.ts): a hit costs a
 * map lookup, where reading a store costs a timer, a promise and a JSON parse of the entry (and a
 * round trip, for Redis). The requests answered from it are remembered by their bytes (rawKeyOf,
 * recall): the same bytes again, with the same credential and languages, find their key and
 * parameters without being parsed or keyed again. Wherever a hit comes from, it is an answer within its TTL: one held here may be one another
 * replica has since replaced in the shared store, as any two answers within their TTL may differ.
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
  const local = new LRUCache<string, CachedAnswer>({
    maxSize: maxLocalBytes,
    sizeCalculation: (answer, key) => answer.body.byteLength + 2 * (key.length + answer.etag.length + (answer.operationName?.length ?? 0)) + 256,
  });
  // The parameters are as long as the bytes they came from, give or take their escapes.
  const known = new LRUCache<string, KnownRequest>({ maxSize: maxKnownRequestBytes, sizeCalculation: (request, rawKey) => 2 * (rawKey.length + request.key.length + request.rawLength) + 128 });
  const credentials = credentialClasses();
  const ttlFor = (operation: OperationDefinitionNode): number => {
    if (operation.operation !== 'query') return 0;
    const roots = operation.selectionSet.selections.map((selection) => (selection.kind === 'Field' ? selection.name.value : ''));
    return roots.every((root) => TRANSLATION_ROOTS.has(root)) ? translationOnlyTtlMs : ttlMs;
  };
  const live = (answer: CachedAnswer | undefined): answer is CachedAnswer => answer !== undefined && answer.expiresAt > Date.now();
  const peek = (key: string): CachedAnswer | undefined => {
    const held = local.get(key);
    if (live(held)) return held;
    if (held) local.delete(key);
    return undefined;
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
    // Equal keys only for equal credentials, languages, method and bytes: each part but the last is
    // free of NUL (a header value cannot hold one, nor a method or a languages key).
    rawKeyOf: (authorization, method, raw, readerLanguages = '') => `${credentials.classOf(authorization)}\u0000${readerLanguages}\u0000${method}\u0000${raw}`,
    recall(rawKey) {
      const request = known.get(rawKey);
      return request?.variant === undefined || request.variant === translationVariant?.() ? request : undefined;
    },
    remember(rawKey, request) {
      const variant = translationVariant && mayTranslate(request.params.query) ? translationVariant() : undefined;
      known.set(rawKey, variant === undefined ? request : { ...request, variant });
    },
    peek,
    read(key) {
      const held = peek(key);
      if (held) return Promise.resolve(held);
      if (!sharedStore) return Promise.resolve(undefined);
      return withTimeout(() => sharedStore.get(key), storeTimeoutMs).then(
        (stored) => {
          const answer = stored ? parseAnswer(stored) : undefined;
          if (!live(answer)) return undefined;
          local.set(key, answer);
          return answer;
        },
        () => undefined,
      );
    },
    ttlFor,
    keep(key, operation, result, language = {}) {
      const ttl = ttlFor(operation);
      if (ttl <= 0 || result.errors?.length || !hasData(result)) return undefined;
      // The answer as written (with its extensions: what `@inContext` says was served is part of it),
      // never parsed back from a shaped answer's text only to be written again.
      const text = answerText(result);
      const stored: StoredAnswer = { body: text, etag: `"${sha256Of(text)}"`, operationName: operation.name?.value, expiresAt: Date.now() + ttl, ...language };
      const answer = readyAnswer(stored);
      local.set(key, answer);
      if (sharedStore) void withTimeout(() => sharedStore.set(key, JSON.stringify(stored), ttl), storeTimeoutMs).catch(() => undefined);
      return answer;
    },
  };
}

/** Seconds an answer may still be reused, for `Cache-Control: max-age` (rounded up: a fresh answer says its whole TTL). */
export function secondsLeft(answer: Pick<CachedAnswer, 'expiresAt'>): number {
  return Math.max(0, Math.ceil((answer.expiresAt - Date.now()) / 1000));
}

/** `Cache-Control` values by seconds left: every hit within a second says the same, written once. */
const cacheControls: string[] = [];

/** `private, max-age=…`, the same string for every answer with as many seconds left. */
export function cacheControlOf(maxAgeSeconds: number): string {
  // A memo of a pure function, bounded by the longest TTL a day allows; longer ones are written each time.
  if (maxAgeSeconds > 86_400) return `private, max-age=${maxAgeSeconds}`;
  return (cacheControls[maxAgeSeconds] ??= `private, max-age=${maxAgeSeconds}`);
}

/**
 * The headers every answer from the cache carries, whichever way it is served: with its language
 * when the reader's languages chose it (`Content-Language`, and `Accept-Language` in `Vary`).
 */
export function cachingHeaders(etag: string, maxAgeSeconds: number, language: AnswerLanguage = {}): Record<string, string> {
  const { vary, ...languageHeaders } = answerLanguageHeaders(language);
  return { etag, 'cache-control': cacheControlOf(maxAgeSeconds), vary: vary ? `Authorization, ${vary}` : 'Authorization', ...languageHeaders };
}

/**
 * Whether an `If-None-Match` header names `etag` (weak or strong, in a list or alone), or is `*`,
 * which any current answer matches (RFC 9110, 13.1.2).
 */
export function matchesEtag(ifNoneMatch: string | null | undefined, etag: string): boolean {
  return ifNoneMatch?.split(',').some((tag) => {
    const trimmed = tag.trim();
    return trimmed === '*' || trimmed.replace(/^W\//, '') === etag;
  }) ?? false;
}

/** An answer as a shared store holds it (JSON): the body as text, no headers. */
type StoredAnswer = Omit<CachedAnswer, 'body' | 'headers'> & { body: string };

/** The answer ready to write: its bytes, and the headers that depend on it alone (in cachingHeaders' words). */
function readyAnswer({ body, ...rest }: StoredAnswer): CachedAnswer {
  const bytes = Buffer.from(body);
  const { 'cache-control': _perRequest, ...fixed } = cachingHeaders(rest.etag, 0, rest);
  const headers = [...Object.entries(fixed).flat(), 'content-length', String(bytes.byteLength)];
  return { ...rest, body: bytes, headers };
}

function parseAnswer(text: string): CachedAnswer | undefined {
  try {
    const answer = JSON.parse(text) as StoredAnswer;
    if (typeof answer?.expiresAt !== 'number' || typeof answer.body !== 'string' || typeof answer.etag !== 'string') return undefined;
    // A language header is written as kept: only a plain tag may become one.
    if (answer.contentLanguage !== undefined && !/^[A-Za-z0-9-]{1,35}$/.test(answer.contentLanguage)) return undefined;
    return readyAnswer(answer);
  } catch {
    return undefined;
  }
}

/** Most credentials numbered at once (credentialClasses); past it, numbering goes on in a fresh table. */
const MAX_CREDENTIAL_CLASSES = 256;

/**
 * A number for each credential (`Authorization` header) seen, for the raw keys: hashing the header
 * on every request cost more than the lookup it serves. A number is never given twice, even after
 * the table starts over (bounded, for callers that send a new header each time), so a raw key can
 * never stand for another credential; one whose number was forgotten gets a new one, and its
 * requests are parsed and remembered again. No credential is `-`.
 */
function credentialClasses() {
  let numbers = new Map<string, number>();
  let next = 0;
  return {
    classOf(authorization: string | null | undefined): string | number {
      if (authorization === null || authorization === undefined) return '-';
      let number = numbers.get(authorization);
      if (number === undefined) {
        if (numbers.size >= MAX_CREDENTIAL_CLASSES) numbers = new Map();
        number = next++;
        numbers.set(authorization, number);
      }
      return number;
    },
  };
}
