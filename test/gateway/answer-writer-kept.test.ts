import { buildSchema, Kind, parse, type FragmentDefinitionNode, type OperationDefinitionNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { compileAnswerShaper, type ShapedAnswer } from '../../src/gateway/execution/forward/answer-shaper.ts';
import type { LinkCompletionOptions } from '../../src/gateway/execution/forward/linked-answer.ts';

/**
 * A link's frozen result (a kept translation on a warm page) is completed and written once per plan:
 * served again, its text is the one written the first time, with none of its fields read. Anything
 * else is completed every time: a result that is not frozen, one whose completion failed, a selection
 * with a resolver of its own.
 */
describe('the answer writer and frozen link results', () => {
  const schema = buildSchema(/* GraphQL */ `
    type Query { problems: [Problem] }
    type Problem { id: ID! title: String translation(to: String): Translation }
    type Translation { language: String! title: String! statementHtml: String }
  `);

  /** A link over Problem.title whose result is made by `result`; `reads` counts reads of the result's `title`. */
  function linked(result: (title: string, reads: { count: number }) => object) {
    const reads = { count: 0 };
    const links: LinkCompletionOptions = {
      links: new Map([['Problem.translation', { aliases: { _gatewayLink_title: 'title' }, resolve: (parent) => result(parent.title as string, reads) }]]),
      resultFields: new Map([['Translation.statementHtml', (source) => `<p>${(source as { title: string }).title}</p>`]]),
    };
    return { links, reads };
  }

  function shaperFor(query: string, links: LinkCompletionOptions) {
    const document = parse(query);
    const operation = document.definitions.find((definition) => definition.kind === Kind.OPERATION_DEFINITION) as OperationDefinitionNode;
    const fragments: Record<string, FragmentDefinitionNode> = {};
    const shaper = compileAnswerShaper({ schema, operation, fragments, links, nullErrorsWithoutLocations: false })!;
    return (data: Record<string, unknown>) => shaper.shape(data, {}, {}) as ShapedAnswer;
  }

  const data = () => ({ problems: [{ id: 'p1', _gatewayLink_title: 'Sum' }, { id: 'p2', _gatewayLink_title: 'Sum' }] });
  const frozenTranslation = (title: string, reads: { count: number }) => {
    const translation = Object.freeze({
      language: 'es',
      get title() {
        reads.count += 1;
        return `${title} (es)`;
      },
    });
    return () => translation;
  };

  it('writes a frozen result completed once, and the same text every time after', () => {
    const reads = { count: 0 };
    const kept = frozenTranslation('Sum', reads);
    const { links } = linked(() => kept());
    const shape = shaperFor(/* GraphQL */ `{ problems { id translation(to: "es") { title language } } }`, links);
    const expected = '{"data":{"problems":[{"id":"p1","translation":{"title":"Sum (es)","language":"es"}},{"id":"p2","translation":{"title":"Sum (es)","language":"es"}}]}}';
    expect(shape(data()).text).toBe(expected);
    expect(reads.count).toBe(1);
    expect(shape(data()).text).toBe(expected);
    expect(reads.count).toBe(1);
    // Another selection over the same result: its own text, completed once for it.
    const other = shaperFor(/* GraphQL */ `{ problems { translation(to: "es") { language } } }`, links);
    expect(other(data()).text).toBe('{"data":{"problems":[{"translation":{"language":"es"}},{"translation":{"language":"es"}}]}}');
  });

  it('completes every time a result that is not frozen, one that failed, and one with a field of its own', () => {
    const { links, reads } = linked((title, counted) => ({
      language: 'es',
      get title() {
        counted.count += 1;
        return `${title} (es)`;
      },
    }));
    const shape = shaperFor(/* GraphQL */ `{ problems { translation(to: "es") { title } } }`, links);
    shape(data());
    shape(data());
    expect(reads.count).toBe(4);

    // A frozen result without its non-null title: the error each time, never a text kept in its place.
    const broken = Object.freeze({ language: 'es', title: null });
    const failing = shaperFor(/* GraphQL */ `{ problems { translation(to: "es") { title } } }`, linked(() => broken).links);
    for (let round = 0; round < 2; round += 1) {
      const answer = failing(data());
      expect(answer.errors?.map((error) => error.message)).toEqual(['Cannot return null for non-nullable field Translation.title.', 'Cannot return null for non-nullable field Translation.title.']);
      expect(answer.data).toEqual({ problems: [{ translation: null }, { translation: null }] });
    }

    // statementHtml has a resolver of its own: read every time.
    const htmlReads = { count: 0 };
    const kept = frozenTranslation('Sum', htmlReads);
    const withHtml = shaperFor(/* GraphQL */ `{ problems { translation(to: "es") { statementHtml } } }`, linked(() => kept()).links);
    withHtml(data());
    withHtml(data());
    expect(htmlReads.count).toBe(4);
  });
});
