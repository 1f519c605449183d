import { describe, expect, it } from 'vitest';
import { segmentStatement } from '../../src/gateway/statement/segment-statement.ts';
import { dataset } from '../../src/upstreams/problems/data/index.ts';
import { createTranslator } from '../../src/upstreams/translation/translator.ts';
import { countNodes, protectedSpans, shapeWithoutText } from './statement-spans.ts';

/**
 * Every statement of the stand-in dataset through the translation stand-in, in-process (the same
 * translator POST /translate uses, with `source: "auto"` as the gateway sends it), each into one of
 * the languages the stand-in offers, in turn: every statement translated and every language used,
 * each statement's structure checked once rather than once per language (the languages differ in
 * words, not in markup).
 */
const translator = createTranslator();
const targets = translator.languages.map((language) => language.code).filter((code) => code !== 'en');
const translate = (html: string, target: string) => translator.translate(html, translator.detect(html, 'html')[0].language, target, 'html');
const statements = dataset.problems.map((problem) => ({ id: problem.id, markdown: problem.statement }));
// A statement is segmented the same way every time (checked below), and its segmentation serves any
// number of translations, as the gateway keeps it (statement-work.ts): segmented once for all checks.
const segmentations = new Map<string, ReturnType<typeof segmentStatement>>();
const segmentationOf = (markdown: string) => {
  let segmentation = segmentations.get(markdown);
  if (!segmentation) segmentations.set(markdown, (segmentation = segmentStatement(markdown)));
  return segmentation;
};

describe('statements of the whole stand-in dataset', () => {
  it('hold what the protection is for: math everywhere, display math, fenced code with a language, tables', () => {
    const having = (test: Parameters<typeof countNodes>[1]) => statements.filter(({ markdown }) => countNodes(markdown, test) > 0).length;
    expect(having((node) => node.type === 'inlineMath')).toBe(statements.length);
    expect(having((node, source) => node.type === 'math' || source.startsWith('$$'))).toBeGreaterThanOrEqual(15);
    expect(having((node) => node.type === 'code' && Boolean(node.lang))).toBeGreaterThanOrEqual(9);
    expect(having((node) => node.type === 'table')).toBeGreaterThanOrEqual(8);
  });

  it('sends no formula and no code to the service, and segments a statement the same way every time', () => {
    for (const { id, markdown } of statements) {
      const { segments } = segmentationOf(markdown);
      expect(segments.length, id).toBeGreaterThan(0);
      for (const segment of segments) expect(segment, id).not.toMatch(/[$`]/);
      expect(segmentStatement(markdown).segments, id).toEqual(segments);
    }
  });

  it('gives back every statement byte for byte when the service returns the texts unchanged', () => {
    for (const { id, markdown } of statements) {
      const { segments, reassemble } = segmentationOf(markdown);
      expect(reassemble(segments), id).toBe(markdown);
    }
  });

  it.each(targets)(
    'into %s: protected spans byte-identical and in order, the same tree apart from text, every segment translated',
    (target) => {
      const mine = statements.filter((_, index) => targets[index % targets.length] === target);
      expect(mine.length).toBeGreaterThanOrEqual(Math.floor(statements.length / targets.length));
      for (const { id, markdown } of mine) {
        const { segments, reassemble } = segmentationOf(markdown);
        const translated = segments.map((segment) => translate(segment, target));
        const result = reassemble(translated);

        expect(result, id).not.toBe(markdown);
        expect(protectedSpans(result), id).toEqual(protectedSpans(markdown));
        expect(shapeWithoutText(result), id).toEqual(shapeWithoutText(markdown));
        // Segmenting the result finds the same segments, each exactly as the service translated it:
        // nothing fell back to the source, nothing was lost or added on the way back.
        const again = segmentStatement(result).segments;
        expect(again, id).toHaveLength(segments.length);
        expect(again, id).toEqual(translated);
      }
    },
  );
});
