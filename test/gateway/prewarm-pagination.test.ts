import { createSchema, createYoga } from 'graphql-yoga';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGateway, type Gateway } from '../../src/gateway/create-gateway.ts';
import { listen, type RunningServer } from '../../src/shared/listen.ts';
import { createTranslationService } from '../../src/upstreams/translation/service.ts';
import { createSkippingClock } from '../helpers/skipping-clock.ts';
import { until } from '../helpers/translate-calls.ts';

/**
 * Prewarming walks the pagination each problems service has, read from its schema, and skips a
 * problem the translation service cannot translate. Each service is a small graphql-js server
 * (yoga over graphql-js) on port 0 with 45 problems, the 23rd of which has a title the translation
 * stand-in's model raises on (500 "Cannot translate text", as LibreTranslate does).
 */
const PROBLEMS = Array.from({ length: 45 }, (_, index) => ({
  id: `q${index + 1}`,
  title: index === 22 ? 'The ☠ problem' : `Sum of two numbers, part ${index + 1}`,
  statement: `Read two integers and print their sum, case ${index + 1}.`,
}));

const PROBLEM_TYPES = /* GraphQL */ `
  type Problem { id: ID! title: String! statement: String! }
`;

const pageOf = (from: number, count: number) => PROBLEMS.slice(from, from + count);
const cursorOf = (index: number) => Buffer.from(`problem:${index}`).toString('base64');
const indexAfter = (cursor: string | null | undefined) => (cursor ? Number(Buffer.from(cursor, 'base64').toString().split(':')[1]) + 1 : 0);

/** The shapes of pagination met in the wild, each with its own Query.problems. */
const SHAPES: Record<string, { typeDefs: string; problems: (args: Record<string, any>) => unknown }> = {
  'Relay pageInfo': {
    typeDefs: /* GraphQL */ `
      type PageInfo { hasNextPage: Boolean! endCursor: String }
      type ProblemConnection { nodes: [Problem!]! pageInfo: PageInfo! totalCount: Int! }
      type Query { problems(first: Int = 10, after: String): ProblemConnection! problem(id: ID!): Problem }`,
    problems: ({ first, after }) => {
      const from = indexAfter(after);
      const nodes = pageOf(from, first);
      return { nodes, pageInfo: { hasNextPage: from + nodes.length < PROBLEMS.length, endCursor: nodes.length > 0 ? cursorOf(from + nodes.length - 1) : after }, totalCount: PROBLEMS.length };
    },
  },
  'cursors on edges': {
    typeDefs: /* GraphQL */ `
      type ProblemEdge { cursor: String! node: Problem! }
      type ProblemConnection { edges: [ProblemEdge!]! totalCount: Int! }
      type Query { problems(first: Int!, after: String): ProblemConnection! problem(id: ID!): Problem }`,
    problems: ({ first, after }) => {
      const from = indexAfter(after);
      return { edges: pageOf(from, first).map((node, index) => ({ cursor: cursorOf(from + index), node })), totalCount: PROBLEMS.length };
    },
  },
  'offset/limit': {
    typeDefs: /* GraphQL */ `type Query { problems(offset: Int = 0, limit: Int = 10): [Problem!]! problem(id: ID!): Problem }`,
    problems: ({ offset, limit }) => pageOf(offset, limit),
  },
  'skip/first': {
    typeDefs: /* GraphQL */ `
      type ProblemPage { items: [Problem!]! totalCount: Int! }
      type Query { problems(first: Int!, skip: Int!): ProblemPage! problem(id: ID!): Problem }`,
    problems: ({ first, skip }) => ({ items: pageOf(skip, first), totalCount: PROBLEMS.length }),
  },
  'pages by number': {
    typeDefs: /* GraphQL */ `type Query { problems(page: Int): [Problem!]! problem(id: ID!): Problem }`,
    problems: ({ page }) => pageOf((page ?? 0) * 10, 10),
  },
};

