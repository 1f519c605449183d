import type { GraphQLError } from 'graphql';
import type { UpstreamError } from '../../errors.ts';
import type { RequestCalls, CallGate } from '../translation-call-gate.ts';
import type { TranslationCache } from '../translation-cache.ts';
import type { TranslatedText } from '../translation-client.ts';
import type { LimitLearner, ServiceLimits } from '../translation-limits.ts';
import type { FailingTexts } from '../failing-texts.ts';
import type { BatchFailure, BatchOptions, SendStats, TranslationOutcome, TranslationServedEvent } from './batch-types.ts';
import type { Root } from './items.ts';

/** What every group's flush shares: the batcher's settings and the state it keeps across requests. */
export interface BatchShared<TContext extends object> {
  cache: TranslationCache;
  batchSize: number;
  maxCharsPerCall?: number;
  maxTextLength?: number;
  gate: CallGate;
  limits: ServiceLimits;
  failingTexts: FailingTexts;
  send: (context: TContext, texts: string[], options: BatchOptions) => Promise<TranslatedText[]>;
  explainGroup?: (context: TContext, options: BatchOptions, refusal: UpstreamError) => Promise<GraphQLError | undefined>;
  onServed?: (event: TranslationServedEvent) => void;
  /** Starts a read of the published limits unless one is under way; undefined when there is nothing to read. */
  readPublished(context: TContext): Promise<void> | undefined;
  /**
   * Texts being translated right now, by cache key, across requests: a second request asking for the
   * same text joins the call already on its way instead of sending another, and shares its outcome.
   */
  inFlight: Map<string, Promise<TranslationOutcome>>;
  /** The service's failure met by a request: its texts not sent yet, in any group, share it. */
  failedRequests: WeakMap<object, BatchFailure>;
}

/** One group's flush: its request, options, calls, what it learns of the limits, and what it did. */
export interface GroupWork<TContext extends object> {
  context: TContext;
  options: BatchOptions;
  /** The key of the request (requestKeyOf), under which its failure is kept. */
  request: object;
  calls: RequestCalls;
  learner: LimitLearner<Root>;
  stats: SendStats;
}
