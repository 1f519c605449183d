import { describe, expect, it } from 'vitest';
import { createMadeTranslations, type MadeTranslationsStore } from '../../src/gateway/translation/made-translations.ts';

/** The index of made translations by problem: how long an entry lasts, and what it is for. */
describe('made translations', () => {
  const problem = { id: 'p1', title: 'Sum', statement: 'Print the sum.' };
  const spanish = { language: 'es', sourceLanguage: 'en', madeAt: 1_000, partial: false };

  it('lasts as long as the oldest part of the translation does in the cache', async () => {
    let now = 5_000;
    const made = createMadeTranslations({ ttlMs: 10_000, now: () => now });
    made.note(problem, spanish);
    made.note(problem, { ...spanish, language: 'fr', madeAt: null });
    expect(await made.lookup(problem)).toEqual([
      { ...spanish, until: 11_000 },
      { ...spanish, language: 'fr', madeAt: null, until: 15_000 },
    ]);
    now = 11_000;
    expect((await made.lookup(problem)).map((entry) => entry.language)).toEqual(['fr']);
    // A part made a TTL ago is gone from the cache already: nothing is noted.
    made.note(problem, { ...spanish, madeAt: 0 });
    expect((await made.lookup(problem)).map((entry) => entry.language)).toEqual(['fr']);
  });

  it('counts only for the texts it was made from, and keys a problem without id by its texts', async () => {
    const made = createMadeTranslations({ ttlMs: 10_000, now: () => 5_000 });
    made.note(problem, spanish);
    expect(await made.lookup({ ...problem, statement: 'Print the product.' })).toEqual([]);
    expect(await made.lookup({ ...problem, title: 'Product' })).toEqual([]);
    const anonymous = { title: 'Sum', statement: 'Print the sum.' };
    made.note(anonymous, spanish);
    expect((await made.lookup(anonymous)).map((entry) => entry.language)).toEqual(['es']);
    expect(await made.lookup({ ...anonymous, statement: 'Print the product.' })).toEqual([]);
  });

  it('keeps nothing with the translation cache off, and reads a shared store beside its own, a failing one as none', async () => {
    const off = createMadeTranslations({ ttlMs: 0 });
    off.note(problem, spanish);
    expect(await off.lookup(problem)).toEqual([]);

    const written: unknown[] = [];
    let failing = false;
    const shared: MadeTranslationsStore = {
      read: async () => {
        if (failing) throw new Error('redis away');
        return [{ ...spanish, language: 'de', until: 20_000 }, { ...spanish, until: 9_000 }];
      },
      write: (...args) => void written.push(args),
    };
    const made = createMadeTranslations({ ttlMs: 10_000, shared, now: () => 5_000 });
    made.note(problem, spanish);
    expect(written).toHaveLength(1);
    // Per language the entry lasting longest: this process's Spanish (until 11,000) over the store's.
    expect(await made.lookup(problem)).toEqual([
      { ...spanish, until: 11_000 },
      { ...spanish, language: 'de', until: 20_000 },
    ]);
    failing = true;
    expect(await made.lookup(problem)).toEqual([{ ...spanish, until: 11_000 }]);
  });
});
