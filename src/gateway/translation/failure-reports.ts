import type { BatchFailure, TranslationOutcome } from './batch/batch-types.ts';
import type { TranslatedText } from './translation-client.ts';

/**
 * A failure shared by several fields of one request is reported once: the first field that meets it
 * carries the error, the others answer null quietly.
 */
export interface FailureReports {
  /** Throws the failure on the first field of the request that meets it; the others answer null. */
  reportOnce(context: object, failure: BatchFailure): null;
  /** The results when every text translated; otherwise the failure, reported once. */
  settle(context: object, outcomes: TranslationOutcome[]): TranslatedText[] | null;
}

export function createFailureReports(): FailureReports {
  const reported = new WeakMap<object, Set<BatchFailure>>();
  const reportOnce = (context: object, failure: BatchFailure): null => {
    let seen = reported.get(context);
    if (!seen) reported.set(context, (seen = new Set()));
    if (seen.has(failure)) return null;
    seen.add(failure);
    throw failure.error;
  };
  return {
    reportOnce,
    settle(context, outcomes) {
      const failed = outcomes.find((outcome): outcome is { failure: BatchFailure } => 'failure' in outcome);
      if (!failed) return outcomes.map((outcome) => (outcome as { result: TranslatedText }).result);
      return reportOnce(context, failed.failure);
    },
  };
}
