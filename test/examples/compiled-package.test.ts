import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../helpers/run-command.ts';
import { PROBLEMS_KEY, TRANSLATION_KEY, startStack, type Stack } from '../helpers/start-stack.ts';

const run = promisify(execFile);

/**
 * A host app on plain Node (no tsx, no TypeScript) imports the package by name after `npm run build`
 * and gets a working gateway: what `exports` promises outside this repository.
 */
describe('the compiled package (npm run build)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
    await run(process.execPath, [`${PROJECT_ROOT}node_modules/typescript/bin/tsc`, '-p', 'tsconfig.build.json'], { cwd: PROJECT_ROOT });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('is imported by plain Node and answers the cross-source query', async () => {
    const program = `
      import { createGateway } from 'problems-translation-gateway';
      const gateway = await createGateway({
        log: () => {},
        requestLog: false,
        settings: {
          problemsUrl: ${JSON.stringify(stack.upstreamSettings.problemsUrl)}, problemsApiKey: ${JSON.stringify(PROBLEMS_KEY)},
          translationUrl: ${JSON.stringify(stack.upstreamSettings.translationUrl)}, translationApiKey: ${JSON.stringify(TRANSLATION_KEY)},
        },
      });
      const response = await gateway.fetch(new Request('http://host/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ problem(id: "p1001") { title translation(to: "es") { title } } }' }),
      }));
      console.log('RESULT ' + JSON.stringify(await response.json()));
      await gateway.close();
    `;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', program], {
      cwd: PROJECT_ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME },
    });
    const result = JSON.parse(stdout.split('\n').find((line) => line.startsWith('RESULT '))!.slice('RESULT '.length));
    expect(result.errors).toBeUndefined();
    expect(result.data.problem.translation.title).toBeTruthy();
    expect(result.data.problem.translation.title).not.toBe(result.data.problem.title);
  });
});
