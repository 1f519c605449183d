import type { GraphQLError } from 'graphql';
import { UpstreamError, upstreamErrorIn } from '../../errors.ts';
import { isBudgetError } from '../translation-call-gate.ts';
import { translationCacheKey } from '../translation-cache.ts';
import { isUnusableAnswer } from '../translation-client.ts';
import type { BatchFailure } from './batch-types.ts';
import { SkippedCall, asUpstreamError, clientGone, isRefusal, mayBeTheTexts, notTranslatable } from './call-failures.ts';
import type { BatchShared, GroupWork } from './group-work.ts';
import { shapeOf, type Item } from './items.ts';
import { narrow, type CallSender } from './narrowing.ts';

/** The calls of one round that the service refused (400, 413): learned from, and their texts sent again. */
export interface Refused {
  bin: Item[];
  error: UpstreamError;
}

/** What one round left: items to send again (refused calls'), and the refusals to learn from. */
export interface RoundResult {
  back: Item[];
  refused: Refused[];
}

/** Sends the calls of one round together, a call failed by a 500 narrowed down to the text it is about. */
export async function sendRound<TContext extends object>(batch: BatchShared<TContext>, work: GroupWork<TContext>, round: Item[][]): Promise<RoundResult> {
  const result: RoundResult = { back: [], refused: [] };
  const sender = callSender(batch, work, result);
  await Promise.all(
    round.map(async (bin) => {
      const error = await sender.sendBin(bin);
      if (error) await narrow(sender, work.stats, bin, error, batch.failingTexts.answeredLately());
    }),
  );
  return result;
}

function callSender<TContext extends object>(batch: BatchShared<TContext>, work: GroupWork<TContext>, result: RoundResult): CallSender {
  const { context, options, request, calls, learner, stats } = work;
  const { failedRequests, failingTexts } = batch;
  const failBin = (bin: Item[], error: unknown) => {
    const failure: BatchFailure = isBudgetError(error)
      ? { error: error as GraphQLError, ownRequest: true }
      : { error: upstreamErrorIn(error) ?? asUpstreamError(error), ownRequest: clientGone(context) };
    for (const item of bin) item.fail(failure);
    // The service itself failed (down, slow, key refused, over its rate): the request's texts
    // not sent yet, in any group, would fare the same, so they share this failure instead of
    // each paying for it.
    // (A spent call budget refuses the request's later calls by itself, and lets those admitted run.)
    if (!failure.ownRequest && !failedRequests.has(request)) failedRequests.set(request, failure);
  };
  const textFails = (item: Item, cause: UpstreamError) => {
    stats.failingTexts += 1;
    failingTexts.remember(translationCacheKey({ ...options, text: item.root.text }));
    item.fail({ error: notTranslatable(item, cause, failingTexts.ttlMs) });
  };
  const sendBin = async (bin: Item[]): Promise<UpstreamError | undefined> => {
    const texts = bin.map((item) => item.text);
    try {
      const results = await calls.run(() => {
        // Waiting for its turn, the call may have become pointless: another failed for good.
        const failed = failedRequests.get(request);
        if (failed) return Promise.reject(new SkippedCall(failed));
        stats.calls.push(texts.length);
        return batch.send(context, texts, options);
      });
      failingTexts.answered();
      learner.accepted(shapeOf(bin));
      bin.forEach((item, index) => item.done(results[index]));
    } catch (error) {
      if (error instanceof SkippedCall) {
        for (const item of bin) item.fail(error.failure);
        return undefined;
      }
      const upstream = upstreamErrorIn(error);
      if (isUnusableAnswer(upstream)) stats.unusable += 1;
      if (upstream && isRefusal(upstream)) {
        result.refused.push({ bin, error: upstream });
        result.back.push(...bin);
        return undefined;
      }
      if (upstream && mayBeTheTexts(upstream) && !clientGone(context)) return upstream;
      failBin(bin, error);
    }
    return undefined;
  };
  return { sendBin, failBin, textFails };
}
