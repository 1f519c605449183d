import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMemoryKeyValueStore } from '../../src/gateway/stores/key-value-store.ts';
import { createMemoryRateLimitStore } from '../../src/gateway/guards/rate-limit-store.ts';
import { budgetCounter } from '../../src/gateway/guards/rate-limits.ts';
import { createMemoryTranslationCache } from '../../src/gateway/translation/translation-cache.ts';
import { withStoreTimeout } from '../../src/shared/with-timeout.ts';

describe('store calls bounded in time', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('arm no timer for the stores in this process, and answer as they do', async () => {
    const stores = [createMemoryKeyValueStore(), createMemoryRateLimitStore(), createMemoryTranslationCache()];
    for (const store of stores) expect(store.inProcess).toBe(true);
    // A store of the same kind without lru-cache, whose own clock may arm a timer of its own.
    const values = { inProcess: true, get: async (key: string) => (key === 'k' ? 'v' : undefined) };
    const read = withStoreTimeout(values, () => values.get('k'), 100);
    expect(vi.getTimerCount()).toBe(0);
    expect(await read).toBe('v');
    const counted = budgetCounter(createMemoryRateLimitStore(), 60_000)('requests:a');
    expect(vi.getTimerCount()).toBe(0);
    expect(await counted).toMatchObject({ count: 1 });
  });

  it('bound any other store: a slow one is given up after its time, a failing one rejects', async () => {
    const slow = { inProcess: false, get: () => new Promise<string>(() => undefined) };
    const pending = withStoreTimeout(slow, () => slow.get(), 100);
    expect(vi.getTimerCount()).toBe(1);
    const outcome = pending.then(
      () => 'answered',
      (error: Error) => error.message,
    );
    await vi.advanceTimersByTimeAsync(100);
    expect(await outcome).toBe('no answer within 100 ms');
    const counted = budgetCounter({ hit: () => new Promise(() => undefined) }, 60_000)('requests:a');
    await vi.advanceTimersByTimeAsync(1000);
    expect(await counted).toBeUndefined();
  });

  it('turn a store that throws at once, in this process or not, into a rejection', async () => {
    for (const inProcess of [true, false]) {
      const failing = {
        inProcess,
        get: (): Promise<string> => {
          throw new Error('broken');
        },
      };
      await expect(withStoreTimeout(failing, () => failing.get(), 100)).rejects.toThrow('broken');
    }
  });
});
