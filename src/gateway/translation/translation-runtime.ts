import type { MeshPlugin } from '@graphql-mesh/types';
import { useExtendContext } from 'graphql-yoga';
import { ErrorCode, UpstreamError, upstreamErrorIn } from '../errors.ts';
import {
  createTranslationBatcher,
  type BatchFailure,
  type BatchOptions,
  type TranslationBatcherOptions,
  type TranslationOutcome,
} from './translation-batcher.ts';
import { createMemoryTranslationCache, type TranslationCache } from './translation-cache.ts';
import { detectLanguage, listLanguages, translateTexts, type Detection, type Language, type TranslatedText, type TranslationContext } from './translation-client.ts';
import { createStatementMemo, type StatementMemo } from '../statement/statement-memo.ts';

export interface TranslationRuntimeOptions {
  /** @default an in-process LRU cache (see createMemoryTranslationCache) */
  cache?: TranslationCache;
  batchSize: number;
  concurrency: number;
  maxTextLength: number;
  /** The translation key, to send as the `api_key` body field too (TRANSLATION_KEY_IN_BODY); undefined = not in the body. */
  bodyApiKey?: string;
  /** How long the language list is reused to explain a refused language. @default 1 hour */
  languagesTtlMs?: number;
  /** Told how each batch's texts were served (cache hits, joined, sent, calls), for metrics. */
  onServed?: TranslationBatcherOptions<TranslationContext>['onServed'];
}

/**
 * Everything the translation resolvers share across requests: the batcher (with its cache and
 * in-flight table) and the limits. One per gateway, reached from resolvers through the context.
 */
export interface TranslationRuntime {
  maxTextLength: number;
  /** Memoized Markdown work of the Problem.translation link (segmenting, splicing back, HTML). */
  statements: StatementMemo;
  /** The languages the service offers, fetched once per `languagesTtlMs`. */
  languages(context: TranslationContext): Promise<Language[]>;
  /** The service's guesses at a text's language, best first. */
  detect(context: TranslationContext, text: string): Promise<Detection[]>;
  /** Translates texts, batched with the rest of the request; one outcome per text. */
  translate(context: TranslationContext, texts: string[], options: BatchOptions): Promise<TranslationOutcome[]>;
  /**
   * The results when every text translated. Otherwise the failure is thrown once per request and
   * batch: the first field that needed the failed call carries the error, the others are null quietly.
   */
  settle(context: TranslationContext, outcomes: TranslationOutcome[]): TranslatedText[] | null;
}

const RUNTIME = Symbol('translationRuntime');

export function createTranslationRuntime({
  cache = createMemoryTranslationCache(),
  batchSize,
  concurrency,
  maxTextLength,
  bodyApiKey,
  languagesTtlMs = 60 * 60 * 1000,
  onServed,
}: TranslationRuntimeOptions): TranslationRuntime {
  let languages: { list: Promise<Language[]>; expiresAt: number } | undefined;
  const supportedLanguages = (context: TranslationContext) => {
    if (!languages || languages.expiresAt <= Date.now()) {
      const list = listLanguages(context);
      languages = { list, expiresAt: Date.now() + languagesTtlMs };
      list.catch(() => (languages = undefined));
    }
    return languages.list;
  };

  const batcher = createTranslationBatcher<TranslationContext>({
    cache,
    batchSize,
    concurrency,
    onServed,
    send: (context, texts, options) =>
      translateTexts(context, texts, { ...options, bodyApiKey }).catch(async (error) => {
        throw await explainRefusal(error, options, () => supportedLanguages(context), maxTextLength);
      }),
  });
  const reported = new WeakMap<object, Set<BatchFailure>>();

  return {
    maxTextLength,
    statements: createStatementMemo(),
    languages: supportedLanguages,
    detect: (context, text) => detectLanguage(context, text, bodyApiKey),
    translate: (context, texts, options) => batcher.translate(context, texts, options),
    settle(context, outcomes) {
      const failed = outcomes.find((outcome): outcome is { failure: BatchFailure } => 'failure' in outcome);
      if (!failed) return outcomes.map((outcome) => (outcome as { result: TranslatedText }).result);
      let seen = reported.get(context);
      if (!seen) reported.set(context, (seen = new Set()));
      if (seen.has(failed.failure)) return null;
      seen.add(failed.failure);
      throw failed.failure.error;
    },
  };
}

/**
 * The upstream's 400 body is not passed on (it may say anything); when the request named a language
 * the service does not offer, say so in the gateway's words, naming the argument.
 */
async function explainRefusal(
  error: unknown,
  options: BatchOptions,
  languages: () => Promise<Language[]>,
  maxTextLength: number,
): Promise<UpstreamError> {
  const upstream = upstreamErrorIn(error) ?? new UpstreamError('The gateway could not translate these texts.', { code: ErrorCode.UpstreamError, service: 'translation' }, error);
  if (upstream.code !== ErrorCode.UpstreamBadRequest) return upstream;
  const known = await languages().catch(() => undefined);
  if (!known) return upstream;
  const source = options.from ? known.find((language) => language.code === options.from) : undefined;
  if (options.from && !source) return unsupported('from', options.from, known.map((language) => language.code), upstream);
  const targets = source ? source.targets : known.map((language) => language.code);
  if (!targets.includes(options.to)) return unsupported('to', options.to, targets, upstream);
  return new UpstreamError(
    `The translation service refused the texts (HTTP 400) although it offers these languages; the likely cause is a text over its character limit. The gateway sends texts of up to ${maxTextLength} characters (TRANSLATION_MAX_TEXT_LENGTH): set it to the service's limit.`,
    { code: ErrorCode.UpstreamBadRequest, service: 'translation', status: 400, limit: maxTextLength },
    upstream,
  );
}

function unsupported(argument: string, code: string, offered: string[], cause: UpstreamError): UpstreamError {
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
