import type { GraphQLError } from 'graphql';
import type { TextFormat, TranslatedText } from '../translation-client.ts';
import type { CallShape, ServiceLimits } from '../translation-limits.ts';

/** One failure, shared by every text it stands for. */
export interface BatchFailure {
  error: GraphQLError;
  /**
   * The failure belongs to the request that met it (its call budget ran out, its client went away),
   * not to its texts: a request that joined them sends them again rather than inherit it.
   */
  ownRequest?: boolean;
}

export type TranslationOutcome = { result: TranslatedText } | { failure: BatchFailure };

export interface BatchOptions {
  from: string | null;
  to: string;
  format: TextFormat;
}

/** What the batcher tells about its work, for metrics and tests. */
export interface TranslationServedEvent {
  cached: number;
  joined: number;
  sent: number;
  calls: number;
  /** Texts in each call made (calls of one group's flush). */
  callSizes?: number[];
  /** Calls refused as too large (400) whose texts went out again in smaller calls. */
  splitCalls?: number;
  /** Texts cut into parts to fit the character limit. */
  splitTexts?: number;
  /** Measures whose limit was learned (or lowered) by this flush. */
  learned?: (keyof CallShape)[];
  /** Calls answered 200 with no usable translation (an empty one, or not texts): failed, nothing kept. */
  unusable?: number;
  /** Calls that failed with a 500 and were halved to find the text it was about. */
  narrowedCalls?: number;
  /** Texts the service failed on (500) while it answered others, failed alone (TEXT_NOT_TRANSLATABLE). */
  failingTexts?: number;
  /** Texts failed at once, without a call, as the service failed on them lately. */
  knownFailing?: number;
  /** The service's limits as the gateway knows them now (shared, live), for their values and ages in metrics. */
  limits?: ServiceLimits;
  /**
   * Problem translations reused whole (assembled-translation-cache.ts), whose texts were not looked up
   * one by one. Never set by the batcher: the assembled translation cache reports these, once per tick.
   */
  reused?: number;
}

/** What one group's flush did, for its TranslationServedEvent. */
export interface SendStats {
  /** Texts in each call made. */
  calls: number[];
  /** Calls that failed with a 500 and were halved to find the text it was about. */
  narrowedCalls: number;
  /** Texts found to fail (500) while the service answers others. */
  failingTexts: number;
  splitCalls: number;
  splitTexts: number;
  unusable: number;
}
