import { describe, expect, it } from 'vitest';
import { memoized } from '../../src/shared/memoized.ts';

describe('memoized', () => {
  it('derives each text once, undefined included, within its bounds', () => {
    const derived: string[] = [];
    const lengthOf = memoized(
      (text) => {
        derived.push(text);
        return text === 'none' ? undefined : text.length;
      },
      { maxEntries: 3, maxLength: 8 },
    );
    expect([lengthOf('ab'), lengthOf('ab'), lengthOf('none'), lengthOf('none')]).toEqual([2, 2, undefined, undefined]);
    expect(derived).toEqual(['ab', 'none']);
    // Longer than maxLength: derived every time, never kept.
    expect([lengthOf('123456789'), lengthOf('123456789')]).toEqual([9, 9]);
    expect(derived).toEqual(['ab', 'none', '123456789', '123456789']);
    // The fourth text starts the memo over: 'ab' is derived again afterwards.
    lengthOf('abc');
    lengthOf('abcd');
    lengthOf('ab');
    expect(derived.slice(4)).toEqual(['abc', 'abcd', 'ab']);
  });
});
