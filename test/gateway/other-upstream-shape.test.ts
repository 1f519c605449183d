import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createSchema, createYoga } from 'graphql-yoga';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGateway, type Gateway } from '../../src/gateway/create-gateway.ts';
import { listen, type RunningServer } from '../../src/shared/listen.ts';
import { createTranslationService } from '../../src/upstreams/translation/service.ts';
import { postGraphQL } from '../helpers/start-stack.ts';

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));

/** An upstream the gateway has never seen: exercises instead of problems, its own Language type. */
function createExercisesService() {
  const exercises = [{ code: 'ex-1', heading: 'Sum of two numbers', body: 'Print the sum.' }];
  return createYoga({
    schema: createSchema({
      typeDefs: readFileSync(fixture('problems-without-problem-type.graphql'), 'utf8'),
      resolvers: {
        Query: {
          exercise: (_: unknown, { code }: { code: string }) => exercises.find((exercise) => exercise.code === code),
          exercises: () => exercises,
          languages: () => [{ key: 'c', compiler: 'gcc 12' }],
        },
      },
    }),
  });
}

describe('a problems upstream shaped differently from the stand-in', () => {
  const servers: RunningServer[] = [];
  const log: string[] = [];
  let gateway: Gateway;
  let url: string;

  beforeAll(async () => {
    servers.push(await listen(createExercisesService()));
    servers.push(await listen(createTranslationService({ apiKey: 'tk' }).listener));
    gateway = await createGateway({
      settings: { problemsUrl: servers[0].url, translationUrl: servers[1].url, translationApiKey: 'tk' },
      problemsSchemaPath: fixture('problems-without-problem-type.graphql'), log: (line) => log.push(line) });
    const server = await listen(gateway.listener);
    servers.push(server);
    url = `${server.url}/graphql`;
  });

  afterAll(async () => {
    await gateway?.close();
    for (const server of servers.reverse()) await server.close();
  });

  it('starts and says in one log line each which links it left out', () => {
    // One line a link; the SDK's operations, written for the stand-in's schema, are named in a line of their own.
    expect(log.filter((line) => line.startsWith('link '))).toEqual([
      'link Problem.translation left out: the problems schema has no Problem type',
      'link Problem.translations left out: the problems schema has no Problem type',
    ]);
    expect(log.filter((line) => line.startsWith('SDK operations that do not validate'))).toHaveLength(1);
    expect(gateway.linksLeftOut.map((link) => link.name)).toEqual(['Problem.translation', 'Problem.translations']);
    expect(gateway.schema.getType('ProblemTranslation')).toBeUndefined();
    expect(gateway.schema.getType('ProblemTranslationAvailability')).toBeUndefined();
  });

  it('serves the unknown upstream and the translation namespace side by side, despite both knowing "languages"', async () => {
    const result = await postGraphQL(
      url,
      /* GraphQL */ `
        {
          exercises { code heading }
          languages { key compiler }
          translation { translate(text: "Print the sum.", to: "es") { text } }
        }
      `,
    );
    expect(result.errors).toBeUndefined();
    expect(result.data.exercises).toEqual([{ code: 'ex-1', heading: 'Sum of two numbers' }]);
    expect(result.data.languages).toEqual([{ key: 'c', compiler: 'gcc 12' }]);
    expect(result.data.translation.translate.text).not.toBe('Print the sum.');
  });

  it('leaves the link out when Problem lacks a statement, and still starts', async () => {
    const lines: string[] = [];
    const other = await createGateway({
      settings: { problemsUrl: servers[0].url, translationUrl: servers[1].url, translationApiKey: 'tk' },
      problemsSchemaPath: fixture('problems-without-statement.graphql'), log: (line) => lines.push(line) });
    try {
      expect(lines.filter((line) => line.startsWith('link '))).toEqual([
        'link Problem.translation left out: Problem in the problems schema has no statement field',
        'link Problem.translations left out: Problem in the problems schema has no statement field',
      ]);
      expect(other.schema.getType('Problem')).toBeDefined();
      expect(other.schema.getQueryType()?.getFields().translation).toBeDefined();
    } finally {
      await other.close();
    }
  });
});
