import { buildSchema, parse, type OperationDefinitionNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { createPreparedOperations, type PreparedOperation } from '../../src/gateway/execution/forward/prepared-operations.ts';

const schema = buildSchema('type Query { a: Int }');
const preparedFor = (query: string): PreparedOperation => {
  const document = parse(query);
  return { strategy: 'forwarded', schema, document, operation: document.definitions[0] as OperationDefinitionNode, bind: () => undefined };
};

/** The plans of the texts seen: found by text and operation name, bounded however clients send them. */
describe('prepared operations', () => {
  it('finds a text by its operation name, and no name apart from the name ""', () => {
    const prepared = createPreparedOperations();
    const entry = preparedFor('query A { a }');
    prepared.remember('query A { a }', 'A', entry);
    prepared.remember('query A { a }', null, entry);
    expect(prepared.find('query A { a }', 'A')).toBe(entry);
    expect(prepared.find('query A { a }', undefined)).toBe(entry);
    expect(prepared.find('query A { a }', '')).toBeUndefined();
    expect(prepared.find('query A { a } ', 'A')).toBeUndefined();
  });

  it('keeps no text longer than its bound, and drops the least recently used past its size', () => {
    const prepared = createPreparedOperations({ maxCharacters: 10_000, maxTextLength: 2_000 });
    const long = `{ a } # ${'x'.repeat(3_000)}`;
    prepared.remember(long, null, preparedFor(long));
    expect(prepared.find(long, null)).toBeUndefined();
    const texts = Array.from({ length: 10 }, (_, index) => `{ a } # ${String(index).repeat(1_000)}`);
    for (const text of texts) prepared.remember(text, null, preparedFor(text));
    // 10 texts of ~1 KB, each counted twice: only the last few fit in 10,000.
    expect(prepared.find(texts[0], null)).toBeUndefined();
    expect(prepared.find(texts[9], null)).toBeDefined();
    expect(texts.filter((text) => prepared.find(text, null)).length).toBeLessThanOrEqual(5);
  });

  it('records a text left to yoga, which a forwarding plan may replace and which never replaces one', () => {
    const prepared = createPreparedOperations({ maxTextLength: 100 });
    prepared.remember('{ a }', null, null);
    expect(prepared.find('{ a }', null)).toBeNull();
    expect(prepared.find('{ a }', 'A')).toBeUndefined();
    const entry = preparedFor('{ a }');
    prepared.remember('{ a }', null, entry);
    expect(prepared.find('{ a }', null)).toBe(entry);
    prepared.remember('{ a }', null, null);
    expect(prepared.find('{ a }', null)).toBe(entry);
    expect(prepared.keeps('{ a }')).toBe(true);
    expect(prepared.keeps(`{ a } #${'x'.repeat(100)}`)).toBe(false);
  });
});
