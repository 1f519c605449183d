import type { MeshPlugin } from '@graphql-mesh/types';
import { useExtendContext } from 'graphql-yoga';
import { createCallGate, readOnlyCalls } from './translation-call-gate.ts';
import { createServiceLimits, type ServiceLimits } from './translation-limits.ts';
import { createTranslationBatcher, type BatchOptions, type TranslationBatcherOptions, type TranslationOutcome } from './translation-batcher.ts';
import { createMemoryTranslationCache, type TranslationCache } from './translation-cache.ts';
import { translateTexts, type Detection, type Language, type TranslatedText, type TranslationContext } from './translation-client.ts';
import type { CuratedTranslations } from './curated/curated-translations.ts';
import { createStatementCache, type StatementCache } from '../statement/statement-cache.ts';
import { createAssembledTranslationCache, type AssembledTranslationCache } from './assembled-translation-cache.ts';
import { defaultOf, type GatewaySettings } from '../settings.ts';
import { createLanguageList } from './language-list.ts';
import { createLanguageChoice, type LanguageChoiceOfRequests } from './language-choice.ts';
import { createLanguageDetection } from './language-detection.ts';
import { createSourceLanguages, type SourceLanguages } from './source-languages.ts';
import { createMadeTranslations, type MadeTranslations, type MadeTranslationsStore } from './made-translations.ts';
import { createFailureReports } from './failure-reports.ts';
import { publishedLimitsReader } from './published-limits.ts';
import { unsupportedIn } from './unsupported-language.ts';

export interface TranslationRuntimeOptions {
  /** @default an in-process LRU cache (see createMemoryTranslationCache) */
  cache?: TranslationCache;
  /** Most texts in one call (TRANSLATION_BATCH_SIZE); what the service is seen to accept may lower it. */
  batchSize: number;
  /** Most characters in one call, summed over its texts (TRANSLATION_MAX_CHARS_PER_CALL). @default no bound */
  maxCharsPerCall?: number;
  /** Most translation calls in flight for one client request (TRANSLATION_CONCURRENCY). */
  concurrency: number;
  /** Most translation calls one client request may cause (TRANSLATION_MAX_CALLS_PER_REQUEST). @default as that variable */
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
  /** How long a detection, and a problem's assembled translation, is reused (TRANSLATION_CACHE_TTL_SECONDS). @default as that variable */
  cacheTtlMs?: number;
  /** Memory bound of the assembled translations (assembled-translation-cache.ts); 0 keeps none. @default 32 MiB */
  assembledMaxBytes?: number;
  /** Told how each batch's texts were served (cache hits, joined, sent, calls, splits), for metrics. */
  onServed?: TranslationBatcherOptions<TranslationContext>['onServed'];
  /** TRANSLATION_DEFAULT_LANGUAGES: tried after the reader's own languages, before the original. @default none */
  defaultLanguages?: readonly string[];
  /** The operators' translations (TRANSLATION_CURATED_DIR), served before any machine translation. @default none */
  curated?: CuratedTranslations;
  /** TRANSLATION_SOURCE_LANGUAGE: the problems' language, so a reader wanting it gets the original with no call. @default detected */
  sourceLanguage?: string;
  /** Which languages each problem was translated into, shared by the replicas (Redis). @default this process's own */
  made?: MadeTranslationsStore;
  /** TRANSLATION_PREWARM: the languages kept translated in the background, as listed. @default none */
  prewarmLanguages?: readonly string[];
  /** The clock prewarming keeps, on which the calls' gate stamps when the last call settled. @default Date.now */
  now?: () => number;
}

export type { LanguageDecision } from './language-choice.ts';

/**
 * Everything the translation resolvers share across requests: the batcher (with its cache and
 * in-flight table), the limits learned from the service, and the limits. One per gateway, reached
 * from resolvers through the context. Where the reader's language is decided: language-choice.ts.
 */
