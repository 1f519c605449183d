import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemaFileSource } from '../../src/cli/write-schema.ts';
import { runEntry } from '../helpers/run-command.ts';
import { sharedStack } from '../helpers/shared-stack.ts';
import type { Stack } from '../helpers/start-stack.ts';

/** `npm run schema:print -- <url>`: its entry, run by Node as `npm start` runs its own (types stripped, no tsx). */
function printSchemaOf(args: string[], env: Record<string, string> = {}) {
  return runEntry('src/cli/print-schema.ts', env, [], args);
}

describe('npm run schema:print', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await sharedStack('open');
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('prints the schema the running gateway serves, sorted as schema.graphql is', async () => {
    const command = printSchemaOf([stack.gatewayUrl.replace(/\/graphql$/, '')]);
    expect(await command.exited).toBe(0);
    expect(command.output()).toBe(schemaFileSource(stack.gateway.schema));
  });

  it('sends the key given, and says when the gateway wants one', async () => {
    const keyed = await stack.addGateway({ settings: { gatewayApiKeys: ['print-key'] } });
    // Three runs side by side: none waits for another's start-up.
    const without = printSchemaOf([keyed.gatewayUrl]);
    const withKey = printSchemaOf([keyed.gatewayUrl, '--key', 'print-key']);
    const fromEnvironment = printSchemaOf([keyed.gatewayUrl], { GATEWAY_KEY: 'print-key' });
    expect(await without.exited).toBe(1);
    expect(without.output()).toContain(`schema:print failed: ${keyed.gatewayUrl} refused a request without a key: pass one of its GATEWAY_API_KEYS with --key (or GATEWAY_KEY)`);
    expect(await withKey.exited).toBe(0);
    expect(withKey.output()).toContain('type Query {');
    expect(await fromEnvironment.exited).toBe(0);
    expect(fromEnvironment.output()).toContain('type Query {');
  });

  it('says plainly that a gateway with introspection off does not tell its schema', async () => {
    const closed = await stack.addGateway({ settings: { introspection: false } });
    const command = printSchemaOf([closed.gatewayUrl]);
    expect(await command.exited).toBe(1);
    expect(command.output()).toContain(`schema:print failed: ${closed.gatewayUrl} has introspection turned off (GATEWAY_INTROSPECTION=false, the default in production)`);
  });

  it('refuses what is not a URL with its usage', async () => {
    const command = printSchemaOf(['not a url']);
    expect(await command.exited).toBe(1);
    expect(command.output()).toContain('usage: npm run schema:print -- <gateway-url> [--key <key>]');
  });
});
