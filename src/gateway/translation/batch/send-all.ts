import type { BatchFailure } from './batch-types.ts';
import { asUpstreamError } from './call-failures.ts';
import { sendRound } from './call-round.ts';
import type { BatchShared, GroupWork } from './group-work.ts';
import { shapeOf, wholeItem, type Item, type Root } from './items.ts';
import { learnFromRefusals, type RefusalState } from './refusals.ts';
import { fitToCaps, pack } from './sizing.ts';

/**
 * Sends `roots` in calls sized by what the service is known to accept. While its limits are being
 * learned, one call goes at a time, so each refusal resizes the rest before they go; once the sizes
 * are known to pass (or nothing was ever refused), the calls go together. Every root has its
 * outcome when it resolves.
 */
export async function sendAll<TContext extends object>(batch: BatchShared<TContext>, work: GroupWork<TContext>, roots: Root[]): Promise<void> {
  const { learner } = work;
  // A cause that holds for every text of the group (a language), or of the request (the service failed).
  let groupFailure: BatchFailure | undefined;
  let queue: Item[] = roots.map((root) => wholeItem(root));
  const split = new Set<Root>();
  const refusals: RefusalState = { explained: false };

  while (queue.length > 0) {
    queue = queue.filter((item) => !item.root.outcome);
    const failure = groupFailure ?? batch.failedRequests.get(work.request);
    if (failure) {
      for (const item of queue) item.fail(failure);
      break;
    }
    const caps = learner.caps();
    queue = fitToCaps(queue, caps, work.options.format, split, work.stats);
    if (queue.length === 0) break;
    const bins = pack(queue, caps);
    const together = !caps.limited || bins.every((bin) => learner.knownToFit(shapeOf(bin)));
    const round = together ? bins : bins.slice(0, 1);
    const { back, refused } = await sendRound(batch, work, round);
    groupFailure = await learnFromRefusals(batch, work, refused, refusals);
    if (refusals.published) await refusals.published;
    queue = [...back, ...queue.filter((item) => !round.some((bin) => bin.includes(item)))];
  }
  for (const root of roots) root.outcome ??= { failure: { error: asUpstreamError(new Error('not translated')) } };
}
