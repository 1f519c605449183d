import { buildSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import { diffSchemas, formatSchemaDiff } from '../../src/gateway/schema/schema-diff.ts';
import { parseRetryAfter } from '../../src/gateway/upstream/upstream-errors.ts';

describe('diffSchemas', () => {
  const before = buildSchema(/* GraphQL */ `
    type Query { problem(id: ID!): Problem, old: Int, list(first: Int): [Int] }
    type Problem { id: ID!, title: String!, difficulty: Difficulty }
    enum Difficulty { EASY HARD }
    type Gone { x: Int }
  `);
  const after = buildSchema(/* GraphQL */ `
    type Query { problem(id: ID!): Problem, list(first: Int, after: String): [Int] }
    type Problem { id: ID!, title: String!, rating: Int, difficulty: Difficulty }
    enum Difficulty { EASY MEDIUM HARD }
    type Contest { id: ID! }
  `);

  it('says which changes break clients, which are dangerous and which are safe, breaking first', async () => {
    const changes = await diffSchemas(before, after);
    const byImpact = (impact: string) => changes.filter((change) => change.impact === impact).map((change) => change.path);
    expect(byImpact('breaking')).toEqual(expect.arrayContaining(['Gone', 'Query.old']));
    expect(byImpact('dangerous')).toEqual(expect.arrayContaining(['Difficulty.MEDIUM', 'Query.list.after']));
    expect(byImpact('safe')).toEqual(expect.arrayContaining(['Contest', 'Problem.rating']));
    expect(changes.map((change) => change.impact)).toEqual([...changes.map((change) => change.impact)].sort((a, b) => ['breaking', 'dangerous', 'safe'].indexOf(a) - ['breaking', 'dangerous', 'safe'].indexOf(b)));
  });

  it('says so when nothing changed', async () => {
    expect(formatSchemaDiff(await diffSchemas(before, before))).toBe('no changes');
  });

  it('summarises with a count per impact and one marked line per change', async () => {
    const lines = formatSchemaDiff(await diffSchemas(before, after)).split('\n');
    expect(lines[0]).toMatch(/^\d+ change\(s\): 2 breaking, 2 dangerous, \d+ safe$/);
    expect(lines[1]).toMatch(/^BREAKING /);
    expect(lines.some((line) => /^SAFE\s+Field 'rating' was added to object type 'Problem'$/.test(line))).toBe(true);
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates, and ignores garbage', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('7', now)).toBe(7);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:30 GMT', now)).toBe(30);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});
