import { spawn } from 'node:child_process';
import { describe, it } from 'vitest';
import { MESH_CLI_REFUSAL } from '../../src/gateway/mesh-cli-guard.ts';
import { PROJECT_ROOT } from '../helpers/run-command.ts';

/** Runs the Mesh CLI in the project; resolves with its exit code and everything it printed. */
function mesh(command: string): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ['node_modules/@graphql-mesh/cli/cjs/bin.js', command], {
    cwd: PROJECT_ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, output })));
}

/**
 * The Mesh CLI on this project's .meshrc.yaml stops at once and says to use `npm start`: served by the
 * CLI, the config would lack the translation runtime, the upstream steps and the client guards that
 * createGateway() adds around it (every translation field would fail).
 */
describe('the Mesh CLI on .meshrc.yaml', () => {
  // Side by side: each is a Mesh CLI loading itself and the config, and neither waits for the other.
  it.concurrent.for(['dev', 'build'])('`mesh %s` exits, saying to run npm start', async (command, { expect }) => {
    const { code, output } = await mesh(command);
    expect(code).not.toBe(0);
    expect(output).toContain(MESH_CLI_REFUSAL);
  });
});
