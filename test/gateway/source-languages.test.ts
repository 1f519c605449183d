import { describe, expect, it } from 'vitest';
import { textDigest } from '../../src/shared/hash.ts';
import { createSourceLanguages } from '../../src/gateway/translation/source-languages.ts';

/** The real digest, with the texts it was asked for: a lookup by the problem's id asks for none. */
function countedDigest() {
  const digested: string[] = [];
  return {
    digested,
    digest: (text: string) => {
      digested.push(text);
      return textDigest(text);
    },
  };
}

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

  it('finds a problem seen before by its id, with no digest of its statement; a statement of its own, or a changed one, by its text', () => {
    const { digested, digest } = countedDigest();
    const sources = createSourceLanguages({ ttlMs: 60_000, digest });
    sources.learn('Print the sum.', 'en');
    expect(sources.of('Print the sum.', 'p1')).toBe('en');
    digested.length = 0;
    // A warm page: every statement looked up again by its problem, none hashed.
    expect(sources.of('Print the sum.', 'p1')).toBe('en');
    expect(sources.of('Print the sum.', 'p1')).toBe('en');
    expect(digested).toEqual([]);
    // Without the id, or with a statement changed since, by the text.
    expect(sources.of('Print the sum.')).toBe('en');
    expect(sources.of('Print the product.', 'p1')).toBeNull();
    expect(digested).toEqual(['Print the sum.', 'Print the product.']);
  });

  it('gives the declared language whatever the statement', () => {
    const sources = createSourceLanguages({ declared: 'fr', ttlMs: 60_000 });
    sources.learn('Print the sum.', 'en');
    expect(sources.of('Print the sum.', 'p1')).toBe('fr');
  });
});
