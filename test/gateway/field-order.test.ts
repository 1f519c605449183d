import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedStack } from '../helpers/shared-stack.ts';
import type { Stack } from '../helpers/start-stack.ts';

/** Every object's keys, depth first, as "path: key,key" lines: the order a client (and GraphiQL) sees. */
function keyOrder(value: unknown, path = 'data'): string[] {
  if (Array.isArray(value)) return value.flatMap((item, index) => keyOrder(item, `${path}[${index}]`));
  if (value === null || typeof value !== 'object') return [];
  const object = value as Record<string, unknown>;
  return [`${path}: ${Object.keys(object).join(',')}`, ...Object.keys(object).flatMap((key) => keyOrder(object[key], `${path}.${key}`))];
}

/** A GraphQL answer keeps the order of the selection set, whichever source answers first. */
describe('field order', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await sharedStack('open');
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('root fields and aliases from both sources come back as asked', async () => {
    const result = await stack.query(/* GraphQL */ `{
      a: problem(id: "p1001") { id }
      b: translation { languages { code } }
      c: problem(id: "p1002") { id }
      translation { translateMany(texts: ["Print the sum."], to: "es") { text } translate(text: "Print.", to: "es") { text } languages { code } detect(text: "Print the sum.") { code } }
      d: problems(first: 1) { totalCount }
    }`);
    expect(result.errors).toBeUndefined();
    expect(Object.keys(result.data)).toEqual(['a', 'b', 'c', 'translation', 'd']);
    expect(Object.keys(result.data.translation)).toEqual(['translateMany', 'translate', 'languages', 'detect']);
  });

  it('fragments, inline fragments and the link keep their order at every depth', async () => {
    const result = await stack.query(/* GraphQL */ `
      query Ordered {
        ...Page
        zTranslation: translation { detect(text: "Print the sum.") { code } translate(text: "Print.", to: "fr") { text } }
      }
      fragment Page on Query {
        problems(first: 2) {
          nodes {
            translation(to: "es") { statement language title }
            ... on Problem { title id }
            __typename
            ...Rating
          }
          totalCount
        }
      }
      fragment Rating on Problem { rating difficulty }
    `);
    expect(result.errors).toBeUndefined();
    expect(keyOrder(result.data)).toEqual([
      'data: problems,zTranslation',
      'data.problems: nodes,totalCount',
      'data.problems.nodes[0]: translation,title,id,__typename,rating,difficulty',
      'data.problems.nodes[0].translation: statement,language,title',
      'data.problems.nodes[1]: translation,title,id,__typename,rating,difficulty',
      'data.problems.nodes[1].translation: statement,language,title',
      'data.zTranslation: detect,translate',
      'data.zTranslation.detect[0]: code',
      'data.zTranslation.translate: text',
    ]);
  });
});
