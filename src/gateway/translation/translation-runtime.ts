import type { MeshPlugin } from '@graphql-mesh/types';
import { useExtendContext } from 'graphql-yoga';
import { LRUCache } from 'lru-cache';
import { sha256Of } from '../../shared/hash.ts';
import { ErrorCode, UpstreamError } from '../errors.ts';
import { createCallGate } from './translation-call-gate.ts';
import { createServiceLimits, type ServiceLimits } from './translation-limits.ts';
import {
  createTranslationBatcher,
  type BatchFailure,
  type BatchOptions,
  type TranslationBatcherOptions,
  type TranslationOutcome,
} from './translation-batcher.ts';
import { createMemoryTranslationCache, type TranslationCache } from './translation-cache.ts';
import { detectLanguage, listLanguages, readPublishedCharLimit, translateTexts, type Detection, type Language, type TranslatedText, type TranslationContext } from './translation-client.ts';
import { chooseLanguages, isAutomatic, matchLanguage, parseLanguageTag, targetsOf, type LanguageChoice } from './language-tags.ts';
import { NO_PREFERENCE } from './accept-language.ts';
import { languageChain, negotiateLanguage } from './language-negotiation.ts';
import { gatewayRequestOf } from '../request/gateway-request.ts';
import type { CuratedTranslations } from './curated/curated-translations.ts';
import { createStatementMemo, type StatementMemo } from '../statement/statement-memo.ts';
import { createAssembledTranslations, type AssembledTranslations } from './assembled-translations.ts';
import type { GatewaySettings } from '../settings.ts';

export interface TranslationRuntimeOptions {
  /** @default an in-process LRU cache (see createMemoryTranslationCache) */
  cache?: TranslationCache;
  /** Most texts in one call (TRANSLATION_BATCH_SIZE); what the service is seen to accept may lower it. */
  batchSize: number;
  /** Most characters in one call, summed over its texts (TRANSLATION_MAX_CHARS_PER_CALL). @default no bound */
  maxCharsPerCall?: number;
  /** Most translation calls in flight for one client request (TRANSLATION_CONCURRENCY). */
  concurrency: number;
  /** Most translation calls one client request may cause (TRANSLATION_MAX_CALLS_PER_REQUEST). @default no bound */
  maxCallsPerRequest?: number;
  /** Most translation calls in flight for the whole gateway. @default 16 × concurrency */
  gatewayConcurrency?: number;
  maxTextLength: number;
  /** The translation key, to send as the `api_key` body field too (TRANSLATION_KEY_IN_BODY); undefined = not in the body. */
  bodyApiKey?: string;
  /** TRANSLATION_URL and its key, to read the limits the service publishes (GET /frontend/settings). */
  translationUrl?: string;
  translationApiKey?: string;
  /** How long the language list is reused to map and check language arguments. @default 1 hour */
  languagesTtlMs?: number;
  /** How long a detection, and a problem's assembled translation, is reused (TRANSLATION_CACHE_TTL_SECONDS). @default 6 hours */
  cacheTtlMs?: number;
  /** Memory bound of the assembled translations (assembled-translations.ts); 0 keeps none. @default 32 MiB */
  assembledMaxBytes?: number;
  /** Told how each batch's texts were served (cache hits, joined, sent, calls, splits), for metrics. */
  onServed?: TranslationBatcherOptions<TranslationContext>['onServed'];
  /** TRANSLATION_DEFAULT_LANGUAGES: tried after the reader's own languages, before the original. @default none */
  defaultLanguages?: readonly string[];
  /** The operators' translations (TRANSLATION_CURATED_DIR), served before any machine translation. @default none */
  curated?: CuratedTranslations;
}

/**
 * What a translation field serves: the service's translation, an operator's (curated), or the
 * original (nothing the reader wants is offered, or the original is in a language they want).
 * `negotiated`: chosen from the reader's languages (no `to:`).
 */
export type LanguageDecision =
  | { serve: 'machine'; to: string; from: string | null; negotiated: boolean }
  | { serve: 'curated'; language: string; negotiated: boolean }
  /** `fallback`: nothing the reader wants can be served; else the original is in a language they want (`from`). */
  | { serve: 'original'; language: string | null; negotiated: boolean; fallback: boolean };

/**
 * Everything the translation resolvers share across requests: the batcher (with its cache and
 * in-flight table), the limits learned from the service, and the limits. One per gateway, reached
 * from resolvers through the context.
 */