export interface TranslationRuntime extends LanguageChoiceOfRequests {
  maxTextLength: number;
  /** Memoized Markdown work of the Problem.translation link (segmenting, splicing back, HTML). */
  statements: StatementCache;
  /** The link's results, reused whole while their translations would be (assembled-translation-cache.ts). */
  assembled: AssembledTranslationCache;
  /** The operators' translations, when TRANSLATION_CURATED_DIR (or a replica sharing it through Redis) gives some. */
  curated?: CuratedTranslations;
  /** Each statement's language, declared (TRANSLATION_SOURCE_LANGUAGE) or as the service last detected it. */
  sources: SourceLanguages;
  /** Which languages each problem was translated into lately (Problem.translations). */
  made: MadeTranslations;
  /** TRANSLATION_PREWARM, as listed. */
  prewarmLanguages: readonly string[];
  /** The service's languages as held (fetched once per `languagesTtlMs` for the whole gateway), or undefined when they cannot be had. */
  offered(context: TranslationContext): Promise<Language[] | undefined>;
  /**
   * What translation answers depend on besides the request: the default languages, the declared
   * source language and the curated set in force. Response cache keys of documents that may translate include it.
   */
  variant(): string;
  /** The languages the service offers, fetched once per `languagesTtlMs`. */
  languages(context: TranslationContext): Promise<Language[]>;
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
  | 'translationSourceLanguage'
  | 'translationPrewarm'
>;

/** The translation runtime the settings describe; `cache` where translations are kept (a shared store), else in process. */
export function translationRuntimeFor(
  settings: TranslationRuntimeSettings,
  { cache, onServed, curated, made, now }: Pick<TranslationRuntimeOptions, 'cache' | 'onServed' | 'curated' | 'made' | 'now'> = {},
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
    sourceLanguage: settings.translationSourceLanguage,
    made,
    prewarmLanguages: settings.translationPrewarm,
    now,
  });
}

export function createTranslationRuntime({
  cache = createMemoryTranslationCache(),
  batchSize,
  maxCharsPerCall,
  concurrency,
  maxCallsPerRequest = defaultOf('translationMaxCallsPerRequest'),
  gatewayConcurrency = 16 * concurrency,
  maxTextLength,
  bodyApiKey,
  translationUrl,
  translationApiKey,
  languagesTtlMs = 60 * 60 * 1000,
  cacheTtlMs = defaultOf('translationCacheTtlSeconds') * 1000,
  assembledMaxBytes = 32 * 1024 * 1024,
  onServed,
  defaultLanguages = [],
  curated,
  sourceLanguage,
  made,
  prewarmLanguages = [],
  now,
}: TranslationRuntimeOptions): TranslationRuntime {
  const list = createLanguageList(languagesTtlMs);
  const reports = createFailureReports();
  const choice = createLanguageChoice({ list, defaultLanguages, reports });
  const gate = createCallGate({ concurrency, maxCallsPerRequest, gatewayConcurrency, now });
  // What the service accepts, learned per gateway, so per TRANSLATION_URL: never carried to another service.
  const limits: ServiceLimits = createServiceLimits();
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
    readPublishedLimits: publishedLimitsReader(limits, translationUrl, translationApiKey),
    explainGroup: (context, options, refusal) => unsupportedIn(refusal, options, () => list.get(context)),
  });
  const defaultsKey = `${defaultLanguages.join(',')}|${sourceLanguage ?? ''}`;
  return {
    maxTextLength,
    curated,
    variant: () => `${defaultsKey}|${curated?.version ?? ''}`,
    sources: createSourceLanguages({ declared: sourceLanguage, ttlMs: cacheTtlMs }),
    // Off with the assembled translations, which are off with the translation cache.
    made: createMadeTranslations({ ttlMs: assembledMaxBytes > 0 ? cacheTtlMs : 0, shared: made }),
    prewarmLanguages,
    offered: (context) => list.forMatching(context),
    statements: createStatementCache(),
    // As long as the translations they were made of.
    assembled: createAssembledTranslationCache({
      maxBytes: assembledMaxBytes,
      ttlMs: cacheTtlMs,
      onReused: onServed && ((reused) => onServed({ cached: 0, joined: 0, sent: 0, calls: 0, reused })),
    }),
    languages: (context) => list.get(context),
    resolveLanguages: choice.resolveLanguages,
    decide: choice.decide,
    detect: createLanguageDetection({ gate, cacheTtlMs, bodyApiKey }),
    calls: readOnlyCalls(gate),
    translate: (context, texts, options) => batcher.translate(context, texts, options),
    settle: reports.settle,
  };
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