function createShapedProblemsService(shape: string) {
  const { typeDefs, problems } = SHAPES[shape];
  return createYoga({
    schema: createSchema({
      typeDefs: PROBLEM_TYPES + typeDefs,
      resolvers: { Query: { problems: (_: unknown, args: Record<string, any>) => problems(args), problem: (_: unknown, { id }: { id: string }) => PROBLEMS.find((problem) => problem.id === id) } },
    }),
    logging: false,
  });
}

describe('prewarming over problems services paginated their own way', () => {
  const translation = createTranslationService({ untranslatable: ['☠'] });
  let translationServer: RunningServer;

  beforeAll(async () => {
    translationServer = await listen(translation.listener);
  });
  afterAll(async () => {
    await translationServer?.close();
  });

  /** A gateway over the service of `shape`, prewarming `language`, until its first line about prewarming ends what the test waits for. */
  async function prewarmOver(shape: string, language: string, done: (lines: string[]) => boolean) {
    const problemsServer = await listen(createShapedProblemsService(shape));
    const lines: string[] = [];
    let gateway: Gateway | undefined;
    try {
      gateway = await createGateway({
        settings: { problemsUrl: problemsServer.url, translationUrl: translationServer.url, translationPrewarm: [language], translationPrewarmCallsPerSecond: 50, problemsSchemaPollSeconds: 0 },
        requestLog: false,
        log: (line) => lines.push(line),
        // Its pace and pauses counted, not waited for.
        prewarmClock: createSkippingClock(),
      });
      await until(() => done(lines), `prewarming over ${shape}`);
      const metrics = await gateway.fetch(new Request('http://gateway.test/metrics')).then((response) => response.text());
      return { lines: lines.filter((line) => line.startsWith('translation prewarm:')), metrics };
    } finally {
      await gateway?.close();
      await problemsServer.close();
    }
  }

  const completed = (language: string) => (lines: string[]) => lines.some((line) => line.startsWith(`translation prewarm: ${language} complete`));

  it.each([
    ['Relay pageInfo', 'fr'],
    ['cursors on edges', 'de'],
    ['offset/limit', 'es'],
    ['skip/first', 'it'],
  ])('walks a catalogue paginated by %s to its end, skipping (and counting) the problem it cannot translate', async (shape, language) => {
    const { lines, metrics } = await prewarmOver(shape, language, completed(language));
    expect(lines.find((line) => line.includes(' complete: '))).toMatch(new RegExp(`^translation prewarm: ${language} complete: 44 problems translated or cached, 1 failed \\(TEXT_NOT_TRANSLATABLE\\), \\d+ translation calls`));
    // One line for the skipped problem, naming it; the walk went on.
    expect(lines.filter((line) => line.includes('skipped'))).toEqual([`translation prewarm: ${language}: problem "q23" skipped, not translated (TEXT_NOT_TRANSLATABLE); the walk goes on`]);
    expect(metrics).toContain(`gateway_translation_prewarm_problems{language="${language}",state="done"} 44`);
    expect(metrics).toContain(`gateway_translation_prewarm_problems{language="${language}",state="failed"} 1`);
    expect(metrics).toContain(`gateway_translation_prewarm_problems{language="${language}",state="pending"} 0`);
  });

  it('says at start exactly why it cannot walk a catalogue paginated by page number, and calls nothing', async () => {
    const before = translation.stats.byRoute['POST /translate'] ?? 0;
    const { lines } = await prewarmOver('pages by number', 'pt', (all) => all.some((line) => line.startsWith('translation prewarm:')));
    expect(lines).toEqual([
      'translation prewarm: not running, Query.problems (page: Int) takes neither `first` and `after` (cursors) nor `offset` or `skip` with `limit` or `first` (numeric offsets), so it cannot be walked page by page',
    ]);
    expect(translation.stats.byRoute['POST /translate'] ?? 0).toBe(before);
  });
});
