import type { BatchOptions, TranslationOutcome } from './batch-types.ts';

/** One translate() call: its texts' outcomes, filled in as each is known; it resolves with the last. */
export interface PendingCall {
  outcomes: TranslationOutcome[];
  remaining: number;
  resolve(outcomes: TranslationOutcome[]): void;
}

/** The texts of one request that go out together: one (from, to, format). */
export interface Group {
  options: BatchOptions;
  /**
   * Each distinct text, with where its outcome goes: pairs of a waiting call and the text's
   * position in it, kept flat (call, position, call, position…). A promise and a closure per text
   * of every call, joined by Promise.all, were the warm page's largest allocation.
   */
  waiters: Map<string, (PendingCall | number)[]>;
}

/** The group of a request's queued groups that texts with these options join (made when missing). */
export function groupFor(groups: Map<string, Group>, options: BatchOptions): Group {
  const groupKey = `${options.from ?? 'auto'}:${options.to}:${options.format}`;
  let group = groups.get(groupKey);
  if (!group) {
    group = { options, waiters: new Map() };
    groups.set(groupKey, group);
  }
  return group;
}

/** Queues a call's texts in `group`; resolves with one outcome per text, in order, once each is settled. */
export function waitFor(group: Group, texts: string[]): Promise<TranslationOutcome[]> {
  const { waiters } = group;
  if (texts.length === 0) return Promise.resolve([]);
  return new Promise<TranslationOutcome[]>((resolve) => {
    const call: PendingCall = { outcomes: new Array<TranslationOutcome>(texts.length), remaining: texts.length, resolve };
    texts.forEach((text, position) => {
      const list = waiters.get(text);
      if (list) list.push(call, position);
      else waiters.set(text, [call, position]);
    });
  });
}

/** Gives every call waiting for a text its outcome (a position already settled stays as it was). */
export function settleWaiters(waiting: (PendingCall | number)[] | undefined, outcome: TranslationOutcome): void {
  if (!waiting) return;
  for (let pair = 0; pair < waiting.length; pair += 2) {
    const call = waiting[pair] as PendingCall;
    const position = waiting[pair + 1] as number;
    if (call.outcomes[position] !== undefined) continue;
    call.outcomes[position] = outcome;
    call.remaining -= 1;
    if (call.remaining === 0) call.resolve(call.outcomes);
  }
}

/** Every text of `groups` gets `outcome` (the batcher itself failed). */
export function settleEveryone(groups: Map<string, Group>, outcome: TranslationOutcome): void {
  for (const { waiters } of groups.values()) for (const waiting of waiters.values()) settleWaiters(waiting, outcome);
}