export interface TranslationRuntime {
  maxTextLength: number;
  /** Memoized Markdown work of the Problem.translation link (segmenting, splicing back, HTML). */
  statements: StatementMemo;
  /** The link's results, reused whole while their translations would be (assembled-translations.ts). */
  assembled: AssembledTranslations;
  /** The operators' translations, when TRANSLATION_CURATED_DIR (or a replica sharing it through Redis) gives some. */
  curated?: CuratedTranslations;
  /**
   * What translation answers depend on besides the request: the default languages and the curated
   * set in force. Response cache keys of documents that may translate include it.
   */
  variant(): string;
  /** The languages the service offers, fetched once per `languagesTtlMs`. */
  languages(context: TranslationContext): Promise<Language[]>;
  /**
   * The service's own codes for a request's `to` and `from` (checked with languageTagProblem; `from`
   * null or `auto` is automatic detection). A language it does not offer is refused with no call:
   * thrown once per request and arguments, null for the other fields that asked, like `settle`.
   */
  resolveLanguages(context: TranslationContext, args: { to: string; from?: string | null }): Promise<{ to: string; from: string | null } | null>;
  /**
   * What a field with these arguments serves. An explicit `to` wins: a curated translation in that
   * language (`curated` lists the languages one exists in), else the service's (resolveLanguages).
   * Without `to`, the request's `Accept-Language` and then TRANSLATION_DEFAULT_LANGUAGES are tried in
   * turn (language-negotiation.ts); when none can be served, the original. Null as resolveLanguages.
   */
  decide(context: TranslationContext, args: { to?: string | null; from?: string | null }, curated?: readonly string[]): Promise<LanguageDecision | null>;
  /** The service's guesses at a text's language, best first; equal texts once, cached, within the request's call bound. */
  detect(context: TranslationContext, text: string): Promise<Detection[]>;
  /** Translates texts, batched with the rest of the request; one outcome per text. */
  translate(context: TranslationContext, texts: string[], options: BatchOptions): Promise<TranslationOutcome[]>;
  /**
   * The results when every text translated. Otherwise the failure is thrown once per request and
   * batch: the first field that needed the failed call carries the error, the others are null quietly.
   */
  settle(context: TranslationContext, outcomes: TranslationOutcome[]): TranslatedText[] | null;
  /**
   * Read-only view of the gateway-wide call gate, for background work (prewarming) that runs only in
   * spare capacity: calls in flight for all requests, and the calls one request (context) has made.
   */
  calls: { readonly inFlight: number; readonly lastSettledAt: number; madeFor(context: object): number };
}

const RUNTIME = Symbol('translationRuntime');

/** The settings the translation runtime reads (settings.ts documents each). */
export type TranslationRuntimeSettings = Pick<
  GatewaySettings,
  | 'translationCacheMaxBytes'
  | 'translationCacheTtlSeconds'
  | 'translationBatchSize'
  | 'translationMaxCharsPerCall'
  | 'translationConcurrency'
  | 'translationMaxCallsPerRequest'
  | 'translationMaxTextLength'
  | 'translationKeyInBody'
  | 'translationUrl'
  | 'translationApiKey'
  | 'translationDefaultLanguages'
>;

/** The translation runtime the settings describe; `cache` where translations are kept (a shared store), else in process. */
export function translationRuntimeFor(
  settings: TranslationRuntimeSettings,
  { cache, onServed, curated }: Pick<TranslationRuntimeOptions, 'cache' | 'onServed' | 'curated'> = {},
): TranslationRuntime {
  return createTranslationRuntime({
    cache: cache ?? createMemoryTranslationCache({ maxBytes: settings.translationCacheMaxBytes, ttlMs: settings.translationCacheTtlSeconds * 1000 }),
    batchSize: settings.translationBatchSize,
    maxCharsPerCall: settings.translationMaxCharsPerCall,
    concurrency: settings.translationConcurrency,
    maxCallsPerRequest: settings.translationMaxCallsPerRequest,
    maxTextLength: settings.translationMaxTextLength,
    bodyApiKey: settings.translationKeyInBody ? settings.translationApiKey : undefined,
    translationUrl: settings.translationUrl,
    translationApiKey: settings.translationApiKey,
    cacheTtlMs: settings.translationCacheTtlSeconds * 1000,
    // Off with the translation cache (TRANSLATION_CACHE_MAX_BYTES=0), and never larger than it.
    assembledMaxBytes: Math.min(32 * 1024 * 1024, settings.translationCacheMaxBytes),
    onServed,
    defaultLanguages: settings.translationDefaultLanguages,
    curated,
  });
}

