import { afterAll, describe, expect, it } from 'vitest';
import { runEntry, type RunningCommand } from '../helpers/run-command.ts';

/** `npm start` advertises GraphiQL on its "listening" line only when it serves it. */
describe('the start-up line about GraphiQL', () => {
  const running: RunningCommand[] = [];
  afterAll(() => {
    for (const command of running) command.child.kill('SIGKILL');
  });

  it.each([
    ['GATEWAY_GRAPHIQL=false', { GATEWAY_GRAPHIQL: 'false' }],
    ['production (stand-ins asked for)', { NODE_ENV: 'production', STAND_INS: 'true' }],
  ])('%s: says GraphiQL is off, and serves none', async (_name, env) => {
    const command = runEntry('src/cli/start.ts', { PORT: '0', ...env });
    running.push(command);
    const [line, port] = await command.waitFor(/listening: http:\/\/localhost:(\d+)\/graphql[^\n]*/);
    expect(line).toContain('GraphQL over HTTP; GraphiQL off');
    expect(line).not.toContain('GraphiQL in a browser');
    const page = await fetch(`http://127.0.0.1:${port}/graphql`, { headers: { accept: 'text/html' } });
    expect(page.headers.get('content-type') ?? '').not.toMatch(/text\/html/);
    command.child.kill('SIGTERM');
    expect(await command.exited).toBe(0);
  });
});
