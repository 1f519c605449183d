import { describe, expect, it } from 'vitest';
import { createSourceLanguages } from '../../src/gateway/translation/source-languages.ts';

/** A statement's language as learned from the service, looked up by the text or, on a page, by the problem too. */
describe('source languages', () => {
  it('finds a statement learned by its text, by the problem id too, and a changed statement of the same problem as its own', () => {
    const sources = createSourceLanguages({ ttlMs: 60_000 });
    sources.learn('Print the sum.', 'en');
    sources.learn('Imprime la suma.', 'es');
    expect(sources.of('Print the sum.')).toBe('en');
    expect(sources.of('Print the sum.', 'p1')).toBe('en');
    // Asked again for p1: found by the id, and the same answer.
    expect(sources.of('Print the sum.', 'p1')).toBe('en');
    // p1's statement changed: the new text's own language, never the one kept for the id.
    expect(sources.of('Imprime la suma.', 'p1')).toBe('es');
    expect(sources.of('Affiche la somme.', 'p1')).toBeNull();
    expect(sources.of('Print the sum.', 'p1')).toBe('en');
  });

  it('gives the declared language whatever the statement', () => {
    const sources = createSourceLanguages({ declared: 'fr', ttlMs: 60_000 });
    sources.learn('Print the sum.', 'en');
    expect(sources.of('Print the sum.', 'p1')).toBe('fr');
  });
});
