import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSchema } from 'graphql';
import { afterAll, describe, expect, it } from 'vitest';
import { graphiqlExamplesFor } from '../../src/gateway/graphiql/examples.ts';
import { startStack, type Stack } from '../helpers/start-stack.ts';

// GraphiQL's tabs are written from the schema served: a problems service of one's own, with other
// names and another pagination shape, gets examples that run on it.

const ROOT = new URL('../../', import.meta.url).pathname;
const PUBLIC = readFileSync(`${ROOT}schema.graphql`, 'utf8');
const UPSTREAM = readFileSync(`${ROOT}sources/problems/schema.graphql`, 'utf8');
/** The connection with `edges { node }` only, as Relay-style services have it. */
const withoutNodes = (sdl: string) => sdl.replace(/\n\s*"""The problems of the page\."""\n\s*nodes: \[Problem!\]!\n/, '\n');

const tabs = (sdl: string) => graphiqlExamplesFor(buildSchema(sdl));
const names = (sdl: string) => tabs(sdl).map((example) => example.name);

describe('the GraphiQL examples, written from the schema', () => {
  it('ask `nodes` of a connection that has them, with its size argument, totalCount and pageInfo', () => {
    const [cross, only] = tabs(PUBLIC);
    expect(names(PUBLIC)).toEqual(['ProblemsInYourLanguage', 'ProblemsOnly', 'TranslationOnly', 'TheLink']);
    expect(cross!.query).toMatch(/problems\(first: 3\) \{\n\s+totalCount\n\s+nodes \{\n\s+id\n\s+title\n\s+translation\(to: \$language\) \{/);
    expect(only!.query).toContain('pageInfo { hasNextPage endCursor }');
  });

  it('ask `edges { node }` of a connection without nodes', () => {
    const sdl = withoutNodes(PUBLIC);
    expect(sdl).not.toBe(PUBLIC);
    expect(names(sdl)).toEqual(['ProblemsInYourLanguage', 'ProblemsOnly', 'TranslationOnly', 'TheLink']);
    for (const { query } of tabs(sdl).filter(({ name }) => name !== 'TranslationOnly')) {
      expect(query).toMatch(/edges \{\n\s+node \{\n\s+id\n\s+title/);
      expect(query).not.toContain('nodes');
    }
  });

  it('ask `items` of a connection that lists its problems under that name', () => {
    const sdl = PUBLIC.replace(/\n(\s*)nodes: \[Problem!\]!\n/, '\n$1items: [Problem!]!\n');
    expect(sdl).not.toBe(PUBLIC);
    expect(names(sdl)).toEqual(['ProblemsInYourLanguage', 'ProblemsOnly', 'TranslationOnly', 'TheLink']);
    for (const { query } of tabs(sdl).filter(({ name }) => name !== 'TranslationOnly')) {
      expect(query).toMatch(/items \{\n\s+id\n\s+title/);
      expect(query).not.toContain('nodes');
    }
  });

  it('ask a plain list by its own name, with its own size argument', () => {
    const sdl = PUBLIC.replace(/\n  problems\([\s\S]*?\): ProblemConnection\n/, '\n  tasks(limit: Int): [Problem!]!\n');
    expect(sdl).not.toBe(PUBLIC);
    const [cross] = tabs(sdl);
    expect(cross!.query).toMatch(/tasks\(limit: 3\) \{\n\s+id\n\s+title\n\s+translation\(to: \$language\)/);
    expect(names(sdl)).toEqual(['ProblemsInYourLanguage', 'ProblemsOnly', 'TranslationOnly', 'TheLink']);
  });

  it('leave out what the schema cannot answer: without a list of problems, no tab asks for their translation', () => {
    const sdl = PUBLIC.replace(/\n  problems\([\s\S]*?\): ProblemConnection\n/, '\n  unrelated: Int\n');
    expect(sdl).not.toBe(PUBLIC);
    expect(names(sdl)).not.toContain('ProblemsInYourLanguage');
    expect(names(sdl)).not.toContain('TheLink');
    expect(names(sdl)).toContain('TranslationOnly');
  });
});

describe('a gateway over a problems service whose connection has edges only', () => {
  let stack: Stack | undefined;
  let dir: string | undefined;
  afterAll(async () => {
    await stack?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const lines: string[] = [];

  it('opens GraphiQL on examples that ask edges, and each runs without errors', async () => {
    dir = mkdtempSync(join(tmpdir(), 'edges-schema-'));
    const path = join(dir, 'schema.graphql');
    writeFileSync(path, withoutNodes(UPSTREAM));
    stack = await startStack({ problemsSchemaPath: path, settings: { graphiql: true }, log: (line) => void lines.push(line) });
    const response = await fetch(stack.gatewayUrl, { headers: { accept: 'text/html' } });
    const html = await response.text();
    const options = JSON.parse(/<script id="graphiql-options" type="application\/json">(.*?)<\/script>/s.exec(html)![1]!);
    expect(options.defaultQuery).toMatch(/edges \{\s+node \{/);
    expect(options.defaultTabs).toHaveLength(4);
    for (const tab of options.defaultTabs as { query: string }[]) {
      const result = await stack.query(tab.query);
      expect(result.errors, tab.query).toBeUndefined();
    }
  });

  it("says at start, in one line, which of the package's SDK operations the schema refuses", () => {
    const said = lines.filter((line) => line.startsWith('SDK operations that do not validate'));
    expect(said).toHaveLength(1);
    expect(said[0]).toContain('ProblemsInLanguage (Cannot query field "nodes" on type "ProblemConnection".');
    expect(said[0]).not.toContain('TranslateText');
  });
});
