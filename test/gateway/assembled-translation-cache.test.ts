import { describe, expect, it } from 'vitest';
import { createAssembledTranslationCache, type AssembledFrom } from '../../src/gateway/translation/assembled-translation-cache.ts';

const PROBLEM: AssembledFrom = { from: null, to: 'es', title: 'Palindrome Check', statement: 'A *palindrome* reads the same both ways.\n\n## Input\n\n$t$ strings.' };
const MACHINE = { kind: 'MACHINE', sourceLanguage: 'en', madeAt: '2026-01-01T00:00:00.000Z', stale: false, partial: false, translatedShare: 1 } as const;
const SPANISH = { title: 'Comprobar palíndromo', statement: 'Un *palíndromo* se lee igual en ambos sentidos.\n\n## Entrada\n\n$t$ cadenas.', provenance: MACHINE };
const nextTick = () => new Promise((resolve) => setImmediate(resolve));

describe('problem translations reused whole (the link’s memo)', () => {
  it('gives back what was kept for exactly the same texts and languages, and nothing for any other', () => {
    const assembled = createAssembledTranslationCache({ ttlMs: 60_000 });
    expect(assembled.find(PROBLEM)).toBeUndefined();
    assembled.keep(PROBLEM, SPANISH);
    // Equal texts, not the same strings: a page's texts are new strings every time.
    expect(assembled.find({ ...PROBLEM, statement: `${PROBLEM.statement.slice(0, 10)}${PROBLEM.statement.slice(10)}` })).toEqual(SPANISH);
    expect(assembled.find({ ...PROBLEM, to: 'pt' })).toBeUndefined();
    expect(assembled.find({ ...PROBLEM, from: 'en' })).toBeUndefined();
    expect(assembled.find({ ...PROBLEM, title: 'Palindrome check' })).toBeUndefined();
    expect(assembled.find({ ...PROBLEM, statement: `${PROBLEM.statement} ` })).toBeUndefined();
    // A title and statement are not confused with their concatenation split elsewhere.
    expect(assembled.find({ ...PROBLEM, title: `${PROBLEM.title}A`, statement: PROBLEM.statement.slice(1) })).toBeUndefined();
  });

  it('finds a problem by its id and languages, and gives back only what was made from exactly its texts now', () => {
    const assembled = createAssembledTranslationCache({ ttlMs: 60_000 });
    const byId = { ...PROBLEM, id: 'p1001' };
    assembled.keep(byId, SPANISH);
    // Equal texts in new strings, as every page brings them.
    expect(assembled.find({ ...byId, title: `${PROBLEM.title} `.trimEnd(), statement: `${PROBLEM.statement}\n`.slice(0, -1) })).toEqual(SPANISH);
    expect(assembled.find({ ...byId, to: 'pt' })).toBeUndefined();
    expect(assembled.find({ ...byId, from: 'en' })).toBeUndefined();
    // Another problem with the same texts is another entry.
    expect(assembled.find({ ...byId, id: 'p1002' })).toBeUndefined();
    // The service changed the statement (or the title): a miss, and its new translation replaces the old.
    const edited = { ...byId, statement: `${PROBLEM.statement} Edited.` };
    expect(assembled.find(edited)).toBeUndefined();
    expect(assembled.find({ ...byId, title: 'Palindrome check' })).toBeUndefined();
    const editedSpanish = { ...SPANISH, statement: `${SPANISH.statement} Editado.` };
    assembled.keep(edited, editedSpanish);
    expect(assembled.find(edited)).toEqual(editedSpanish);
    expect(assembled.find(byId)).toBeUndefined();
    // Without an id the texts themselves find the entry, apart from those found by id.
    expect(assembled.find(PROBLEM)).toBeUndefined();
    assembled.keep(PROBLEM, SPANISH);
    expect(assembled.find(PROBLEM)).toEqual(SPANISH);
  });

  it('keeps nothing with a TTL of 0 (TRANSLATION_CACHE_TTL_SECONDS=0), and forgets an entry once its TTL is over', async () => {
    const off = createAssembledTranslationCache({ ttlMs: 0 });
    off.keep(PROBLEM, SPANISH);
    expect(off.find(PROBLEM)).toBeUndefined();
    const short = createAssembledTranslationCache({ ttlMs: 100 });
    short.keep(PROBLEM, SPANISH);
    expect(short.find(PROBLEM)).toEqual(SPANISH);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(short.find(PROBLEM)).toBeUndefined();
  });

  it('stays within its memory bound, the least recently used going first', () => {
    const assembled = createAssembledTranslationCache({ ttlMs: 60_000, maxBytes: 4 * 1024 });
    const problems = Array.from({ length: 20 }, (_, index): AssembledFrom => ({ ...PROBLEM, title: `Problem ${index}` }));
    for (const problem of problems) assembled.keep(problem, SPANISH);
    expect(assembled.find(problems[0])).toBeUndefined();
    expect(assembled.find(problems[19])).toEqual(SPANISH);
  });

  it('reports the translations reused once per tick, summed, and a report that throws costs no translation', async () => {
    const reports: number[] = [];
    const assembled = createAssembledTranslationCache({ ttlMs: 60_000, onReused: (count) => reports.push(count) });
    assembled.keep(PROBLEM, SPANISH);
    for (let page = 0; page < 3; page += 1) assembled.find(PROBLEM);
    assembled.find({ ...PROBLEM, to: 'pt' });
    expect(reports).toEqual([]);
    await nextTick();
    expect(reports).toEqual([3]);
    assembled.find(PROBLEM);
    await nextTick();
    expect(reports).toEqual([3, 1]);

    const throwing = createAssembledTranslationCache({ ttlMs: 60_000, onReused: () => { throw new Error('metrics down'); } });
    throwing.keep(PROBLEM, SPANISH);
    expect(throwing.find(PROBLEM)).toEqual(SPANISH);
    await nextTick();
    expect(throwing.find(PROBLEM)).toEqual(SPANISH);
  });
});