export function createTranslationRuntime({
  cache = createMemoryTranslationCache(),
  batchSize,
  maxCharsPerCall,
  concurrency,
  maxCallsPerRequest,
  gatewayConcurrency = 16 * concurrency,
  maxTextLength,
  bodyApiKey,
  translationUrl,
  translationApiKey,
  languagesTtlMs = 60 * 60 * 1000,
  cacheTtlMs = 6 * 60 * 60 * 1000,
  assembledMaxBytes = 32 * 1024 * 1024,
  onServed,
  defaultLanguages = [],
  curated,
}: TranslationRuntimeOptions): TranslationRuntime {
  let languages: { list: Promise<Language[]>; fetchedAt: number } | undefined;
  let listFailedAt = -Infinity;
  /** The list, fetched again when older than `maxAgeMs`; a failed fetch is not kept. */
  const supportedLanguages = (context: TranslationContext, maxAgeMs = languagesTtlMs) => {
    if (!languages || Date.now() - languages.fetchedAt >= maxAgeMs) {
      const entry = { list: listLanguages(context), fetchedAt: Date.now() };
      languages = entry;
      entry.list.catch(() => {
        listFailedAt = Date.now();
        if (languages === entry) languages = undefined;
      });
    }
    return languages.list;
  };
  // Without the list the arguments go as the service most likely spells them, and the call's own
  // outcome stands: a service that is down fails it anyway, and one that lacks GET /languages may
  // still translate. A failed list is not asked again for a while, so an outage costs no extra calls.
  const listForMatching = (context: TranslationContext): Promise<Language[] | undefined> =>
    !languages && Date.now() - listFailedAt < LIST_RETRY_MS ? Promise.resolve(undefined) : supportedLanguages(context).catch(() => undefined);
  const chooseFor = async (context: TranslationContext, args: { to: string; from?: string | null }): Promise<LanguageChoice> => {
    const choice = chooseLanguages(await listForMatching(context), args);
    // A language added since the list was fetched is served within a minute, not an hour.
    if (!('refused' in choice) || !languages || Date.now() - languages.fetchedAt < LIST_RECHECK_MS) return choice;
    return chooseLanguages(await supportedLanguages(context, LIST_RECHECK_MS).catch(() => undefined), args);
  };
  const resolutions = new WeakMap<object, Map<string, Promise<{ to: string; from: string | null } | BatchFailure>>>();

  // What the service accepts, learned per gateway, so per TRANSLATION_URL: never carried to another service.
  const limits: ServiceLimits = createServiceLimits();
  let publishedReadAt = -Infinity;

  const gate = createCallGate({ concurrency, maxCallsPerRequest, gatewayConcurrency });
  const batcher = createTranslationBatcher<TranslationContext>({
    cache,
    batchSize,
    maxCharsPerCall,
    maxTextLength,
    concurrency,
    gate,
    limits,
    onServed,
    send: (context, texts, options) => translateTexts(context, texts, { ...options, bodyApiKey }),
    readPublishedLimits: async (context) => {
      // Read while not known (never read, or expired: translation-limits.ts); a failed read (not a
      // 404) is tried again after a minute.
      if (limits.published !== undefined || !translationUrl || Date.now() - publishedReadAt < 60_000) return;
      publishedReadAt = Date.now();
      limits.published = await readPublishedCharLimit(context, translationUrl, translationApiKey);
      limits.publishedAt = limits.now();
    },
    explainGroup: (context, options, refusal) => unsupportedIn(refusal, options, () => supportedLanguages(context)),
  });
  const reported = new WeakMap<object, Set<BatchFailure>>();

  const detections = new LRUCache<string, Detection[]>({ max: 10_000, ttl: Math.max(1, cacheTtlMs) });
  const detecting = new Map<string, Promise<Detection[]>>();
  const detect = (context: TranslationContext, text: string): Promise<Detection[]> => {
    const key = sha256Of(text);
    const hit = cacheTtlMs > 0 ? detections.get(key) : undefined;
    if (hit) return Promise.resolve(hit);
    // Equal texts in flight, from this request or another, share one call.
    let pending = detecting.get(key);
    if (!pending) {
      pending = gate.of(context).run(() => detectLanguage(context, text, bodyApiKey));
      detecting.set(key, pending);
      pending.then(
        (result) => {
          if (cacheTtlMs > 0) detections.set(key, result);
        },
        () => undefined,
      ).finally(() => detecting.delete(key));
    }
    return pending;
  };

  /** Throws the failure on the first field of the request that meets it; the others answer null. */
  const reportOnce = (context: TranslationContext, failure: BatchFailure): null => {
    let seen = reported.get(context);
    if (!seen) reported.set(context, (seen = new Set()));
    if (seen.has(failure)) return null;
    seen.add(failure);
    throw failure.error;
  };

  const resolveLanguages: TranslationRuntime['resolveLanguages'] = async (context, args) => {
    let byArgs = resolutions.get(context);
    if (!byArgs) resolutions.set(context, (byArgs = new Map()));
    const key = JSON.stringify([args.to, args.from ?? null]);
    let resolution = byArgs.get(key);
    if (!resolution) {
      resolution = chooseFor(context, args).then((choice) =>
        'refused' in choice ? { error: unsupported(choice.refused.argument, choice.refused.given, choice.refused.offered) } : choice,
      );
      byArgs.set(key, resolution);
    }
    const resolved = await resolution;
    return 'error' in resolved ? reportOnce(context, resolved) : resolved;
  };

  const decide: TranslationRuntime['decide'] = async (context, args, curatedLanguages = []) => {
    if (args.to != null) {
      const own = curatedLanguages.length > 0 ? matchLanguage(parseLanguageTag(args.to)!, curatedLanguages) : undefined;
      if (own) return { serve: 'curated', language: own, negotiated: false };
      const languages = await resolveLanguages(context, { to: args.to, from: args.from });
      return languages && { serve: 'machine', ...languages, negotiated: false };
    }
    const reader = gatewayRequestOf(context)?.readerLanguages ?? NO_PREFERENCE;
    const fromTag = args.from == null || isAutomatic(args.from) ? undefined : parseLanguageTag(args.from)!;
    const negotiated = await negotiateLanguage(languageChain(reader, defaultLanguages), reader.refused, {
      curated: curatedLanguages,
      source: fromTag?.canonical,
      offered: async () => {
        const list = await listForMatching(context);
        if (!list) return undefined;
        const source = fromTag ? list.find((language) => language.code === matchLanguage(fromTag, list.map(({ code }) => code))) : undefined;
        return targetsOf(list, source);
      },
    });
    if (!negotiated || negotiated.kind === 'original') {
      return { serve: 'original', language: negotiated?.language ?? fromTag?.canonical ?? null, negotiated: true, fallback: !negotiated };
    }
    if (negotiated.kind === 'curated') return { serve: 'curated', language: negotiated.language, negotiated: true };
    const languages = await resolveLanguages(context, { to: negotiated.language, from: args.from });
    return languages && { serve: 'machine', ...languages, negotiated: true };
  };

  const defaultsKey = defaultLanguages.join(',');
  return {
    maxTextLength,
    curated,
    variant: () => `${defaultsKey}|${curated?.version ?? ''}`,
    statements: createStatementMemo(),
    // As long as the translations they were made of.
    assembled: createAssembledTranslations({
      maxBytes: assembledMaxBytes,
      ttlMs: cacheTtlMs,
      onReused: onServed && ((reused) => onServed({ cached: 0, joined: 0, sent: 0, calls: 0, reused })),
    }),
    languages: (context) => supportedLanguages(context),
    resolveLanguages,
    decide,
    detect,
    calls: {
      get inFlight() {
        return gate.inFlight;
      },
      get lastSettledAt() {
        return gate.lastSettledAt;
      },
      madeFor: (context) => gate.of(context).made,
    },
    translate: (context, texts, options) => batcher.translate(context, texts, options),
    settle(context, outcomes) {
      const failed = outcomes.find((outcome): outcome is { failure: BatchFailure } => 'failure' in outcome);
      if (!failed) return outcomes.map((outcome) => (outcome as { result: TranslatedText }).result);
      return reportOnce(context, failed.failure);
    },
  };
}

