import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { compiledBuild } from '../helpers/compiled-build.ts';
import { ROOT, runnableSnippets } from '../docs/snippets.ts';

const run = promisify(execFile);
const DIR = `${ROOT}test-artifacts/strict-types/`;

/** The strictest settings apps use, beyond `strict`; NodeNext resolution, imports as Node runs them. */
const STRICTEST = {
  strict: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  module: 'NodeNext',
  moduleResolution: 'NodeNext',
  verbatimModuleSyntax: true,
  noEmit: true,
};

/** tsc's error lines for the files under `folder` (relative to ROOT); errors elsewhere are other tests' to report. */
async function typeErrors(project: string, folder: string): Promise<string[]> {
  const result = await run(process.execPath, [`${ROOT}node_modules/typescript/bin/tsc`, '-p', project], { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 }).catch(
    (error: { stdout: string }) => error,
  );
  return result.stdout.split('\n').filter((line) => line.startsWith(folder) && /error TS\d+/.test(line));
}

/**
 * What an app copies from the docs compiles under `strict` with `exactOptionalPropertyTypes`,
 * `noUncheckedIndexedAccess` and NodeNext: each recipe under examples/, every runnable snippet of
 * the README and docs/clients.md (the SDK's among them), and the files the codegen configuration of
 * docs/clients.md generates.
 */
describe('under the strictest TypeScript settings', () => {
  beforeAll(() => {
    rmSync(DIR, { recursive: true, force: true });
    mkdirSync(DIR, { recursive: true });
  });

  it('the recipes and the README snippets type-check against the declarations the package ships', async () => {
    const recipes = readdirSync(`${ROOT}examples`).filter((name) => existsSync(`${ROOT}examples/${name}/server.ts`));
    expect(recipes.length).toBeGreaterThanOrEqual(5);
    for (const recipe of recipes) cpSync(`${ROOT}examples/${recipe}/server.ts`, `${DIR}recipe-${recipe}.ts`);
    runnableSnippets().forEach((snippet, index) => writeFileSync(`${DIR}snippet-${index + 1}.ts`, `// README: ${snippet.name}\n${snippet.code}`));
    // The repository's settings made strictest, checking these files only, with the package name mapped
    // to what an app gets: the declarations of the run's one build (test/helpers/compiled-build.ts),
    // not src/, which the app never sees and which would be type-checked again under these settings.
    const built = await compiledBuild();
    const paths = { 'problems-translation-gateway': [`${built}/dist/src/index.d.ts`], 'problems-translation-gateway/sdk': [`${built}/dist/src/sdk/index.d.ts`] };
    writeFileSync(`${DIR}tsconfig.json`, JSON.stringify({ extends: '../../tsconfig.json', compilerOptions: { ...STRICTEST, paths }, include: ['*.ts'] }));
    expect(await typeErrors(`${DIR}tsconfig.json`, 'test-artifacts/strict-types/')).toEqual([]);
  });

  it("the codegen configuration of docs/clients.md generates files that type-check in a NodeNext app", async () => {
    const clients = readFileSync(`${ROOT}docs/clients.md`, 'utf8');
    const section = clients.slice(clients.indexOf('**Schema and codegen.**'));
    const config = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
    expect(config, 'the codegen.ts block').toContain('CodegenConfig');
    const app = `${DIR}codegen-app/`;
    mkdirSync(`${app}src`, { recursive: true });
    mkdirSync(`${app}node_modules/problems-translation-gateway`, { recursive: true });
    cpSync(`${ROOT}schema.graphql`, `${app}node_modules/problems-translation-gateway/schema.graphql`);
    writeFileSync(`${app}codegen.ts`, config!);
    writeFileSync(`${app}package.json`, JSON.stringify({ name: 'codegen-app', private: true, type: 'module' }));
    cpSync(`${ROOT}src/sdk/operations/problems-in-language.graphql`, `${app}src/problems.graphql`);
    writeFileSync(
      `${app}src/app.ts`,
      `import { ProblemsInLanguageDocument, type ProblemsInLanguageQuery } from './gql/graphql.js';
import { graphql } from './gql/index.js';
import type { ResultOf } from '@graphql-typed-document-node/core';
const first: ProblemsInLanguageQuery['problems'] = null;
const inline = graphql(\`query ProblemsInLanguage($to: String!, $first: Int = 3) {
  problems(first: $first) {
    nodes {
      id
      title
      translation(to: $to) {
        language
        title
        statement
      }
    }
  }
}\`);
export const documents = [ProblemsInLanguageDocument, inline, first];
export type Title = ResultOf<typeof ProblemsInLanguageDocument>;
`,
    );
    await run(process.execPath, [`${ROOT}node_modules/@graphql-codegen/cli/cjs/bin.js`, '--config', 'codegen.ts'], { cwd: app, env: { PATH: process.env.PATH, HOME: process.env.HOME } }).catch(
      (error: { stdout: string; stderr: string }) => {
        throw new Error(`graphql-codegen in the app:\n${error.stdout}\n${error.stderr}`);
      },
    );
    writeFileSync(`${app}tsconfig.json`, JSON.stringify({ compilerOptions: { ...STRICTEST, target: 'ES2022', types: [] }, include: ['src'] }));
    expect(await typeErrors(`${app}tsconfig.json`, 'test-artifacts/strict-types/codegen-app/')).toEqual([]);
  });
});
