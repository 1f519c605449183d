import type { UpstreamError } from '../../errors.ts';
import type { SendStats } from './batch-types.ts';
import type { Item } from './items.ts';

/** What sending one call needs: the call itself, and how its texts fail. */
export interface CallSender {
  /**
   * Sends one call; resolves with the error when it failed as a text can make a call fail (a 500:
   * left to the caller to narrow), after settling every other outcome itself.
   */
  sendBin(bin: Item[]): Promise<UpstreamError | undefined>;
  /** Fails `bin` with what its call met; the service's own failure is the request's too. */
  failBin(bin: Item[], error: unknown): void;
  /** The text the service fails on while it answers others: failed alone, and not sent again for a while. */
  textFails(item: Item, cause: UpstreamError): void;
}

/**
 * Narrows a call that failed with a 500 down to the text that fails, halving it: a half the
 * service answers shows it works, so the other half's failure is its texts'. Both halves
 * failing is the service's failure (or texts in both: they share it), which bounds the extra
 * calls to two per halving. `proven`: the service answered another call lately.
 */
export async function narrow(sender: CallSender, stats: SendStats, bin: Item[], error: UpstreamError, proven: boolean): Promise<void> {
  if (bin.length === 1) return proven ? sender.textFails(bin[0], error) : sender.failBin(bin, error);
  stats.narrowedCalls += 1;
  const half = Math.ceil(bin.length / 2);
  const halves = [bin.slice(0, half), bin.slice(half)];
  const errors = await Promise.all(halves.map((part) => sender.sendBin(part)));
  if (errors.every((failed) => failed !== undefined)) return sender.failBin(bin, errors[0]);
  await Promise.all(halves.map((part, index) => errors[index] && narrow(sender, stats, part, errors[index], true)));
}