/** How long a failed language list is not asked again for argument matching. */
const LIST_RETRY_MS = 30_000;
/** How old the list may be before a language missing from it is looked for in a fresh one. */
const LIST_RECHECK_MS = 60_000;

/**
 * The upstream's 400 body is not passed on (it may say anything, and the gateway never reads it);
 * when the request named a language the service does not offer, say so in the gateway's words,
 * naming the argument. Any other cause is narrowed down by the batcher (sizes, one text).
 */
async function unsupportedIn(refusal: UpstreamError, options: BatchOptions, languages: () => Promise<Language[]>): Promise<UpstreamError | undefined> {
  const known = await languages().catch(() => undefined);
  if (!known) return undefined;
  const source = options.from ? known.find((language) => language.code === options.from) : undefined;
  if (options.from && !source) return unsupported('from', options.from, known.map((language) => language.code), refusal);
  const targets = targetsOf(known, source);
  if (!targets.includes(options.to)) return unsupported('to', options.to, targets, refusal);
  return undefined;
}

function unsupported(argument: string, code: string, offered: readonly string[], cause?: UpstreamError): UpstreamError {
  return new UpstreamError(
    `The translation service does not offer "${code}" for \`${argument}\`; it offers: ${[...offered].sort().join(', ')}.`,
    { code: ErrorCode.UnsupportedLanguage, service: 'translation', argument },
    cause,
  );
}

/** Puts the runtime on every request's context, where the translation resolvers find it. */
export function useTranslationRuntime(runtime: TranslationRuntime): MeshPlugin<object> {
  return useExtendContext(() => ({ [RUNTIME]: runtime })) as MeshPlugin<object>;
}

export function translationRuntimeOf(context: object): TranslationRuntime {
  const runtime = (context as { [RUNTIME]?: TranslationRuntime })[RUNTIME];
  if (!runtime) throw new Error('the translation runtime is missing from the context (useTranslationRuntime not installed)');
  return runtime;
}
