import { upstreamCauseOf } from '../../upstream/upstream-errors.ts';
import { limitNamedIn } from '../translation-limits.ts';
import type { BatchFailure } from './batch-types.ts';
import { refusedText } from './call-failures.ts';
import type { Refused } from './call-round.ts';
import type { BatchShared, GroupWork } from './group-work.ts';
import { shapeOf } from './items.ts';

/** What a group's flush has asked, once, while learning from refusals: across its rounds. */
export interface RefusalState {
  /** Whether the group's refusal was explained already (a language the service does not offer). */
  explained: boolean;
  /** The read of the limits the service publishes, started at the flush's first refusal. */
  published?: Promise<void>;
}

/**
 * Learns from the calls the service refused: the sizes it refuses (and a limit its answer names),
 * a cause that holds for the whole group (returned: every text of the group fails with it), and a
 * text refused alone although as long a text passed before (failed for what it says).
 */
export async function learnFromRefusals<TContext extends object>(
  batch: BatchShared<TContext>,
  work: GroupWork<TContext>,
  refused: Refused[],
  state: RefusalState,
): Promise<BatchFailure | undefined> {
  const { context, options, learner, stats } = work;
  for (const { bin, error } of refused) {
    const refusedShape = shapeOf(bin);
    learner.refused(refusedShape, bin.map((item) => item.root));
    const named = limitNamedIn(upstreamCauseOf(error), refusedShape);
    if (named) learner.named(named.measure, named.limit);
    if (bin.length > 1) stats.splitCalls += 1;
    state.published ??= batch.readPublished(context);
    // First the causes that hold for every text of the group, whatever the call's size.
    if (!state.explained && batch.explainGroup) {
      state.explained = true;
      const groupError = await batch.explainGroup(context, options, error).catch(() => undefined);
      if (groupError) {
        learner.forget();
        return { error: groupError };
      }
    }
    const [item] = bin;
    // Refused alone although as long a text passed before: refused for what it says, not its size.
    if (bin.length === 1 && item.chars <= batch.limits.ok.longest) {
      learner.exclude(item.root);
      item.fail({ error: refusedText(item, error, batch.maxTextLength) });
    }
  }
  return undefined;
}
