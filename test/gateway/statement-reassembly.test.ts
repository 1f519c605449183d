import { describe, expect, it } from 'vitest';
import { segmentStatement } from '../../src/gateway/statement/segment-statement.ts';
import { failureOf, type StatementFailure } from '../../src/gateway/statement/statement-failure.ts';
import { threadCpuMs } from '../helpers/thread-cpu.ts';
import { growthFrom, protectedSpans, shapeWithoutText } from './statement-spans.ts';

/** A stand-in MT that upper-cases the words of HTML text and leaves tags and entities alone. */
const shout = (html: string) =>
  html.replace(/(<[^>]*>)|([^<]+)/g, (_, tag: string | undefined, text: string | undefined) =>
    tag ?? text!.replace(/&[^;\s]+;|\p{L}+/gu, (word) => (word.startsWith('&') ? word : word.toUpperCase())),
  );
/** An MT that writes a bare URL into its sentence: remark-gfm links it, so the structure would change. */
const withUrl = (html: string) => shout(html).replace(/\.$/, ' (www.example.com).');

const paragraphs = (count: number, line: (index: number) => string, separator = '\n\n') =>
  Array.from({ length: count }, (_, index) => line(index)).join(separator);

/** The statement failure `run` throws, and the CPU time this thread spent before it was thrown. */
function failureFrom(run: () => unknown): { failure?: StatementFailure; ms: number } {
  const start = threadCpuMs();
  try {
    run();
    return { ms: threadCpuMs() - start };
  } catch (error) {
    return { failure: failureOf(error), ms: threadCpuMs() - start };
  }
}

describe('reassembling a translated statement', () => {
  it('keeps every other segment translated when one translation brings a bare URL, which stays in the source', () => {
    const markdown = 'First with $a$.\n\nSecond with `b`.\n\nThird.';
    const { segments, reassemble } = segmentStatement(markdown);
    const result = reassemble(segments.map((segment, index) => (index === 1 ? withUrl(segment) : shout(segment))));
    expect(result).toBe('FIRST WITH $a$.\n\nSecond with `b`.\n\nTHIRD.');
  });

  // A URL adds a link inside its paragraph; an empty translation removes a block: both change the structure.
  const breakers = { 'a bare URL': withUrl, 'an empty text': () => '' };
  const layouts = {
    paragraphs: [(index: number) => `Paragraph ${index} says $x_${index}$ here.`, '\n\n'],
    'items of one list': [(index: number) => `- item ${index} says $x_${index}$ here.`, '\n'],
    'rows of one table': [(index: number) => (index === 0 ? '| a | b |\n|---|---|' : `| cell ${index} says $x$ here. | more here. |`), '\n'],
  } as const;
  it.each(Object.keys(layouts).flatMap((layout) => Object.keys(breakers).map((breaker) => [layout, breaker])))(
    'takes time linear in the statement when half the segments of %s must fall back (%s), n and 4n',
    (layout, breaker) => {
      const [line, separator] = layouts[layout as keyof typeof layouts];
      const breaking = breakers[breaker as keyof typeof breakers];
      const growth = growthFrom(100, (count) => {
        const { segments, reassemble } = segmentStatement(paragraphs(count, line, separator));
        const translated = segments.map((segment, index) => (index % 2 === 0 ? breaking(segment) : shout(segment)));
        return () => {
          const result = reassemble(translated);
          expect(result).toContain('HERE');
          expect(result).not.toContain('www.example.com');
        };
      });
      // Linear work gives 4 to 6 (the parser itself is not quite linear); re-parsing the statement once
      // per segment gave 15 and more.
      expect(growth).toBeLessThan(10);
    },
  );

  it('fails with a coded reason, never the source, when the service translated and nothing could be kept', () => {
    const markdown = paragraphs(5, (index) => `Paragraph ${index} with $n$ and \`code\`.`);
    const { segments, reassemble } = segmentStatement(markdown);
    expect(() => reassemble(segments.map(withUrl))).toThrow(/cannot translate this statement/);
    const { failure } = failureFrom(() => reassemble(segments.map((segment) => segment.replace('Paragraph', '<b>Párrafo</b>'))));
    expect(failure?.message).toMatch(/does not present the original as its translation/);
  });

  it('gives the source back without an error when the service returned every text unchanged', () => {
    const markdown = 'Same $a$ text.\n\nAnd more.';
    const { segments, reassemble } = segmentStatement(markdown);
    expect(reassemble(segments)).toBe(markdown);
  });

  it('keeps, byte for byte, links that remark-gfm finds after parsing (after “ or an escape), and translates around them', () => {
    const markdown = 'See “www.example.com” or www\\.example.org/a_b, mail a\\@b.co &amp; more.\n\n> quoted\n> line https://x.org “https://y.org”.';
    const { segments, reassemble } = segmentStatement(markdown);
    expect(segments).toHaveLength(2);
    const result = reassemble(segments.map(shout));
    expect(result).toBe('SEE “www.example.com” OR www\\.example.org/a_b, MAIL a\\@b.co & MORE.\n\n> QUOTED LINE https://x.org “https://y.org”.');
    expect(protectedSpans(result)).toEqual(protectedSpans(markdown));
    expect(shapeWithoutText(result)).toEqual(shapeWithoutText(markdown));
  });
});

describe('limits on the Markdown of one statement', () => {
  it('refuses a statement over the length limit before parsing it', () => {
    const markdown = paragraphs(9000, (index) => `Line ${index} has $n$ and \`code${index}\` here, a short paragraph of prose.`);
    const { failure, ms } = failureFrom(() => segmentStatement(markdown));
    expect(failure).toMatchObject({ limit: 65_536, actual: markdown.length });
    expect(failure?.message).toMatch(/characters long/);
    expect(ms).toBeLessThan(1000);
  });

  it.each([
    ['10,000 nested quotes', '>'.repeat(10_000) + ' deep'],
    ['nested brackets', '['.repeat(30_000) + 'x' + ']'.repeat(30_000)],
    ['a list nested 400 deep', paragraphs(400, (index) => `${' '.repeat(2 * index)}- item ${index}`, '\n').slice(0, 60_000)],
  ])('refuses %s with a coded reason, without overflowing the stack or taking seconds', (_, markdown) => {
    const { failure, ms } = failureFrom(() => segmentStatement(markdown));
    expect(failure?.limit).toBe(32);
    expect(failure?.message).toMatch(/nested \d+ levels deep/);
    expect(ms).toBeLessThan(1000);
  });

  it('accepts the nesting real statements have: lists in quotes with emphasis and links', () => {
    const markdown = '> - a *b **c [d](https://e.org)** f*\n>   - g\n>     1. h $x$\n>        - i';
    expect(segmentStatement(markdown).segments).toHaveLength(4);
  });
});
