import { everyCallRefused, type CallCaps } from '../translation-limits.ts';
import type { TextFormat } from '../translation-client.ts';
import type { SendStats } from './batch-types.ts';
import { tooLong } from './call-failures.ts';
import { splitItem, type Item, type Root } from './items.ts';

/**
 * The queue within the caps: a text longer than the longest the service takes is cut at paragraph and
 * sentence boundaries; one that cannot be cut is failed when the service is known to refuse its
 * length, else it goes alone, to see. `split`: the texts already counted as cut.
 */
export function fitToCaps(queue: Item[], caps: CallCaps, format: TextFormat, split: Set<Root>, stats: SendStats): Item[] {
  return queue.flatMap((item) => {
    if (item.chars <= caps.longest) return [item];
    const parts = splitItem(item, caps.longest, format);
    if (!parts) {
      if (item.chars > caps.refusedAbove) item.fail({ error: caps.refusedAboveProven ? tooLong(item.root, caps) : everyCallRefused() });
      return item.chars > caps.refusedAbove ? [] : [item];
    }
    if (!split.has(item.root)) {
      split.add(item.root);
      stats.splitTexts += 1;
    }
    return parts;
  });
}

/**
 * First fit, longest first: the fewest calls within both caps in practice (texts are small next
 * to the character cap), and in the texts' own order when only the count binds.
 */
export function pack(items: Item[], caps: CallCaps): Item[][] {
  const bins: { items: Item[]; chars: number }[] = [];
  const order = [...items].sort((a, b) => b.chars - a.chars);
  for (const item of order) {
    const bin = bins.find((candidate) => candidate.items.length < caps.texts && candidate.chars + item.chars <= caps.chars);
    if (bin) {
      bin.items.push(item);
      bin.chars += item.chars;
    } else bins.push({ items: [item], chars: item.chars });
  }
  // Back in queue order inside each call, so a page's texts go in the order they were asked for.
  const position = new Map(items.map((item, index) => [item, index]));
  return bins.map((bin) => bin.items.sort((a, b) => position.get(a)! - position.get(b)!));
}
