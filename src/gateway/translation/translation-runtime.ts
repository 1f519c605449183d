import type { MeshPlugin } from '@graphql-mesh/types';
import { createGraphQLError, useExtendContext } from 'graphql-yoga';
import { ErrorCode, createGraphQLErrorWithCode } from '../errors.ts';
import {
  createTranslationBatcher,
  type BatchFailure,
  type BatchOptions,
  type TranslationBatcherOptions,
  type TranslationOutcome,
} from './translation-batcher.ts';
import { createMemoryTranslationCache, type TranslationCache } from './translation-cache.ts';
import { listLanguages, translateTexts, type Language, type TranslatedText, type TranslationContext } from './translation-client.ts';
import { createStatementMemo, type StatementMemo } from '../statement/statement-memo.ts';

export interface TranslationRuntimeOptions {
  /** @default an in-process LRU cache (see createMemoryTranslationCache) */
  cache?: TranslationCache;
  batchSize: number;
  concurrency: number;
  maxTextLength: number;
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
      translateTexts(context, texts, options).catch(async (error) => {
        throw await explainRefusal(error, options, () => supportedLanguages(context), maxTextLength);
      }),
  });
  const reported = new WeakMap<object, Set<BatchFailure>>();

  return {
    maxTextLength,
    statements: createStatementMemo(),
    translate: (context, texts, options) => batcher.translate(context, texts, options),
    settle(context, outcomes) {
      const failed = outcomes.find((outcome): outcome is { failure: BatchFailure } => 'failure' in outcome);
      if (!failed) return outcomes.map((outcome) => (outcome as { result: TranslatedText }).result);
      let seen = reported.get(context);
      if (!seen) reported.set(context, (seen = new Set()));
      if (seen.has(failed.failure)) return null;
      seen.add(failed.failure);
      // A fresh error, so graphql-js places it at this field: the original still carries the path of
      // the raw operation it came from, and is shared with other requests.
      const { message, extensions } = failed.failure.error;
      throw createGraphQLError(message, { extensions });
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
): Promise<unknown> {
  const code = (error as { extensions?: { code?: string } })?.extensions?.code;
  if (code !== ErrorCode.UpstreamBadRequest) return error;
  const known = await languages().catch(() => undefined);
  if (!known) return error;
  const source = options.from ? known.find((language) => language.code === options.from) : undefined;
  if (options.from && !source) return unsupported('from', options.from, known.map((language) => language.code));
  const targets = source ? source.targets : known.map((language) => language.code);
  if (!targets.includes(options.to)) return unsupported('to', options.to, targets);
  return createGraphQLErrorWithCode(
    `The translation service refused the texts (HTTP 400) although it offers these languages; the likely cause is a text over its character limit. The gateway sends texts of up to ${maxTextLength} characters (TRANSLATION_MAX_TEXT_LENGTH): set it to the service's limit.`,
    ErrorCode.UpstreamBadRequest,
    { service: 'translation', status: 400, limit: maxTextLength },
  );
}

function unsupported(argument: string, code: string, offered: string[]) {
  return createGraphQLErrorWithCode(
    `The translation service does not offer "${code}" for \`${argument}\`; it offers: ${[...offered].sort().join(', ')}.`,
    ErrorCode.UnsupportedLanguage,
    { service: 'translation', argument },
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
